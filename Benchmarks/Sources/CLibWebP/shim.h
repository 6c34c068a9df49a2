/* libwebp's decoding API (WebPDecodeRGBAInto, WebPGetFeatures), its demuxer's animation
   decoder (WebPAnimDecoder, libwebpdemux), its encoding API (WebPEncodeLosslessRGBA) and its
   animation encoder (WebPAnimEncoder, libwebpmux): no longjmp, so no C shim. */
#include <stddef.h>
#include <webp/decode.h>
#include <webp/demux.h>
#include <webp/encode.h>
#include <webp/mux.h>
