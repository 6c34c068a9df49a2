/// A plain, pixel-by-pixel statement of the frame semantics (SPEC-NOTES.md, GIF), to compare
/// the decoder with on generated animations.
struct GIFModel {
    struct Frame {
        var x: Int, y: Int, width: Int, height: Int
        /// Colour indices, rows in natural order.
        var indices: [UInt8]
        var localTable: [[UInt8]]?
        var transparent: Int?
        /// The raw 3-bit disposal method; nil for no Graphic Control Extension.
        var disposal: Int?
        var delay = 0
        var interlaced = false
    }

    var width: Int
    var height: Int
    var globalTable: [[UInt8]]?
    var frames: [Frame] = []
    var loopCount: Int?

    /// The file, as an encoder would write it.
    var bytes: [UInt8] {
        var b = GIFBuilder(width: width, height: height, globalTable: globalTable)
        if let loopCount { b.loop(loopCount) }
        for f in frames {
            if let disposal = f.disposal { b.graphicControl(disposal: disposal, delay: f.delay, transparent: f.transparent) }
            b.image(x: f.x, y: f.y, width: f.width, height: f.height, indices: f.indices, localTable: f.localTable,
                    interlaced: f.interlaced)
        }
        b.trailer()
        return b.bytes
    }

    /// The canvas after each frame: RGBA8, alpha 0 pixels all zero.
    var canvases: [[UInt8]] {
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var out: [[UInt8]] = []
        var previous: (rect: (Int, Int, Int, Int), disposal: Int, saved: [UInt8])?
        for f in frames {
            if let p = previous {
                let (x0, y0, x1, y1) = p.rect
                for y in y0..<y1 {
                    for x in x0..<x1 {
                        let i = (y * width + x) * 4
                        for c in 0..<4 {
                            switch p.disposal {
                            case 2: canvas[i + c] = 0
                            case 3, 4: canvas[i + c] = p.saved[i + c]
                            default: break
                            }
                        }
                    }
                }
            }
            let saved = canvas
            let table = f.localTable ?? globalTable ?? []
            let x1 = min(f.x + f.width, width), y1 = min(f.y + f.height, height)
            let x0 = min(f.x, width), y0 = min(f.y, height)
            for y in y0..<max(y0, y1) {
                for x in x0..<max(x0, x1) {
                    let index = Int(f.indices[(y - f.y) * f.width + (x - f.x)])
                    if index == f.transparent { continue }
                    let rgb = index < table.count ? table[index] : [0, 0, 0]
                    let i = (y * width + x) * 4
                    canvas[i] = rgb[0]; canvas[i + 1] = rgb[1]; canvas[i + 2] = rgb[2]; canvas[i + 3] = 255
                }
            }
            out.append(canvas)
            previous = ((x0, y0, max(x0, x1), max(y0, y1)), f.disposal ?? 0, saved)
        }
        return out
    }

    /// A random animation from `seed`: rectangles inside, across and outside the screen, every
    /// disposal value, transparent indices in and out of the table, local tables, out-of-range
    /// indices, interlacing.
    static func random(seed: UInt64, frames count: Int) -> GIFModel {
        var rng = SplitMix(seed: seed)
        let w = rng.next(1...12), h = rng.next(1...12)
        func table(_ n: Int) -> [[UInt8]] { (0..<n).map { _ in [UInt8(rng.next(0...255)), UInt8(rng.next(0...255)), UInt8(rng.next(0...255))] } }
        var model = GIFModel(width: w, height: h, globalTable: rng.next(0...5) == 0 ? nil : table(rng.next(2...16)))
        model.loopCount = rng.next(0...3) == 0 ? nil : rng.next(0...5)
        for _ in 0..<count {
            let fw = rng.next(1...(w + 3)), fh = rng.next(1...(h + 3))
            let local = rng.next(0...3) == 0 ? table(rng.next(2...8)) : nil
            let size = (local ?? model.globalTable ?? [[0, 0, 0]]).count
            let indices = (0..<(fw * fh)).map { _ in UInt8(rng.next(0...(size + 1))) }
            let hasControl = rng.next(0...4) != 0
            model.frames.append(Frame(
                x: rng.next(0...(w + 1)) * (rng.next(0...2) == 0 ? 0 : 1), y: rng.next(0...(h + 1)) * (rng.next(0...2) == 0 ? 0 : 1),
                width: fw, height: fh, indices: indices, localTable: local,
                transparent: hasControl && rng.next(0...1) == 0 ? rng.next(0...(size + 1)) : nil,
                disposal: hasControl ? rng.next(0...7) : nil, delay: rng.next(0...20), interlaced: rng.next(0...3) == 0))
        }
        return model
    }
}

/// A small seeded generator (SplitMix64) for reproducible test inputs.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func next(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}
