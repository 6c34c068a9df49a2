/*
 * gif_composite.c - reference GIF compositor for the ImageCodecs conformance manifests.
 *
 * Reads a GIF with giflib's DGifSlurp() (giflib 5.2) and composites every image
 * descriptor onto the logical screen with the browser semantics that ImageCodecs
 * implements, then prints the canonical hash of each composited frame:
 *   RGBA8, not premultiplied, rows top to bottom, no padding, the full canvas;
 *   any pixel whose alpha is 0 is written as 0,0,0,0; SHA-256, lowercase hex.
 *
 * Build:  cc -O2 gif_composite.c -lgif -o gif_composite
 * Usage:  gif_composite [--raw | --frames] [--dispose4=previous|none] FILE
 *
 * Compositing rules (see Conformance/README.md, "GIF"):
 *   - one output frame per image descriptor, in file order;
 *   - the canvas is the logical screen (LSD width x height); frames never grow it,
 *     frame rectangles are clipped to it;
 *   - the canvas starts as transparent black (0,0,0,0); the LSD background colour
 *     is never painted;
 *   - a frame's pixels are drawn where their index is not the frame's transparent
 *     index (GCE flag bit 0); transparent pixels leave the canvas as it is;
 *   - the palette is the local colour table, else the global one. Palette entries
 *     the file does not define are opaque black (0,0,0,255): an index >= the
 *     table size, and every index of a frame with no colour table at all. This is
 *     what Chromium (Wuffs, no quirks but IGNORE_TOO_MUCH_PIXEL_DATA) does;
 *   - the GCE that applies to an image is the LAST graphic control extension
 *     between the previous image and this one (browsers overwrite their GCE state
 *     per extension; giflib's DGifSavedExtensionToGCB would take the first). A GCE
 *     whose first sub-block is shorter than 4 bytes is ignored. GCE state does not
 *     carry over to later images;
 *   - before frame k is drawn, frame k-1's disposal is applied to its clipped
 *     rectangle: 0/1 leave it; 2 clears it to (0,0,0,0); 3 restores the canvas as
 *     it was before frame k-1 was drawn (on the first frame that is the empty
 *     canvas, i.e. the same as 2); 4 is treated as 3 (Firefox and Chromium/Wuffs
 *     both do so; --dispose4=none treats it as none); 5-7 are treated as none.
 *
 * Output on stdout (text):
 *   screen W H gct=N|none bg=I images=K
 *   frame I WxH SHA256 x y w h disposal=D delay=CS tindex=T|- lct=N|none interlace=0|1
 *   note: ...                 (facts worth knowing: out-of-range indices, no palette,
 *                              clipped rectangles, zero-length GCE, ...)
 * With --raw, stdout is instead one line "W H N\n" followed by N*W*H*4 canonical bytes.
 * With --frames, each image is not composited: its own pixels, drawn by the rules above on a
 * transparent raster of its clipped rectangle (the transparent index stays transparent), give
 * one line per image instead of the frame line:
 *   image I WxH SHA256 x y tindex=T|-      (W, H, x, y: the clipped rectangle; a rectangle
 *                                           with no pixels hashes no bytes)
 * for ImageSource.rawFrame (make_raw_frame_manifests.py); the screen line is printed as
 * without it, and no note line.
 *
 * Exit status:
 *   0  DGifSlurp succeeded and every frame was composited;
 *   1  giflib refused the file ("error: DGifSlurp: <GifErrorString> (<code>)" on stderr;
 *      "failed without an error code (0)" when DGifSlurp returns GIF_ERROR without setting
 *      one: an image with 0 pixels, or a failed allocation), or a harness limit was hit ("error: harness: ..."): logical screen
 *      with zero width or height, or more than 2^28 pixels (the decoder's default limit);
 *   3  usage / I/O error.
 * DGifSlurp refuses a file whose data ends before the trailer, including a file that
 * only lacks the final 0x3B byte and one whose last LZW stream stops early; browsers
 * display what arrived. The manifest script records giflib's verdict and, for
 * information, what giflib decodes from the longest prefix that ends after a complete
 * image.
 */
#include <gif_lib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------- SHA-256 */

typedef struct {
    uint32_t h[8];
    uint64_t len;
    unsigned char buf[64];
    size_t n;
} sha256_ctx;

static const uint32_t K256[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
};

#define ROR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static void sha256_block(sha256_ctx *c, const unsigned char *p)
{
    uint32_t w[64], a, b, cc, d, e, f, g, h;
    for (int i = 0; i < 16; i++)
        w[i] = (uint32_t)p[4 * i] << 24 | (uint32_t)p[4 * i + 1] << 16 | (uint32_t)p[4 * i + 2] << 8 | p[4 * i + 3];
    for (int i = 16; i < 64; i++) {
        uint32_t s0 = ROR(w[i - 15], 7) ^ ROR(w[i - 15], 18) ^ (w[i - 15] >> 3);
        uint32_t s1 = ROR(w[i - 2], 17) ^ ROR(w[i - 2], 19) ^ (w[i - 2] >> 10);
        w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    a = c->h[0]; b = c->h[1]; cc = c->h[2]; d = c->h[3];
    e = c->h[4]; f = c->h[5]; g = c->h[6]; h = c->h[7];
    for (int i = 0; i < 64; i++) {
        uint32_t t1 = h + (ROR(e, 6) ^ ROR(e, 11) ^ ROR(e, 25)) + ((e & f) ^ (~e & g)) + K256[i] + w[i];
        uint32_t t2 = (ROR(a, 2) ^ ROR(a, 13) ^ ROR(a, 22)) + ((a & b) ^ (a & cc) ^ (b & cc));
        h = g; g = f; f = e; e = d + t1; d = cc; cc = b; b = a; a = t1 + t2;
    }
    c->h[0] += a; c->h[1] += b; c->h[2] += cc; c->h[3] += d;
    c->h[4] += e; c->h[5] += f; c->h[6] += g; c->h[7] += h;
}

static void sha256_init(sha256_ctx *c)
{
    static const uint32_t iv[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                   0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
    memcpy(c->h, iv, sizeof iv);
    c->len = 0;
    c->n = 0;
}

static void sha256_update(sha256_ctx *c, const unsigned char *p, size_t len)
{
    c->len += len;
    if (c->n) {
        while (len && c->n < 64) { c->buf[c->n++] = *p++; len--; }
        if (c->n == 64) { sha256_block(c, c->buf); c->n = 0; }
    }
    while (len >= 64) { sha256_block(c, p); p += 64; len -= 64; }
    while (len) { c->buf[c->n++] = *p++; len--; }
}

static void sha256_hex(sha256_ctx *c, char out[65])
{
    uint64_t bits = c->len * 8;
    unsigned char pad = 0x80;
    sha256_update(c, &pad, 1);
    pad = 0;
    while (c->n != 56) sha256_update(c, &pad, 1);
    unsigned char lenb[8];
    for (int i = 0; i < 8; i++) lenb[i] = (unsigned char)(bits >> (56 - 8 * i));
    sha256_update(c, lenb, 8);
    for (int i = 0; i < 8; i++) sprintf(out + 8 * i, "%08x", c->h[i]);
    out[64] = 0;
}

/* ---------------------------------------------------------------- compositor */

typedef struct {
    int has_gce;
    int disposal;     /* raw 3-bit value from the GCE */
    int delay;        /* centiseconds */
    int tindex;       /* -1: no transparency */
    int short_gces;   /* GCEs ignored because their first sub-block was < 4 bytes */
    int n_gces;
} gce_info;

static gce_info image_gce(const SavedImage *sp)
{
    gce_info g = {0, 0, 0, -1, 0, 0};
    for (int i = 0; i < sp->ExtensionBlockCount; i++) {
        const ExtensionBlock *eb = &sp->ExtensionBlocks[i];
        if (eb->Function != GRAPHICS_EXT_FUNC_CODE) continue;
        g.n_gces++;
        if (eb->ByteCount < 4) { g.short_gces++; continue; }
        /* the last GCE before the image wins */
        g.has_gce = 1;
        g.disposal = (eb->Bytes[0] >> 2) & 7;
        g.delay = eb->Bytes[1] | (eb->Bytes[2] << 8);
        g.tindex = (eb->Bytes[0] & 1) ? eb->Bytes[3] : -1;
    }
    return g;
}

typedef struct { long x0, y0, x1, y1; } rect;   /* clipped, half-open */

static rect clip_rect(const GifImageDesc *d, long cw, long ch)
{
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

static void clear_rect(unsigned char *canvas, long cw, rect r)
{
    for (long y = r.y0; y < r.y1; y++)
        memset(canvas + ((size_t)y * cw + r.x0) * 4, 0, (size_t)(r.x1 - r.x0) * 4);
}

static void copy_rect(unsigned char *dst, const unsigned char *src, long cw, rect r)
{
    for (long y = r.y0; y < r.y1; y++) {
        size_t off = ((size_t)y * cw + r.x0) * 4;
        memcpy(dst + off, src + off, (size_t)(r.x1 - r.x0) * 4);
    }
}

/* --frames: "image I WxH SHA256 x y tindex=T|-" for the clipped rectangle `r` of the canvas. */
static void print_image(int k, const unsigned char *canvas, long cw, rect r, int tindex)
{
    sha256_ctx c;
    char hex[65];
    sha256_init(&c);
    for (long y = r.y0; y < r.y1; y++)
        sha256_update(&c, canvas + ((size_t)y * cw + r.x0) * 4, (size_t)(r.x1 - r.x0) * 4);
    sha256_hex(&c, hex);
    printf("image %d %ldx%ld %s %ld %ld tindex=", k, r.x1 - r.x0, r.y1 - r.y0, hex, r.x0, r.y0);
    if (tindex >= 0) printf("%d\n", tindex); else printf("-\n");
}

int main(int argc, char **argv)
{
    int raw = 0, frames = 0, dispose4_previous = 1;
    const char *path = NULL;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--raw")) raw = 1;
        else if (!strcmp(argv[i], "--frames")) frames = 1;
        else if (!strcmp(argv[i], "--dispose4=previous")) dispose4_previous = 1;
        else if (!strcmp(argv[i], "--dispose4=none")) dispose4_previous = 0;
        else if (argv[i][0] == '-' && argv[i][1]) { path = NULL; break; }
        else path = argv[i];
    }
    if (!path) {
        fprintf(stderr, "usage: gif_composite [--raw | --frames] [--dispose4=previous|none] FILE\n");
        return 3;
    }
    FILE *probe = fopen(path, "rb");
    if (!probe) { perror(path); return 3; }
    fclose(probe);

    int err = 0;
    GifFileType *gif = DGifOpenFileName(path, &err);
    if (!gif) {
        const char *m = GifErrorString(err);
        fprintf(stderr, "error: DGifOpenFileName: %s (%d)\n", m ? m : "failed without an error code", err);
        return 1;
    }
    if (DGifSlurp(gif) != GIF_OK) {
        const char *m = GifErrorString(gif->Error);
        fprintf(stderr, "error: DGifSlurp: %s (%d)\n",
                m ? m : (gif->Error ? "unknown error" : "failed without an error code"), gif->Error);
        DGifCloseFile(gif, &err);
        return 1;
    }

    const long cw = gif->SWidth, ch = gif->SHeight;
    if (cw <= 0 || ch <= 0) {
        fprintf(stderr, "error: harness: logical screen %ldx%ld has no pixels\n", cw, ch);
        DGifCloseFile(gif, &err);
        return 1;
    }
    if ((uint64_t)cw * (uint64_t)ch > ((uint64_t)1 << 28)) {
        fprintf(stderr, "error: harness: logical screen %ldx%ld exceeds 2^28 pixels\n", cw, ch);
        DGifCloseFile(gif, &err);
        return 1;
    }
    const size_t npix = (size_t)cw * (size_t)ch;
    unsigned char *canvas = calloc(npix, 4);
    unsigned char *saved = calloc(npix, 4);   /* canvas before the previous frame was drawn */
    unsigned char *out = malloc(npix * 4);
    if (!canvas || !saved || !out) { fprintf(stderr, "error: harness: out of memory\n"); return 1; }

    if (raw) {
        printf("%ld %ld %d\n", cw, ch, gif->ImageCount);
    } else {
        printf("screen %ld %ld gct=", cw, ch);
        if (gif->SColorMap) printf("%d", gif->SColorMap->ColorCount); else printf("none");
        printf(" bg=%d images=%d\n", gif->SBackGroundColor, gif->ImageCount);
    }

    int prev_disposal = 0;
    rect prev_rect = {0, 0, 0, 0};
    for (int k = 0; k < gif->ImageCount; k++) {
        const SavedImage *sp = &gif->SavedImages[k];
        const GifImageDesc *d = &sp->ImageDesc;
        const gce_info g = image_gce(sp);
        const rect r = clip_rect(d, cw, ch);

        /* dispose the previous frame */
        if (k > 0) {
            if (prev_disposal == 2) clear_rect(canvas, cw, prev_rect);
            else if (prev_disposal == 3) copy_rect(canvas, saved, cw, prev_rect);
        }
        /* remember the canvas before this frame is drawn (only its rectangle changes) */
        copy_rect(saved, canvas, cw, r);
        /* --frames: the image alone, on a transparent rectangle */
        if (frames) clear_rect(canvas, cw, r);

        const ColorMapObject *cm = d->ColorMap ? d->ColorMap : gif->SColorMap;
        const int ncolors = cm ? cm->ColorCount : 0;
        long oob = 0, opaque_black_nomap = 0;
        for (long y = r.y0; y < r.y1; y++) {
            const unsigned char *src = sp->RasterBits + (size_t)(y - d->Top) * d->Width + (r.x0 - d->Left);
            unsigned char *dst = canvas + ((size_t)y * cw + r.x0) * 4;
            for (long x = r.x0; x < r.x1; x++, src++, dst += 4) {
                const int idx = *src;
                if (idx == g.tindex) continue;
                if (idx < ncolors) {
                    dst[0] = cm->Colors[idx].Red;
                    dst[1] = cm->Colors[idx].Green;
                    dst[2] = cm->Colors[idx].Blue;
                } else {
                    dst[0] = dst[1] = dst[2] = 0;
                    if (cm) oob++; else opaque_black_nomap++;
                }
                dst[3] = 255;
            }
        }

        if (frames) {
            print_image(k, canvas, cw, r, g.tindex);
            continue;
        }

        int disp = g.disposal;
        if (disp == 4) disp = dispose4_previous ? 3 : 0;
        else if (disp > 4) disp = 0;
        if (disp == 3 && k == 0) disp = 2;   /* nothing before the first frame: clear */
        prev_disposal = disp;
        prev_rect = r;

        /* canonical bytes: alpha 0 -> 0,0,0,0 (the canvas only ever holds alpha 0 or 255,
           and alpha-0 pixels are always 0,0,0,0 already; kept for clarity) */
        memcpy(out, canvas, npix * 4);
        for (size_t i = 0; i < npix; i++)
            if (out[4 * i + 3] == 0) out[4 * i] = out[4 * i + 1] = out[4 * i + 2] = 0;

        if (raw) {
            if (fwrite(out, 4, npix, stdout) != npix) { perror("write"); return 3; }
            continue;
        }
        sha256_ctx c;
        char hex[65];
        sha256_init(&c);
        sha256_update(&c, out, npix * 4);
        sha256_hex(&c, hex);
        printf("frame %d %ldx%ld %s %d %d %d %d disposal=%d delay=%d tindex=", k, cw, ch, hex,
               d->Left, d->Top, d->Width, d->Height, g.disposal, g.delay);
        if (g.tindex >= 0) printf("%d", g.tindex); else printf("-");
        printf(" lct=");
        if (d->ColorMap) printf("%d", d->ColorMap->ColorCount); else printf("none");
        printf(" interlace=%d\n", d->Interlace ? 1 : 0);

        if (oob) printf("note: frame %d: %ld pixels with an index >= the colour table size (%d) drawn opaque black\n", k, oob, ncolors);
        if (!cm) printf("note: frame %d: no local or global colour table; %ld pixels drawn opaque black\n", k, opaque_black_nomap);
        if (r.x1 - r.x0 != d->Width || r.y1 - r.y0 != d->Height)
            printf("note: frame %d: rectangle %d,%d %dx%d clipped to the %ldx%ld screen\n", k, d->Left, d->Top, d->Width, d->Height, cw, ch);
        if (g.n_gces > 1) printf("note: frame %d: %d graphic control extensions, the last one used\n", k, g.n_gces);
        if (g.short_gces) printf("note: frame %d: %d graphic control extension(s) shorter than 4 bytes ignored\n", k, g.short_gces);
        if (g.disposal >= 4) printf("note: frame %d: disposal %d treated as %s\n", k, g.disposal, disp == 3 ? "previous" : "none");
        if (g.disposal == 3 && k == 0) printf("note: frame 0: disposal previous on the first frame clears its rectangle\n");
        if (g.tindex >= ncolors && g.tindex >= 0) printf("note: frame %d: transparent index %d >= colour table size %d\n", k, g.tindex, ncolors);
    }
    if (gif->ExtensionBlockCount && !raw && !frames) {
        int trailing_gce = 0;
        for (int i = 0; i < gif->ExtensionBlockCount; i++)
            if (gif->ExtensionBlocks[i].Function == GRAPHICS_EXT_FUNC_CODE) trailing_gce++;
        if (trailing_gce) printf("note: %d graphic control extension(s) after the last image ignored\n", trailing_gce);
    }
    fflush(stdout);
    free(canvas);
    free(saved);
    free(out);
    DGifCloseFile(gif, &err);
    return 0;
}
