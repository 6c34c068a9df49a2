import CodecCore

extension VP8LDecoder {
    /// An ALPH stream's next `count` green bytes (rows in order, as they became final), moved
    /// from the output's green bytes into `target`, which has room for them.
    mutating func takeGreen(_ count: Int, into target: inout [UInt8]) {
        let count = min(count, output.green.count, target.count)
        target.withUnsafeMutableBufferPointer { out in
            output.green.withUnsafeBufferPointer { green in
                guard let to = out.baseAddress, let from = green.baseAddress else { return }
                to.update(from: from, count: count)
            }
        }
        output.green.removeFirst(count)
    }

    /// The image as RGBA8 (straight alpha): rows before ``finalRowCount`` decoded, the rest
    /// transparent black; empty for a thumbnail.
    package func rgba() -> [UInt8] { sink.pixels }

    /// Bytes held in buffers that grow with the image: the coded image's window, the sink (the
    /// image or a thumbnail), an ALPH stream's green rows, and the batch scratch.
    var heldBytes: Int {
        coded.heldBytes + indices.heldBytes + output.heldBytes
    }
}
