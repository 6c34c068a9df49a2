/*
 * webp_anim.c - reference WebP animation compositor for the ImageCodecs conformance manifests.
 *
 * Decodes a WebP file with libwebp's WebPAnimDecoder (libwebpdemux; colour mode MODE_RGBA,
 * i.e. straight alpha, one thread) and writes every composited frame, the full canvas, as the
 * canonical bytes: RGBA8, rows top to bottom, no padding, a pixel whose alpha is 0 written as
 * 0,0,0,0. The SHA-256 is taken by the calling script (make_webp_manifests.py).
 *
 * Build:  cc -O2 webp_anim.c -lwebpdemux -lwebp -o webp_anim
 * Usage:  webp_anim FILE
 *
 * Output on stdout: one text line
 *   anim W H FRAMES LOOP BGCOLOR
 * (canvas size, frame count, loop count, background colour as libwebp reports it in hex
 * 0xAARRGGBB-as-read: WebPAnimInfo.bgcolor), then for each frame one line
 *   frame I TIMESTAMP_MS
 * followed by W*H*4 bytes of canonical RGBA. Exit status 0 when every frame decoded; 1 when
 * the file is refused (WebPAnimDecoderNew fails) or a frame fails to decode (the frames
 * before it are written; the message is on stderr); 2 on a usage or I/O error.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <webp/demux.h>

static unsigned char* read_file(const char* path, size_t* size) {
    FILE* f = fopen(path, "rb");
    unsigned char* data = NULL;
    long n;
    if (f == NULL) return NULL;
    if (fseek(f, 0, SEEK_END) != 0 || (n = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) != 0) {
        fclose(f);
        return NULL;
    }
    data = (unsigned char*)malloc(n > 0 ? (size_t)n : 1);
    if (data != NULL && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    *size = (size_t)n;
    return data;
}

int main(int argc, char** argv) {
    size_t size = 0, i, pixels;
    unsigned char* data;
    unsigned char* canonical;
    WebPData webp;
    WebPAnimDecoderOptions options;
    WebPAnimDecoder* dec;
    WebPAnimInfo info;
    int index = 0, status = 0;

    if (argc != 2) {
        fprintf(stderr, "usage: webp_anim FILE\n");
        return 2;
    }
    data = read_file(argv[1], &size);
    if (data == NULL) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 2;
    }
    webp.bytes = data;
    webp.size = size;
    if (!WebPAnimDecoderOptionsInit(&options)) return 2;
    options.color_mode = MODE_RGBA;
    options.use_threads = 0;
    dec = WebPAnimDecoderNew(&webp, &options);
    if (dec == NULL) {
        fprintf(stderr, "WebPAnimDecoderNew failed\n");
        free(data);
        return 1;
    }
    if (!WebPAnimDecoderGetInfo(dec, &info)) {
        fprintf(stderr, "WebPAnimDecoderGetInfo failed\n");
        WebPAnimDecoderDelete(dec);
        free(data);
        return 1;
    }
    printf("anim %u %u %u %u 0x%08x\n", info.canvas_width, info.canvas_height, info.frame_count,
           info.loop_count, info.bgcolor);
    pixels = (size_t)info.canvas_width * info.canvas_height;
    canonical = (unsigned char*)malloc(pixels * 4);
    if (canonical == NULL) return 2;
    while (WebPAnimDecoderHasMoreFrames(dec)) {
        uint8_t* buf;
        int timestamp;
        if (!WebPAnimDecoderGetNext(dec, &buf, &timestamp)) {
            fprintf(stderr, "frame %d failed to decode\n", index);
            status = 1;
            break;
        }
        memcpy(canonical, buf, pixels * 4);
        for (i = 0; i < pixels; ++i) {
            if (canonical[4 * i + 3] == 0) memset(canonical + 4 * i, 0, 4);
        }
        printf("frame %d %d\n", index, timestamp);
        fflush(stdout);
        fwrite(canonical, 1, pixels * 4, stdout);
        fflush(stdout);
        ++index;
    }
    free(canonical);
    WebPAnimDecoderDelete(dec);
    free(data);
    return status;
}
