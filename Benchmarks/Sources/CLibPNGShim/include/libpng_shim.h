#ifndef LIBPNG_SHIM_H
#define LIBPNG_SHIM_H

#include <stddef.h>
#include <stdint.h>

/// Decodes the PNG in `data` with libpng's classic API into RGBA8, the layout of our default
/// output: palette and low bit depths expanded, tRNS turned into alpha, grey copied to RGB,
/// 16-bit samples cut to their high byte (png_set_strip_16), opaque types given alpha 255,
/// Adam7 de-interlaced. No gamma or colour transform.
///
/// `out` must hold `out_size` >= width * height * 4 bytes. Returns 0 on success, -1 when libpng
/// reports an error, -2 when `out_size` is too small. `width` and `height` receive the size.
int pngshim_decode_rgba8(const void *data, size_t size, void *out, size_t out_size,
                         uint32_t *width, uint32_t *height);

/// The version of the libpng linked in, such as "1.6.39".
const char *pngshim_version(void);

#endif
