import CZlib
import CodecCore

/// A zlib stream (RFC 1950) made by the system zlib's deflate, handed out a block at a time.
///
/// One deflater serves every frame of a file: ``reset()`` starts a new zlib stream with the
/// same settings, keeping zlib's allocations.
final class PNGDeflater {
    /// Bytes of compressed output gathered before they are handed out (one IDAT or fdAT chunk).
    static let blockSize = 1 << 17

    private var stream = z_stream()
    private var block: [UInt8]
    private var open = false
    /// Bytes of `block` holding output not yet handed out.
    private var filled = 0

    /// A deflater at zlib `level` (0–9) with `strategy` (`Z_DEFAULT_STRATEGY`, `Z_FILTERED`…),
    /// a 32 KiB window and `memoryLevel` (8 or 9: 9 makes deflate blocks of 32 Ki symbols, 8 of
    /// 16 Ki, which adapt their Huffman codes more often).
    init(level: Int32, strategy: Int32, memoryLevel: Int32 = 9,
         blockSize: Int = PNGDeflater.blockSize) throws(EncodingError) {
        block = [UInt8](repeating: 0, count: blockSize)
        guard czlib_deflate_init2(&stream, level, 15, memoryLevel, strategy) == Z_OK else {
            throw .limitExceeded("zlib could not allocate its state")
        }
        open = true
    }

    deinit {
        if open { deflateEnd(&stream) }
    }

    /// Starts a new zlib stream.
    func reset() {
        deflateReset(&stream)
        filled = 0
    }

    /// Compresses `input`; with `finish`, ends the stream. Each full block (and at the end the
    /// last one) goes to `emit`.
    func compress(_ input: UnsafeRawBufferPointer, finish: Bool,
                  emit: (UnsafeRawBufferPointer) throws(EncodingError) -> Void) throws(EncodingError) {
        var rest = input
        repeat {
            let piece = UnsafeRawBufferPointer(rebasing: rest.prefix(1 << 30))
            rest = UnsafeRawBufferPointer(rebasing: rest[piece.count...])
            let flush = finish && rest.isEmpty ? Z_FINISH : Z_NO_FLUSH
            stream.next_in = UnsafeMutablePointer(mutating: piece.baseAddress?.assumingMemoryBound(to: UInt8.self))
            stream.avail_in = UInt32(piece.count)
            while true {
                let start = filled
                let status = block.withUnsafeMutableBufferPointer { b in
                    stream.next_out = b.baseAddress! + start
                    stream.avail_out = UInt32(b.count - start)
                    return deflate(&stream, flush)
                }
                guard status != Z_STREAM_ERROR else { throw .limitExceeded("zlib could not compress the image") }
                filled = block.count - Int(stream.avail_out)
                if filled == block.count {
                    try emitBlock(emit)
                } else if flush == Z_FINISH {
                    if status == Z_STREAM_END {
                        if filled > 0 { try emitBlock(emit) }
                        break
                    }
                } else {
                    break
                }
            }
        } while !rest.isEmpty
        stream.next_in = nil
        stream.next_out = nil
    }

    private func emitBlock(_ emit: (UnsafeRawBufferPointer) throws(EncodingError) -> Void) throws(EncodingError) {
        let count = filled
        filled = 0
        let result = block.withUnsafeBytes { b in
            Result { () throws(EncodingError) in try emit(UnsafeRawBufferPointer(rebasing: b[0..<count])) }
        }
        try result.get()
    }
}
