/* libwebp's decoding API (WebPDecodeRGBAInto, WebPGetInfo): no longjmp, so no C shim. */
#include <stddef.h>
#include <webp/decode.h>
