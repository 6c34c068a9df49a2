#include <zlib.h>

/// `inflateInit` is a macro in zlib.h; Swift cannot call macros, so wrap it.
static inline int czlib_inflate_init(z_stream *stream) {
    return inflateInit(stream);
}

/// `deflateInit` is a macro in zlib.h; wrapped for the same reason.
static inline int czlib_deflate_init(z_stream *stream, int level) {
    return deflateInit(stream, level);
}

/// `deflateInit2` is a macro too: level, window bits, memory level and strategy chosen.
static inline int czlib_deflate_init2(z_stream *stream, int level, int windowBits, int memLevel, int strategy) {
    return deflateInit2(stream, level, Z_DEFLATED, windowBits, memLevel, strategy);
}
