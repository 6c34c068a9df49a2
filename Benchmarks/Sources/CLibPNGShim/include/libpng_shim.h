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

/// Encodes `height` rows of `row_bytes` bytes each (the layout of the IHDR given: colour type,
/// bit depth, samples big-endian) with libpng's classic API at zlib `level`, libpng's default
/// filter choice, no interlace; `palette` (RGB triples, `palette_entries` of them) and `trns`
/// (`trns_count` bytes: palette alphas) for colour type 3. On success returns 0 and sets `*out`
/// (malloc'd; the caller frees it) and `*out_size`; -1 when libpng reports an error.
int pngshim_encode(const void *pixels, size_t row_bytes, uint32_t width, uint32_t height, int bit_depth,
                   int colour_type, const uint8_t *palette, int palette_entries, const uint8_t *trns,
                   int trns_count, int level, unsigned char **out, size_t *out_size);

/// zlib's compress2 of `size` bytes at `level` into a malloc'd buffer: a plain deflate of the raw
/// bytes, the floor a PNG encoder is measured against. Returns 0 on success.
int pngshim_zlib_compress(const void *data, size_t size, int level, unsigned char **out, size_t *out_size);

/// The version of the libpng linked in, such as "1.6.39".
const char *pngshim_version(void);

#endif
