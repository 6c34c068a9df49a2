#include "libjpeg_shim.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jpeglib.h>

#define STRINGIFY2(x) #x
#define STRINGIFY(x) STRINGIFY2(x)

/* libjpeg reports errors through error_exit, which must not return: it longjmps back here, to
   C, which Swift cannot do. Warnings (level -1 in emit_message) are counted, the first one kept. */
struct error_manager {
    struct jpeg_error_mgr pub;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
    int warnings;
};

static void on_error(j_common_ptr cinfo) {
    struct error_manager *err = (struct error_manager *)cinfo->err;
    (*cinfo->err->format_message)(cinfo, err->message);
    longjmp(err->jump, 1);
}

static void on_message(j_common_ptr cinfo, int level) {
    struct error_manager *err = (struct error_manager *)cinfo->err;
    if (level >= 0) return; /* trace messages */
    if (err->warnings++ == 0) (*cinfo->err->format_message)(cinfo, err->message);
}

/* cmyk.h cmyk_to_rgb, as djpeg's PPM writer uses it (wrppm.c put_cmyk). */
static unsigned char cmyk_channel(unsigned char v, unsigned char k) {
    return (unsigned char)((double)v * (double)k / 255.0 + 0.5);
}

int jpegshim_decode_rgba8(const void *data, size_t size, void *out, size_t out_size,
                          uint32_t *width, uint32_t *height, int *warnings,
                          char *message, size_t message_size) {
    struct jpeg_decompress_struct cinfo;
    struct error_manager err;
    /* volatile: modified between setjmp and a possible longjmp. */
    unsigned char *volatile cmyk_row = NULL;
    volatile int status = 0;
    memset(&cinfo, 0, sizeof cinfo);
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = on_error;
    err.pub.emit_message = on_message;
    err.message[0] = '\0';
    err.warnings = 0;
    if (setjmp(err.jump)) {
        status = -1;
        goto done;
    }
    jpeg_create_decompress(&cinfo);
    jpeg_mem_src(&cinfo, (const unsigned char *)data, (unsigned long)size);
    jpeg_read_header(&cinfo, TRUE);
    cinfo.dct_method = JDCT_ISLOW;
    cinfo.do_fancy_upsampling = TRUE;
    int cmyk = cinfo.jpeg_color_space == JCS_CMYK || cinfo.jpeg_color_space == JCS_YCCK;
    cinfo.out_color_space = cmyk ? JCS_CMYK : JCS_EXT_RGBA;
    jpeg_start_decompress(&cinfo);

    JDIMENSION w = cinfo.output_width, h = cinfo.output_height;
    *width = w;
    *height = h;
    if ((size_t)w * h > out_size / 4) {
        status = -2;
        goto done;
    }
    unsigned char *pixels = (unsigned char *)out;
    size_t stride = (size_t)w * 4;
    if (!cmyk) {
        /* Several rows per call: libjpeg fills up to rec_outbuf_height at a time. */
        JSAMPROW rows[16];
        while (cinfo.output_scanline < h) {
            JDIMENSION n = h - cinfo.output_scanline;
            if (n > 16) n = 16;
            for (JDIMENSION i = 0; i < n; i++) rows[i] = pixels + (size_t)(cinfo.output_scanline + i) * stride;
            jpeg_read_scanlines(&cinfo, rows, n);
        }
    } else {
        cmyk_row = (unsigned char *)malloc(stride ? stride : 1);
        if (cmyk_row == NULL) {
            strncpy(err.message, "out of memory", sizeof err.message);
            status = -1;
            goto done;
        }
        while (cinfo.output_scanline < h) {
            unsigned char *dst = pixels + (size_t)cinfo.output_scanline * stride;
            JSAMPROW row = cmyk_row;
            jpeg_read_scanlines(&cinfo, &row, 1);
            for (JDIMENSION x = 0; x < w; x++) {
                const unsigned char *s = cmyk_row + (size_t)x * 4;
                dst[4 * x] = cmyk_channel(s[0], s[3]);
                dst[4 * x + 1] = cmyk_channel(s[1], s[3]);
                dst[4 * x + 2] = cmyk_channel(s[2], s[3]);
                dst[4 * x + 3] = 0xFF;
            }
        }
    }
    jpeg_finish_decompress(&cinfo);

done:
    jpeg_destroy_decompress(&cinfo);
    free(cmyk_row);
    if (warnings) *warnings = err.warnings;
    if (message && message_size) {
        strncpy(message, err.message, message_size - 1);
        message[message_size - 1] = '\0';
    }
    return status;
}

const char *jpegshim_version(void) {
    return STRINGIFY(LIBJPEG_TURBO_VERSION);
}

int jpegshim_encode(const void *pixels, uint32_t width, uint32_t height, int components, int quality,
                    int h, int v, int optimize, int progressive, unsigned char **out, unsigned long *out_size) {
    struct jpeg_compress_struct cinfo;
    struct error_manager err;
    *out = NULL;
    *out_size = 0;
    cinfo.err = jpeg_std_error(&err.pub);
    err.pub.error_exit = on_error;
    err.pub.emit_message = on_message;
    err.warnings = 0;
    if (setjmp(err.jump)) {
        jpeg_destroy_compress(&cinfo);
        free(*out);
        *out = NULL;
        return -1;
    }
    jpeg_create_compress(&cinfo);
    jpeg_mem_dest(&cinfo, out, out_size);
    cinfo.image_width = width;
    cinfo.image_height = height;
    cinfo.input_components = components;
    cinfo.in_color_space = components == 1 ? JCS_GRAYSCALE : JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, FALSE);
    cinfo.comp_info[0].h_samp_factor = h;
    cinfo.comp_info[0].v_samp_factor = v;
    cinfo.dct_method = JDCT_ISLOW;
    cinfo.optimize_coding = optimize ? TRUE : FALSE;
    if (progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    const unsigned char *base = (const unsigned char *)pixels;
    size_t stride = (size_t)width * (size_t)components;
    while (cinfo.next_scanline < cinfo.image_height) {
        JSAMPROW row = (JSAMPROW)(base + (size_t)cinfo.next_scanline * stride);
        jpeg_write_scanlines(&cinfo, &row, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    return 0;
}

int jpegshim_transcode(const void *data, size_t size, int optimize, int progressive,
                       unsigned char **out, unsigned long *out_size) {
    struct jpeg_decompress_struct src;
    struct jpeg_compress_struct dst;
    struct error_manager err;
    *out = NULL;
    *out_size = 0;
    memset(&src, 0, sizeof src);
    memset(&dst, 0, sizeof dst);
    src.err = jpeg_std_error(&err.pub);
    dst.err = &err.pub;
    err.pub.error_exit = on_error;
    err.pub.emit_message = on_message;
    err.warnings = 0;
    if (setjmp(err.jump)) {
        jpeg_destroy_compress(&dst);
        jpeg_destroy_decompress(&src);
        free(*out);
        *out = NULL;
        return -1;
    }
    jpeg_create_decompress(&src);
    jpeg_create_compress(&dst);
    jpeg_mem_src(&src, (const unsigned char *)data, (unsigned long)size);
    jpeg_read_header(&src, TRUE);
    jvirt_barray_ptr *coefficients = jpeg_read_coefficients(&src);
    jpeg_copy_critical_parameters(&src, &dst);
    if (optimize) dst.optimize_coding = TRUE;
    if (progressive) jpeg_simple_progression(&dst);
    jpeg_mem_dest(&dst, out, out_size);
    jpeg_write_coefficients(&dst, coefficients);
    jpeg_finish_compress(&dst);
    jpeg_destroy_compress(&dst);
    jpeg_finish_decompress(&src);
    jpeg_destroy_decompress(&src);
    return 0;
}

void jpegshim_free(void *p) { free(p); }
