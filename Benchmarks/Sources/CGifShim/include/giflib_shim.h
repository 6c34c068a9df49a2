#ifndef GIFLIB_SHIM_H
#define GIFLIB_SHIM_H

#include <stddef.h>
#include <stdint.h>

/// Called after each frame has been composited, with the whole canvas (width * height * 4
/// bytes, RGBA8), valid until the call returns. `index` counts images from 0 in file order.
typedef void (*gifshim_frame_callback)(void *context, int index, const uint8_t *canvas);

/// Decodes the GIF in `data` with giflib's DGifSlurp, then composites every image onto
/// `canvas`, the logical screen as RGBA8 (straight alpha, rows top to bottom, no padding), with
/// the browser semantics ImageCodecs implements:
///   - the canvas starts transparent (0,0,0,0); the background colour is never painted;
///   - each image's rectangle is clipped to the logical screen;
///   - the palette is the local colour table, else the global one; an index past the table,
///     and every index of an image with no table at all, is opaque black (0,0,0,255);
///   - the image's graphic control extension is the last one before it whose first sub-block
///     has at least 4 bytes; pixels of its transparent index leave the canvas as it is;
///   - before the next image is drawn, this one's disposal is applied to its clipped
///     rectangle: 2 clears it to (0,0,0,0); 3 and 4 restore it as it was before this image
///     was drawn (on the first image that is the empty canvas, i.e. the same as 2); 0, 1 and
///     5 to 7 leave it.
/// Alpha is only ever 0 or 255, and a pixel of alpha 0 is always 0,0,0,0 (the canonical form).
///
/// `canvas` must hold `canvas_size` >= width * height * 4 bytes of the logical screen; the
/// final frame is left in it. `callback` (may be NULL) sees every frame. Returns 0 on success;
/// a giflib error code (D_GIF_ERR_*, > 0) when giflib refuses the file; -1 when DGifSlurp fails
/// without one; -2 when the screen is empty or `canvas_size` is too small; -3 out of memory.
/// `width`, `height` and `frames` receive the screen size and the number of images.
int gifshim_decode_composite(const void *data, size_t size, uint8_t *canvas, size_t canvas_size,
                             gifshim_frame_callback callback, void *context,
                             uint32_t *width, uint32_t *height, int *frames);

/// giflib's message for an error code from gifshim_decode_composite, or NULL.
const char *gifshim_error_string(int error);

/// The giflib version of the header compiled against, such as "5.2.1".
const char *gifshim_version(void);

#endif
