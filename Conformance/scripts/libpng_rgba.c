/*
 * libpng_rgba.c - second PNG reference, used only by `make_manifests.py crosscheck`
 * (the manifests themselves come from libspng, see spng_rgba.c).
 *
 * Decodes the static image of a PNG with libpng 1.6 and writes the canonical
 * pixels: png_set_expand (palette -> RGB, grey < 8 bits scaled, tRNS -> alpha),
 * png_set_strip_16 (16 -> 8 bits by dropping the low byte, i.e. v >> 8),
 * png_set_gray_to_rgb, png_set_add_alpha(0xff); no gamma; alpha 0 -> 0,0,0,0.
 * png_read_end() is called, so errors after the image data also count.
 * libpng defaults: critical-chunk CRC error = error; ancillary-chunk CRC error =
 * warning, chunk discarded; benign errors are warnings.
 *
 * Build:  cc -O2 libpng_rgba.c -lpng -o libpng_rgba
 * Output: "W H\n" + W*H*4 bytes on stdout, exit 0; "error: msg" on stderr, exit 1.
 */
#include <png.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void on_error(png_structp p, png_const_charp msg)
{
    fprintf(stderr, "error: %s\n", msg);
    longjmp(png_jmpbuf(p), 1);
}

static void on_warning(png_structp p, png_const_charp msg)
{
    (void)p;
    fprintf(stderr, "warning: %s\n", msg);
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: libpng_rgba FILE\n"); return 3; }
    FILE *f = fopen(argv[1], "rb");
    if (!f) { perror(argv[1]); return 3; }

    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, on_error, on_warning);
    png_infop info = png_create_info_struct(png);
    png_infop end = png_create_info_struct(png);
    unsigned char *volatile pix = NULL;
    png_bytep *volatile rows = NULL;
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_read_struct(&png, &info, &end);
        free(pix);
        free(rows);
        fclose(f);
        return 1;
    }
    png_set_user_limits(png, 1000000, 1000000);
    png_init_io(png, f);
    png_read_info(png, info);
    png_uint_32 w = png_get_image_width(png, info), h = png_get_image_height(png, info);
    if ((unsigned long long)w * h * 4 > (1ull << 30)) {
        fprintf(stderr, "error: harness: image too large\n");
        return 1;
    }
    png_set_expand(png);
    png_set_strip_16(png);
    png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4) {
        fprintf(stderr, "error: harness: unexpected row size\n");
        return 1;
    }
    pix = malloc((size_t)w * h * 4 + 1);
    rows = malloc(sizeof(png_bytep) * (h + 1));
    for (png_uint_32 y = 0; y < h; y++) rows[y] = pix + (size_t)y * w * 4;
    png_read_image(png, rows);
    png_read_end(png, end);
    for (size_t i = 0; i < (size_t)w * h; i++)
        if (pix[i * 4 + 3] == 0) memset(pix + i * 4, 0, 4);
    printf("%u %u\n", (unsigned)w, (unsigned)h);
    fwrite(pix, 4, (size_t)w * h, stdout);
    png_destroy_read_struct(&png, &info, &end);
    free(pix);
    free(rows);
    fclose(f);
    return 0;
}
