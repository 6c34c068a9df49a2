#include "libpng_shim.h"

#include <png.h>
#include <setjmp.h>
#include <stdlib.h>
#include <string.h>

struct memory_reader {
    const unsigned char *data;
    size_t size;
    size_t offset;
};

static void read_from_memory(png_structp png, png_bytep dest, png_size_t length) {
    struct memory_reader *reader = (struct memory_reader *)png_get_io_ptr(png);
    if (length > reader->size - reader->offset) {
        png_error(png, "read past end of data");
    }
    memcpy(dest, reader->data + reader->offset, length);
    reader->offset += length;
}

static void ignore_warning(png_structp png, png_const_charp message) {
    (void)png;
    (void)message;
}

int pngshim_decode_rgba8(const void *data, size_t size, void *out, size_t out_size,
                         uint32_t *width, uint32_t *height) {
    png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, ignore_warning);
    if (png == NULL) return -1;
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_read_struct(&png, NULL, NULL);
        return -1;
    }
    /* volatile: modified between setjmp and a possible longjmp. */
    png_bytepp volatile rows = NULL;
    volatile int status = 0;
    if (setjmp(png_jmpbuf(png))) {
        status = status ? status : -1;
        goto done;
    }

    struct memory_reader reader = { (const unsigned char *)data, size, 0 };
    png_set_read_fn(png, &reader, read_from_memory);
    png_read_info(png, info);

    png_uint_32 w = png_get_image_width(png, info);
    png_uint_32 h = png_get_image_height(png, info);
    *width = w;
    *height = h;
    if ((size_t)w * h > out_size / 4) {
        status = -2;
        goto done;
    }

    int colour_type = png_get_color_type(png, info);
    png_set_expand(png);               /* palette -> RGB, grey < 8 bits -> 8, tRNS -> alpha */
    png_set_strip_16(png);             /* v >> 8 */
    if (!(colour_type & PNG_COLOR_MASK_COLOR)) png_set_gray_to_rgb(png);
    png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER); /* no-op when alpha is already there */
    png_set_interlace_handling(png);
    png_read_update_info(png, info);
    if (png_get_rowbytes(png, info) != (size_t)w * 4) {
        png_error(png, "unexpected row size after transforms");
    }

    rows = (png_bytepp)malloc(sizeof(png_bytep) * (h ? h : 1));
    if (rows == NULL) png_error(png, "out of memory");
    for (png_uint_32 y = 0; y < h; y++) {
        rows[y] = (png_bytep)out + (size_t)y * w * 4;
    }
    png_read_image(png, rows);
    png_read_end(png, NULL);

done:
    free(rows);
    png_destroy_read_struct(&png, &info, NULL);
    return status;
}

const char *pngshim_version(void) {
    return png_get_libpng_ver(NULL);
}
