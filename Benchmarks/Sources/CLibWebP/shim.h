/* libwebp's decoding API (WebPDecodeRGBAInto, WebPGetFeatures) and its demuxer's animation
   decoder (WebPAnimDecoder, libwebpdemux): no longjmp, so no C shim. */
#include <stddef.h>
#include <webp/decode.h>
#include <webp/demux.h>
