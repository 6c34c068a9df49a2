/*
 * spng_rgba.c - reference PNG decoder for the ImageCodecs conformance manifests.
 *
 * Decodes the static (IHDR/IDAT) image of a PNG with libspng and writes the
 * canonical pixels used by every ImageCodecs check:
 *   RGBA8, not premultiplied, rows top to bottom, no padding;
 *   16-bit samples -> 8 bits by v >> 8 (high byte);
 *   tRNS applied (SPNG_DECODE_TRNS); no gamma / ICC / sBIT applied;
 *   any pixel whose alpha is 0 is written as 0,0,0,0.
 *
 * Build:  cc -O2 spng_rgba.c -lspng -o spng_rgba
 * Usage:  spng_rgba [--image-only] [--raw] FILE
 *         --raw (for check_encoders.py): "W H DEPTH\n", then the RGBA8 or RGBA16 (big-endian)
 *         samples as decoded, tRNS applied, nothing zeroed or narrowed.
 *
 * Output on stdout: one text line "W H\n", then exactly W*H*4 bytes.
 * Exit status:
 *   0  image decoded, and the chunks after the image data were read up to IEND
 *      without error (spng_decode_chunks);
 *   1  libspng refused the file (nothing on stdout; "error: <stage>: <msg>" on stderr);
 *   2  image decoded and written to stdout, but reading the chunks after the
 *      image data failed (e.g. CRC error in the last IDAT, truncated after the
 *      image, missing IEND); "trailer-error: <msg>" on stderr.
 *      With --image-only the trailing chunks are not read and this cannot happen.
 *   3  usage / I/O error.
 *
 * libspng settings are the library defaults (spng_ctx_new(0)):
 *   CRC policy: critical chunks SPNG_CRC_ERROR, ancillary chunks SPNG_CRC_DISCARD
 *   (an ancillary chunk with a bad CRC is dropped silently); Adler-32 checked;
 *   non-strict (a malformed ancillary chunk is discarded, not fatal).
 * One harness limit: a decoded RGBA16 buffer larger than 1 GiB is reported as
 * an error ("harness: image too large") instead of being allocated.
 */
#include <spng.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0;
    unsigned char *buf = malloc(cap);
    if (!buf) { fclose(f); return NULL; }
    for (;;) {
        if (n == cap) {
            cap *= 2;
            unsigned char *nb = realloc(buf, cap);
            if (!nb) { free(buf); fclose(f); return NULL; }
            buf = nb;
        }
        size_t r = fread(buf + n, 1, cap - n, f);
        n += r;
        if (r == 0) break;
    }
    fclose(f);
    *len = n;
    return buf;
}

static int fail(const char *stage, int err)
{
    fprintf(stderr, "error: %s: %s (%d)\n", stage, spng_strerror(err), err);
    return 1;
}

int main(int argc, char **argv)
{
    int image_only = 0, raw = 0;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--image-only")) image_only = 1;
        else if (!strcmp(argv[i], "--raw")) raw = 1;
        else path = argv[i];
    }
    if (!path) {
        fprintf(stderr, "usage: spng_rgba [--image-only] [--raw] FILE\n");
        return 3;
    }

    size_t flen = 0;
    unsigned char *data = read_file(path, &flen);
    if (!data) { perror(path); return 3; }

    spng_ctx *ctx = spng_ctx_new(0);
    if (!ctx) { fprintf(stderr, "error: spng_ctx_new\n"); return 3; }

    int ret = spng_set_png_buffer(ctx, data, flen);
    if (ret) return fail("set_png_buffer", ret);

    struct spng_ihdr ihdr;
    ret = spng_get_ihdr(ctx, &ihdr);
    if (ret) return fail("ihdr", ret);

    const int wide = ihdr.bit_depth == 16;
    const int fmt = wide ? SPNG_FMT_RGBA16 : SPNG_FMT_RGBA8;

    size_t out_size = 0;
    ret = spng_decoded_image_size(ctx, fmt, &out_size);
    if (ret) return fail("decoded_image_size", ret);
    if (out_size > ((size_t)1 << 30)) {
        fprintf(stderr, "error: harness: image too large (%zu bytes)\n", out_size);
        return 1;
    }

    unsigned char *out = malloc(out_size ? out_size : 1);
    if (!out) { fprintf(stderr, "error: harness: out of memory\n"); return 1; }

    ret = spng_decode_image(ctx, out, out_size, fmt, SPNG_DECODE_TRNS);
    if (ret) return fail("decode_image", ret);

    int trailer = 0;
    if (!image_only) {
        ret = spng_decode_chunks(ctx);
        if (ret) {
            fprintf(stderr, "trailer-error: %s (%d)\n", spng_strerror(ret), ret);
            trailer = 1;
        }
    }

    const size_t npix = (size_t)ihdr.width * ihdr.height;
    if (raw) {
        /* --raw: "W H DEPTH", then RGBA8 or RGBA16 big-endian, tRNS applied, nothing zeroed. */
        printf("%u %u %d\n", ihdr.width, ihdr.height, wide ? 16 : 8);
        fflush(stdout);
        if (wide) {
            for (size_t i = 0; i < npix * 4; i++) {
                const uint16_t v = ((const uint16_t *)out)[i];
                unsigned char be[2] = { (unsigned char)(v >> 8), (unsigned char)(v & 0xFF) };
                if (fwrite(be, 1, 2, stdout) != 2) { perror("write"); return 3; }
            }
        } else if (npix && fwrite(out, 4, npix, stdout) != npix) {
            perror("write");
            return 3;
        }
        fflush(stdout);
        return trailer ? 2 : 0;
    }
    unsigned char *canon = malloc(npix ? npix * 4 : 1);
    if (!canon) { fprintf(stderr, "error: harness: out of memory\n"); return 1; }

    for (size_t i = 0; i < npix; i++) {
        unsigned char px[4];
        if (wide) {
            /* host-endian uint16 samples -> high byte */
            const uint16_t *s = (const uint16_t *)(out + i * 8);
            for (int c = 0; c < 4; c++) px[c] = (unsigned char)(s[c] >> 8);
        } else {
            memcpy(px, out + i * 4, 4);
        }
        if (px[3] == 0) px[0] = px[1] = px[2] = 0;
        memcpy(canon + i * 4, px, 4);
    }

    printf("%u %u\n", ihdr.width, ihdr.height);
    fflush(stdout);
    if (npix && fwrite(canon, 4, npix, stdout) != npix) { perror("write"); return 3; }
    fflush(stdout);

    free(canon);
    free(out);
    spng_ctx_free(ctx);
    free(data);
    return trailer ? 2 : 0;
}
