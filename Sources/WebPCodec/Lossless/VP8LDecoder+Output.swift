import CodecCore

extension VP8LDecoder {
    /// Hands a batch's final rows (every inverse transform applied, `width` wide, in ``scratch``
    /// from `scratchOffset`) to the output: green bytes appended with ``outputsGreen``, else RGBA8 rows
    /// into the image or, one row at a time through ``rowScratch``, into the thumbnail, whose
    /// input rows up to the batch's end are then final.
    mutating func emit(rows: Range<Int>, scratchOffset: Int) {
        let width = header.width
        if var shrink = thumbnail {
            // The resampler leaves `self` while rows go in (no copy: it stays uniquely referenced).
            thumbnail = nil
            defer { thumbnail = shrink }
            scratch.withUnsafeBufferPointer { scratchBuffer in
            rowScratch.withUnsafeMutableBufferPointer { rowBuffer in
                guard let source = scratchBuffer.baseAddress.map({ $0 + scratchOffset }),
                      let row = rowBuffer.baseAddress else { return }
                for (i, y) in rows.enumerated() {
                    Self.storeRGBA(source + i * width, count: width, to: UnsafeMutableRawPointer(row))
                    shrink.accumulate(row, count: width, x: 0, y: y)
                }
            }
            }
            shrink.markFinal(rows: rows.upperBound)
            return
        }
        let outputsGreen = self.outputsGreen, count = rows.count * width
        let first = outputsGreen ? output.count : rows.lowerBound * width * 4
        if outputsGreen { output.append(contentsOf: repeatElement(0, count: count)) }
        scratch.withUnsafeBufferPointer { scratchBuffer in
        output.withUnsafeMutableBufferPointer { outputBuffer in
            guard let source = scratchBuffer.baseAddress.map({ $0 + scratchOffset }),
                  let out = outputBuffer.baseAddress.map({ $0 + first }) else { return }
            if outputsGreen {
                for i in 0..<count { out[i] = UInt8(truncatingIfNeeded: source[i] &>> 8) }
            } else {
                Self.storeRGBA(source, count: count, to: UnsafeMutableRawPointer(out))
            }
        }
        }
    }

    /// An ALPH stream's next `count` green bytes (rows in order, as they became final), moved
    /// from ``output`` into `target`, which has room for them.
    mutating func takeGreen(_ count: Int, into target: inout [UInt8]) {
        let count = min(count, output.count, target.count)
        target.withUnsafeMutableBufferPointer { out in
            output.withUnsafeBufferPointer { green in
                guard let to = out.baseAddress, let from = green.baseAddress else { return }
                to.update(from: from, count: count)
            }
        }
        output.removeFirst(count)
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
    /// transparent black; empty for a thumbnail (``thumbnail``).
    package func rgba() -> [UInt8] { output }

    /// Bytes held in buffers that grow with the image: the coded image's window, the output
    /// (or the thumbnail's resampler) and the batch scratch.
    var heldBytes: Int {
        coded.heldBytes + indices.heldBytes + output.count + (thumbnail?.heldBytes ?? 0)
            + scratch.count * MemoryLayout<UInt32>.stride
    }
}
