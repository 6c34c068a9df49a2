import CZlib
import CodecCore

/// A zlib stream (RFC 1950 wrapping RFC 1951 deflate) decompressed by the system zlib,
/// resumable at any input byte.
///
/// The Adler-32 of the data (RFC 1950 §8.2) is computed here (``Adler32``, vector lanes, about
/// four times fewer instructions than zlib's) and zlib's own is turned off: at the stream's end
/// the sum is compared with the trailer, the last four bytes zlib consumed, and a mismatch is
/// the error zlib gives for one, at the same call, with the same output before it.
final class Inflater {
    private var stream = z_stream()
    private var initialized = false
    private let ignoresChecksum: Bool
    private var adler = Adler32()
    /// The last four bytes consumed, the newest lowest: the trailer once the stream has ended.
    private var lastConsumed: UInt32 = 0
    /// The trailer did not match: every later call fails as zlib's would.
    private var checkFailed = false
    /// The stream's end (and its Adler-32) was reached.
    private(set) var finished = false

    init(ignoresChecksum: Bool) throws(DecodingError) {
        guard czlib_inflate_init(&stream) == Z_OK else { throw .limitExceeded("zlib could not allocate its state") }
        initialized = true
        self.ignoresChecksum = ignoresChecksum
        inflateValidate(&stream, 0)
    }

    deinit {
        if initialized { inflateEnd(&stream) }
    }

    /// Inflates from `input` into `output` until one of them is used up or the stream ends.
    /// Returns the bytes consumed and produced, and the error that stopped the stream, if any:
    /// the bytes produced before a corrupt spot are valid, and a caller that needs no more
    /// output never has to see the error, however the input was split.
    func inflate(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>)
        -> (consumed: Int, produced: Int, error: DecodingError?) {
        guard !finished, output.count > 0 else { return (0, 0, nil) }
        guard !checkFailed else { return (0, 0, .invalidData("zlib stream is corrupt")) }
        let inCount = min(input.count, Int(UInt32.max)), outCount = min(output.count, Int(UInt32.max))
        stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
        stream.avail_in = UInt32(inCount)
        stream.next_out = output.baseAddress
        stream.avail_out = UInt32(outCount)
        let status = CZlib.inflate(&stream, Z_NO_FLUSH)
        let consumed = inCount - Int(stream.avail_in), produced = outCount - Int(stream.avail_out)
        stream.next_in = nil
        stream.next_out = nil
        if !ignoresChecksum, let out = output.baseAddress, let base = input.baseAddress {
            adler.update(UnsafeBufferPointer(start: out, count: produced))
            for byte in UnsafeBufferPointer(start: base + max(0, consumed - 4), count: min(consumed, 4)) {
                lastConsumed = lastConsumed << 8 | UInt32(byte)
            }
        }
        switch status {
        case Z_OK, Z_BUF_ERROR: return (consumed, produced, nil)
        case Z_STREAM_END:
            guard ignoresChecksum || adler.value == lastConsumed else {
                checkFailed = true
                return (consumed, produced, .invalidData("zlib stream is corrupt"))
            }
            finished = true
            return (consumed, produced, nil)
        case Z_MEM_ERROR: return (consumed, produced, .limitExceeded("zlib ran out of memory"))
        default: return (consumed, produced, .invalidData("zlib stream is corrupt"))
        }
    }

    /// Inflates a whole zlib stream held in memory, handing each run of output to `body` as it
    /// comes out of a 16 KiB buffer; stops with an error past `limit` bytes of output (for
    /// metadata such as iCCP and zTXt, where a small chunk can expand enormously) or when the
    /// stream is corrupt or ends early. Nothing grows with the output: a caller that measures
    /// the stream first can then fill storage of exactly its size.
    static func forEachRun(_ input: UnsafeBufferPointer<UInt8>, limit: Int, ignoresChecksum: Bool,
                           _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(DecodingError) {
        let inflater = try Inflater(ignoresChecksum: ignoresChecksum)
        var chunk = [UInt8](repeating: 0, count: 16384)
        var position = 0, total = 0
        while !inflater.finished {
            let (consumed, produced, error) = chunk.withUnsafeMutableBufferPointer { dst in
                inflater.inflate(UnsafeBufferPointer(rebasing: input[position...]), into: dst)
            }
            if let error { throw error }
            position += consumed
            total += produced
            guard total <= limit else { throw .limitExceeded("decompressed metadata exceeds Limits.maxMetadataBytes") }
            chunk.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[..<produced])) }
            if consumed == 0 && produced == 0 && !inflater.finished { throw .invalidData("compressed metadata ends early") }
        }
    }
}
