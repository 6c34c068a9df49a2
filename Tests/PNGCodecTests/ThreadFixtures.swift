import CodecCore

/// PNGs made for the thread tests: large enough that a decode with two or more threads hands
/// its rows to a second thread (at least 128 KiB of rows, `PNGBatchPlan`), with rows of every
/// filter type (PNG 3rd edition §9) drawn from a seeded generator, the image data cut into many
/// IDAT chunks. The filtered bytes are random, so the images are noise; what the tests compare
/// is the decode at one thread against the decode at several.
struct ThreadFixture: CustomStringConvertible, Sendable {
    var width: Int
    var height: Int
    var depth: UInt8
    var colorType: UInt8
    var interlaced = false
    /// A filter type of 5 on this row of the last pass (the stream's rows counted from 0).
    var badFilterRow: Int?

    var description: String {
        "\(width)x\(height) type \(colorType) depth \(depth)" + (interlaced ? " Adam7" : "")
            + (badFilterRow.map { " bad filter at row \($0)" } ?? "")
    }

    /// The kinds the tests run: each pixel layout the converter has, Adam7 among them.
    static let kinds: [ThreadFixture] = [
        ThreadFixture(width: 300, height: 150, depth: 8, colorType: 6),
        ThreadFixture(width: 280, height: 200, depth: 8, colorType: 2, interlaced: true),
        ThreadFixture(width: 1600, height: 700, depth: 1, colorType: 0),
        ThreadFixture(width: 600, height: 480, depth: 4, colorType: 3, interlaced: true),
        ThreadFixture(width: 160, height: 110, depth: 16, colorType: 6),
        ThreadFixture(width: 330, height: 210, depth: 8, colorType: 4, interlaced: true),
    ]

    private var channels: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)] ?? 1 }

    private func rowBytes(_ pixels: Int) -> Int { (pixels * channels * Int(depth) + 7) / 8 }

    /// Pixels across and rows of each pass (one pass when not interlaced).
    private var passes: [(width: Int, height: Int)] {
        guard interlaced else { return [(width, height)] }
        let xs = [0, 4, 0, 2, 0, 1, 0], ys = [0, 0, 4, 0, 2, 0, 1]
        let dx = [8, 8, 4, 4, 2, 2, 1], dy = [8, 8, 8, 4, 4, 2, 2]
        return (0..<7).map { p in
            ((width - xs[p] + dx[p] - 1) / dx[p], (height - ys[p] + dy[p] - 1) / dy[p])
        }
    }

    /// The filtered rows of every pass: a filter type, then bytes from a small alphabet (so
    /// that deflate has something to do).
    func filteredStream(seed: UInt64) -> [UInt8] {
        var state = seed | 1
        func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        var out: [UInt8] = []
        var row = 0
        for (w, h) in passes where w > 0 {
            for _ in 0..<h {
                out.append(row == badFilterRow ? 5 : UInt8(next() % 5))
                for _ in 0..<rowBytes(w) { out.append(UInt8(truncatingIfNeeded: next() & 0x1F)) }
                row += 1
            }
        }
        return out
    }

    /// The file: IHDR, PLTE and tRNS for indexed colour, the zlib stream in IDAT chunks of
    /// 7919 bytes, IEND.
    func bytes(seed: UInt64 = 1) -> [UInt8] {
        var b = PNGBuilder()
        b.chunk("IHDR", PNGBuilder.ihdr(width: width, height: height, depth: depth, colorType: colorType,
                                        interlace: interlaced ? 1 : 0))
        if colorType == 3 {
            let entries = 1 << Int(depth)
            b.chunk("PLTE", (0..<(entries * 3)).map { UInt8(truncatingIfNeeded: $0 &* 37) })
            b.chunk("tRNS", (0..<(entries / 2)).map { UInt8(truncatingIfNeeded: $0 &* 53) })
        }
        let stream = PNGBuilder.deflate(filteredStream(seed: seed))
        for start in stride(from: 0, to: stream.count, by: 7919) {
            b.chunk("IDAT", Array(stream[start..<min(start + 7919, stream.count)]))
        }
        b.chunk("IEND", [])
        return b.bytes
    }
}
