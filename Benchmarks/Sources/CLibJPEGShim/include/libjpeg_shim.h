#ifndef LIBJPEG_SHIM_H
#define LIBJPEG_SHIM_H

#include <stddef.h>
#include <stdint.h>

/// Decodes the JPEG in `data` with libjpeg-turbo's classic API into RGBA8 (alpha 255), the
/// settings of the conformance reference `djpeg -dct int`: `jpeg_mem_src`, `dct_method =
/// JDCT_ISLOW`, `do_fancy_upsampling = TRUE` (the default, set anyway), block smoothing on (the
/// default), `out_color_space = JCS_EXT_RGBA`. Grey becomes R=G=B. CMYK and YCCK files are decoded
/// to CMYK and converted as djpeg's PPM writer does (cmyk.h `cmyk_to_rgb`: R = C*K/255 rounded).
///
/// `out` must hold `out_size` >= width * height * 4 bytes. Returns 0 on success, -1 when libjpeg
/// reports an error (its message is copied to `message` when that is not NULL), -2 when
/// `out_size` is too small. `width` and `height` receive the size; `warnings` (may be NULL) the
/// number of warnings libjpeg emitted (corrupt data it skipped or filled), whose first message
/// goes to `message` as well.
int jpegshim_decode_rgba8(const void *data, size_t size, void *out, size_t out_size,
                          uint32_t *width, uint32_t *height, int *warnings,
                          char *message, size_t message_size);

/// The libjpeg-turbo version of the headers built against, such as "2.1.5".
const char *jpegshim_version(void);

/// Encodes `pixels` (rows of width * components bytes; 1 gray, 3 RGB) with libjpeg-turbo's
/// compressor as cjpeg sets it up: `jpeg_set_defaults`, `jpeg_set_quality(quality, FALSE)`
/// (cjpeg's -quality leaves 16-bit quantizers allowed), luma sampling h x v, ISLOW forward DCT,
/// `optimize_coding`, `jpeg_simple_progression` when `progressive`; `jpeg_mem_dest`. On success
/// returns 0 and a malloc'd file in `*out` (`*out_size` bytes; free with `jpegshim_free`).
int jpegshim_encode(const void *pixels, uint32_t width, uint32_t height, int components, int quality,
                    int h, int v, int optimize, int progressive, unsigned char **out, unsigned long *out_size);

/// Lossless transcoding as jpegtran does it without a transform and with `-copy none`:
/// `jpeg_read_coefficients`, `jpeg_copy_critical_parameters`, `jpeg_simple_progression` when
/// `progressive`, `optimize_coding` when `optimize`, `jpeg_write_coefficients`. Returns 0 and a
/// malloc'd file in `*out` (free with `jpegshim_free`), or -1.
int jpegshim_transcode(const void *data, size_t size, int optimize, int progressive,
                       unsigned char **out, unsigned long *out_size);

/// Frees a file from `jpegshim_encode` or `jpegshim_transcode`.
void jpegshim_free(void *p);

#endif
