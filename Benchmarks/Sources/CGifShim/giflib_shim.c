#include "giflib_shim.h"

#include <gif_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The compositing rules are those of Conformance/scripts/gif_composite.c (the reference the
   conformance manifests are made with), written again here for speed: a 256-entry RGBA
   palette per image, the canvas before an image saved only when its disposal needs it, and no
   per-frame copy (the callback sees the canvas itself). */

struct memory_reader {
    const unsigned char *data;
    size_t size;
    size_t offset;
};

static int read_from_memory(GifFileType *gif, GifByteType *dest, int length) {
    struct memory_reader *reader = (struct memory_reader *)gif->UserData;
    if (length <= 0) return 0;
    size_t n = (size_t)length;
    if (n > reader->size - reader->offset) n = reader->size - reader->offset;
    memcpy(dest, reader->data + reader->offset, n);
    reader->offset += n;
    return (int)n;
}

typedef struct {
    long x0, y0, x1, y1; /* clipped to the screen, half-open */
} rect;

static rect clip_rect(const GifImageDesc *d, long cw, long ch) {
    rect r;
    r.x0 = d->Left < cw ? d->Left : cw;
    r.y0 = d->Top < ch ? d->Top : ch;
    long x1 = (long)d->Left + d->Width, y1 = (long)d->Top + d->Height;
    r.x1 = x1 < cw ? x1 : cw;
    r.y1 = y1 < ch ? y1 : ch;
    if (r.x1 < r.x0) r.x1 = r.x0;
    if (r.y1 < r.y0) r.y1 = r.y0;
    return r;
}

static void clear_rect(unsigned char *canvas, long cw, rect r) {
    for (long y = r.y0; y < r.y1; y++)
        memset(canvas + ((size_t)y * cw + r.x0) * 4, 0, (size_t)(r.x1 - r.x0) * 4);
}

static void copy_rect(unsigned char *dst, const unsigned char *src, long cw, rect r) {
    for (long y = r.y0; y < r.y1; y++) {
        size_t offset = ((size_t)y * cw + r.x0) * 4;
        memcpy(dst + offset, src + offset, (size_t)(r.x1 - r.x0) * 4);
    }
}

/* The last graphic control extension before the image with a first sub-block of >= 4 bytes:
   disposal (raw 3 bits) and transparent index (-1: none). */
static void image_gce(const SavedImage *sp, int *disposal, int *tindex) {
    *disposal = 0;
    *tindex = -1;
    for (int i = 0; i < sp->ExtensionBlockCount; i++) {
        const ExtensionBlock *eb = &sp->ExtensionBlocks[i];
        if (eb->Function != GRAPHICS_EXT_FUNC_CODE || eb->ByteCount < 4) continue;
        *disposal = (eb->Bytes[0] >> 2) & 7;
        *tindex = (eb->Bytes[0] & 1) ? eb->Bytes[3] : -1;
    }
}

int gifshim_decode_composite(const void *data, size_t size, uint8_t *canvas, size_t canvas_size,
                             gifshim_frame_callback callback, void *context,
                             uint32_t *width, uint32_t *height, int *frames) {
    struct memory_reader reader = { (const unsigned char *)data, size, 0 };
    int error = 0;
    GifFileType *gif = DGifOpen(&reader, read_from_memory, &error);
    if (gif == NULL) return error ? error : -1;
    int status = 0;
    unsigned char *saved = NULL; /* the canvas before the previous image, where it needs it */
    if (DGifSlurp(gif) != GIF_OK) {
        status = gif->Error ? gif->Error : -1;
        goto done;
    }

    const long cw = gif->SWidth, ch = gif->SHeight;
    *width = (uint32_t)cw;
    *height = (uint32_t)ch;
    *frames = gif->ImageCount;
    if (cw <= 0 || ch <= 0 || (size_t)cw * (size_t)ch > canvas_size / 4) {
        status = -2;
        goto done;
    }
    const size_t npix = (size_t)cw * (size_t)ch;
    memset(canvas, 0, npix * 4);

    int prev_disposal = 0;
    rect prev_rect = { 0, 0, 0, 0 };
    for (int k = 0; k < gif->ImageCount; k++) {
        const SavedImage *sp = &gif->SavedImages[k];
        const GifImageDesc *d = &sp->ImageDesc;
        int disposal, tindex;
        image_gce(sp, &disposal, &tindex);
        const rect r = clip_rect(d, cw, ch);

        if (prev_disposal == 2) clear_rect(canvas, cw, prev_rect);
        else if (prev_disposal == 3) copy_rect(canvas, saved, cw, prev_rect);

        if (disposal == 4) disposal = 3;
        else if (disposal > 4) disposal = 0;
        if (disposal == 3 && k == 0) disposal = 2; /* nothing before the first image: clear */
        if (disposal == 3) {
            if (saved == NULL && (saved = malloc(npix * 4)) == NULL) {
                status = -3;
                goto done;
            }
            copy_rect(saved, canvas, cw, r);
        }

        /* RGBA in memory order; entries the table does not define are opaque black. */
        uint32_t palette[256];
        const unsigned char black[4] = { 0, 0, 0, 255 };
        for (int i = 0; i < 256; i++) memcpy(&palette[i], black, 4);
        const ColorMapObject *cm = d->ColorMap ? d->ColorMap : gif->SColorMap;
        const int ncolors = cm ? (cm->ColorCount < 256 ? cm->ColorCount : 256) : 0;
        for (int i = 0; i < ncolors; i++) {
            const unsigned char rgba[4] = { cm->Colors[i].Red, cm->Colors[i].Green, cm->Colors[i].Blue, 255 };
            memcpy(&palette[i], rgba, 4);
        }

        const long w = r.x1 - r.x0;
        for (long y = r.y0; y < r.y1; y++) {
            const unsigned char *src = sp->RasterBits + (size_t)(y - d->Top) * d->Width + (r.x0 - d->Left);
            unsigned char *dst = canvas + ((size_t)y * cw + r.x0) * 4;
            if (tindex < 0) {
                for (long x = 0; x < w; x++) memcpy(dst + 4 * x, &palette[src[x]], 4);
            } else {
                for (long x = 0; x < w; x++)
                    if (src[x] != tindex) memcpy(dst + 4 * x, &palette[src[x]], 4);
            }
        }

        prev_disposal = disposal;
        prev_rect = r;
        if (callback) callback(context, k, canvas);
    }

done:
    free(saved);
    DGifCloseFile(gif, &error);
    return status;
}

const char *gifshim_error_string(int error) {
    return error > 0 ? GifErrorString(error) : NULL;
}

const char *gifshim_version(void) {
    static char version[32];
    snprintf(version, sizeof version, "%d.%d.%d", GIFLIB_MAJOR, GIFLIB_MINOR, GIFLIB_RELEASE);
    return version;
}
