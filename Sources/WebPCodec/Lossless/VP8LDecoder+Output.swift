import CodecCore

extension VP8LDecoder {
    /// Hands a batch's final rows (every inverse transform applied, `width` wide, in ``scratch``
    /// from `scratchOffset`) to the output: their green bytes appended to ``green`` with
    /// ``outputsGreen``, else RGBA8 rows to the sink, which then has them final.
    mutating func emit(rows: Range<Int>, scratchOffset: Int) {
        let count = rows.count * header.width
        if outputsGreen {
            let first = green.count
            green.append(contentsOf: repeatElement(0, count: count))
            scratch.withUnsafeBufferPointer { scratchBuffer in
            green.withUnsafeMutableBufferPointer { greenBuffer in
                guard let source = scratchBuffer.baseAddress.map({ $0 + scratchOffset }),
                      let out = greenBuffer.baseAddress.map({ $0 + first }) else { return }
                for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: source[i] &>> 8) }
            }
            }
            return
        }
        scratch.withUnsafeBufferPointer { scratchBuffer in
            guard let source = scratchBuffer.baseAddress.map({ $0 + scratchOffset }) else { return }
            sink.write(rows: rows) { out in Self.storeRGBA(source, count: count, to: UnsafeMutableRawPointer(out)) }
        }
        sink.markFinal(rows: rows.upperBound)
    }

    /// An ALPH stream's next `count` green bytes (rows in order, as they became final), moved
    /// from ``green`` into `target`, which has room for them.
    mutating func takeGreen(_ count: Int, into target: inout [UInt8]) {
        let count = min(count, green.count, target.count)
        target.withUnsafeMutableBufferPointer { out in
            green.withUnsafeBufferPointer { green in
                guard let to = out.baseAddress, let from = green.baseAddress else { return }
                to.update(from: from, count: count)
            }
        }
        green.removeFirst(count)
    }

    /// Writes `count` ARGB pixels (a UInt32 each) as R, G, B, A bytes: the red and blue bytes swap.
    @inline(__always)
    static func storeRGBA(_ source: UnsafePointer<UInt32>, count: Int, to words: UnsafeMutableRawPointer) {
        for i in 0..<count {
            let p = source[i]
            let rgba = (p & 0xFF00_FF00) | (p &>> 16 & 0xFF) | (p & 0xFF) &<< 16
            words.storeBytes(of: rgba.littleEndian, toByteOffset: 4 &* i, as: UInt32.self)
        }
    }

    /// The image as RGBA8 (straight alpha): rows before ``finalRowCount`` decoded, the rest
    /// transparent black; empty for a thumbnail.
    package func rgba() -> [UInt8] { sink.pixels }

    /// Bytes held in buffers that grow with the image: the coded image's window, the sink (the
    /// image or a thumbnail), an ALPH stream's green rows, and the batch scratch.
    var heldBytes: Int {
        coded.heldBytes + indices.heldBytes + sink.heldBytes + green.count + scratch.count * MemoryLayout<UInt32>.stride
    }
}
