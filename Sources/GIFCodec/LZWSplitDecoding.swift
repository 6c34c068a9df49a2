import CodecCore

/// Decodes a complete LZW stream on two threads: the codes before a probable clear code near the
/// middle (``LZWSplitPoint``) on one, those after it on the other, each from a fresh table.
///
/// The output is the same as one decoder's. The first piece decodes from the start and pauses
/// only at a clear code that ends exactly at the guessed bit; then, and only then, the second
/// piece's output is placed where the first stopped. When the guess was wrong, the first piece
/// has gone on to the end itself. When either piece cannot fill its part (an end code, a code
/// outside the table, input missing) this gives nothing and the caller decodes in one piece,
/// which finds the same error at the same pixel as before.
enum LZWSplitDecoding {
    /// The first `pixelCount` indices of the stream in `data` (its data sub-blocks' payloads in
    /// order), decoded in two pieces at once on `pool`; nil when there is no probable clear code
    /// past the middle, when the pool has no thread for the second piece (two pieces on one
    /// thread cost more than one), or when the stream does not give `pixelCount` indices.
    static func decode(_ data: [UInt8], minimumCodeSize: Int, pixelCount: Int,
                       pool: WorkerPool = .shared) -> LZWPieces? {
        let split = data.withUnsafeBufferPointer { bytes in
            LZWSplitPoint.candidate(in: bytes, minimumCodeSize: minimumCodeSize, fromBit: bytes.count * 4)
        }
        guard let split else { return nil }
        let slack = LZWDecoder.outputSlack
        var indices = PixelStorage.make(count: pixelCount + slack, zeroed: false)
        var tail = PixelStorage.make(count: pixelCount + slack, zeroed: false)
        var head = LZWDecoder(minimumCodeSize: minimumCodeSize), headFill = 0, headUsed = 0, tailFill = 0
        let helped = pool.concurrentForEachWithHelp(count: 2, maxThreads: 2) { piece in
            if piece == 0 {
                headUsed = run(&head, data[...], into: &indices, fill: &headFill, limit: pixelCount, stopAtBit: split)
            } else {
                var decoder = LZWDecoder(minimumCodeSize: minimumCodeSize)
                let byte = split >> 3, shift = split & 7
                if shift != 0 { decoder.hold(data[byte], from: shift) }
                _ = run(&decoder, data[(shift == 0 ? byte : byte + 1)...], into: &tail, fill: &tailFill, limit: pixelCount)
            }
        }
        guard helped else { return nil }
        if head.outcome == .paused {
            let needed = pixelCount - headFill
            if tailFill >= needed { return LZWPieces(head: indices, tail: tail, split: headFill, count: pixelCount) }
            _ = run(&head, data[headUsed...], into: &indices, fill: &headFill, limit: pixelCount)
        }
        return headFill == pixelCount ? LZWPieces(head: indices, tail: [], split: pixelCount, count: pixelCount) : nil
    }

    /// Runs `decoder` over `input` into `output` from `fill` while `fill < limit`; the input
    /// bytes used.
    private static func run(_ decoder: inout LZWDecoder, _ input: ArraySlice<UInt8>, into output: inout [UInt8],
                            fill: inout Int, limit: Int, stopAtBit: Int = -1) -> Int {
        input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                decoder.decode(input, into: out.baseAddress!, base: 0, fill: &fill, limit: limit, stopAtBit: stopAtBit)
            }
        }
    }
}

/// The indices of an image decoded in two pieces: `head` holds those before `split`, `tail`
/// those from `split` to `count` (each with slack past its end).
struct LZWPieces {
    let head: [UInt8]
    let tail: [UInt8]
    let split: Int
    let count: Int

    /// Calls `body` with the `length` indices from `start`: in place when they lie in one
    /// piece, else gathered into `row` (which must hold `length`).
    func withIndices(from start: Int, count length: Int, row: inout [UInt8], _ body: (UnsafePointer<UInt8>) -> Void) {
        if start + length <= split {
            head.withUnsafeBufferPointer { body($0.baseAddress! + start) }
        } else if start >= split {
            tail.withUnsafeBufferPointer { body($0.baseAddress! + (start - split)) }
        } else {
            let inHead = split - start
            row.withUnsafeMutableBufferPointer { out in
                head.withUnsafeBufferPointer { out.baseAddress!.update(from: $0.baseAddress! + start, count: inHead) }
                tail.withUnsafeBufferPointer { (out.baseAddress! + inHead).update(from: $0.baseAddress!, count: length - inHead) }
            }
            row.withUnsafeBufferPointer { body($0.baseAddress!) }
        }
    }

    /// All the indices in one array, with the head's slack after them.
    func joined() -> [UInt8] {
        var all = head
        all.withUnsafeMutableBufferPointer { out in
            tail.withUnsafeBufferPointer { tail in
                if count > split { (out.baseAddress! + split).update(from: tail.baseAddress!, count: count - split) }
            }
        }
        return all
    }
}
