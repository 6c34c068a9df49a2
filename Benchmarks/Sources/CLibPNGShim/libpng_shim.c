#include "libpng_shim.h"

#include <png.h>
#include <zlib.h>
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

struct memory_writer {
    unsigned char *data;
    size_t size;
    size_t capacity;
};

static void write_to_memory(png_structp png, png_bytep src, png_size_t length) {
    struct memory_writer *writer = (struct memory_writer *)png_get_io_ptr(png);
    if (writer->size + length > writer->capacity) {
        size_t capacity = writer->capacity ? writer->capacity * 2 : 1 << 16;
        while (capacity < writer->size + length) capacity *= 2;
        unsigned char *grown = (unsigned char *)realloc(writer->data, capacity);
        if (grown == NULL) png_error(png, "out of memory");
        writer->data = grown;
        writer->capacity = capacity;
    }
    memcpy(writer->data + writer->size, src, length);
    writer->size += length;
}

static void flush_memory(png_structp png) {
    (void)png;
}

int pngshim_encode(const void *pixels, size_t row_bytes, uint32_t width, uint32_t height, int bit_depth,
                   int colour_type, const uint8_t *palette, int palette_entries, const uint8_t *trns,
                   int trns_count, int level, unsigned char **out, size_t *out_size) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, ignore_warning);
    if (png == NULL) return -1;
    png_infop info = png_create_info_struct(png);
    if (info == NULL) {
        png_destroy_write_struct(&png, NULL);
        return -1;
    }
    struct memory_writer writer = { NULL, 0, 0 };
    if (setjmp(png_jmpbuf(png))) {
        free(writer.data);
        png_destroy_write_struct(&png, &info);
        return -1;
    }
    png_set_write_fn(png, &writer, write_to_memory, flush_memory);
    png_set_compression_level(png, level);
    png_set_IHDR(png, info, width, height, bit_depth, colour_type, PNG_INTERLACE_NONE,
                 PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    if (colour_type == PNG_COLOR_TYPE_PALETTE && palette_entries > 0) {
        png_color entries[256];
        for (int i = 0; i < palette_entries && i < 256; i++) {
            entries[i].red = palette[3 * i];
            entries[i].green = palette[3 * i + 1];
            entries[i].blue = palette[3 * i + 2];
        }
        png_set_PLTE(png, info, entries, palette_entries);
        if (trns_count > 0) png_set_tRNS(png, info, trns, trns_count, NULL);
    }
    png_write_info(png, info);
    for (uint32_t y = 0; y < height; y++) {
        png_write_row(png, (png_const_bytep)pixels + (size_t)y * row_bytes);
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    *out = writer.data;
    *out_size = writer.size;
    return 0;
}

int pngshim_zlib_compress(const void *data, size_t size, int level, unsigned char **out, size_t *out_size) {
    uLongf bound = compressBound((uLong)size);
    unsigned char *buffer = (unsigned char *)malloc(bound);
    if (buffer == NULL) return -1;
    if (compress2(buffer, &bound, (const Bytef *)data, (uLong)size, level) != Z_OK) {
        free(buffer);
        return -1;
    }
    *out = buffer;
    *out_size = bound;
    return 0;
}

const char *pngshim_version(void) {
    return png_get_libpng_ver(NULL);
}
