/// The forward colour transform (RFC 9649 section 4.2): per tile, the multipliers
/// `green_to_red`, `green_to_blue` and `red_to_blue` that make red and blue cheapest, found by
/// a descent from the neighbouring tiles' values with halving steps.
enum VP8LCrossColorEncoding {
    struct Multipliers: Equatable {
        var greenToRed = 0
        var greenToBlue = 0
        var redToBlue = 0

        /// The transform image's element: `red_to_blue` in red, `green_to_blue` in green,
        /// `green_to_red` in blue, alpha opaque.
        var element: UInt32 {
            0xFF00_0000 | UInt32(UInt8(truncatingIfNeeded: redToBlue)) << 16
                | UInt32(UInt8(truncatingIfNeeded: greenToBlue)) << 8 | UInt32(UInt8(truncatingIfNeeded: greenToRed))
        }

        init() {}

        init(element: UInt32) {
            greenToRed = Int(Int8(truncatingIfNeeded: element))
            greenToBlue = Int(Int8(truncatingIfNeeded: element >> 8))
            redToBlue = Int(Int8(truncatingIfNeeded: element >> 16))
        }
    }

    /// Chooses the multipliers of every tile and applies the transform to `pixels` in place;
    /// returns the transform image.
    static func apply(_ pixels: UnsafeMutableBufferPointer<UInt32>, width: Int, height: Int, bits: Int) -> [UInt32] {
        let tilesX = VP8LEntropyCoding.subsampledSize(width, bits: bits)
        let tilesY = VP8LEntropyCoding.subsampledSize(height, bits: bits)
        var elements = [UInt32](repeating: Multipliers().element, count: tilesX * tilesY)
        guard let p = pixels.baseAddress else { return elements }
        var costs = VP8LResidualCosts()
        for ty in 0..<tilesY {
            costs.refresh()
            let y0 = ty << bits, y1 = min(height, (ty + 1) << bits)
            for tx in 0..<tilesX {
                let x0 = tx << bits, x1 = min(width, (tx + 1) << bits)
                var neighbours: [Multipliers] = [Multipliers()]
                if tx > 0 { neighbours.append(Multipliers(element: elements[ty * tilesX + tx - 1])) }
                if ty > 0 { neighbours.append(Multipliers(element: elements[(ty - 1) * tilesX + tx])) }
                var m = Multipliers()
                let table = costs.table
                table.withUnsafeBufferPointer { t in
                    let red = t.baseAddress! + 256, blue = t.baseAddress! + 768
                    m.greenToRed = search(neighbours.map(\.greenToRed)) { g2r in
                        cost(p, width: width, x0: x0, x1: x1, y0: y0, y1: y1, table: red) { argb in
                            let g = argb &>> 8
                            return Int((argb &>> 16) & 0xFF) &- VP8LTransform.colorTransformDelta(g2r, g)
                        }
                    }
                    for pass in 0..<2 {
                        m.greenToBlue = search(pass == 0 ? neighbours.map(\.greenToBlue) : [m.greenToBlue]) { g2b in
                            blueCost(p, width: width, x0: x0, x1: x1, y0: y0, y1: y1, table: blue,
                                     greenToBlue: g2b, redToBlue: m.redToBlue)
                        }
                        m.redToBlue = search(pass == 0 ? neighbours.map(\.redToBlue) : [m.redToBlue]) { r2b in
                            blueCost(p, width: width, x0: x0, x1: x1, y0: y0, y1: y1, table: blue,
                                     greenToBlue: m.greenToBlue, redToBlue: r2b)
                        }
                    }
                }
                elements[ty * tilesX + tx] = m.element
                transform(p, width: width, x0: x0, x1: x1, y0: y0, y1: y1, m)
                costs.record(p, width: width, x0: x0, x1: x1, y0: y0, y1: y1) { p[$0] }
            }
        }
        return elements
    }

    /// The best multiplier from the `starts` by descent with steps 32, 16, …, 1.
    @inline(__always)
    static func search(_ starts: [Int], _ cost: (Int) -> Int) -> Int {
        var best = 0, bestCost = Int.max
        for s in starts {
            let c = cost(s)
            if c < bestCost { bestCost = c; best = s }
        }
        var step = 32
        while step > 0 {
            for candidate in [best - step, best + step] where candidate >= -128 && candidate <= 127 {
                let c = cost(candidate)
                if c < bestCost { bestCost = c; best = candidate }
            }
            step >>= 1
        }
        return best
    }

    /// The cost of a channel's values over a tile under the counts of the tiles before
    /// (``VP8LResidualCosts``). (Adding the tile's own entropy saved 0.1–0.2% for 3× the time
    /// of this search: left out.)
    @inline(__always)
    static func cost(_ p: UnsafePointer<UInt32>, width: Int, x0: Int, x1: Int, y0: Int, y1: Int,
                     table: UnsafePointer<Int32>, _ value: (UInt32) -> Int) -> Int {
        var total = 0
        for y in y0..<y1 {
            let row = y &* width
            for x in x0..<x1 { total &+= Int(table[value(p[row &+ x]) & 0xFF]) }
        }
        return total
    }

    @inline(__always)
    static func blueCost(_ p: UnsafePointer<UInt32>, width: Int, x0: Int, x1: Int, y0: Int, y1: Int,
                         table: UnsafePointer<Int32>, greenToBlue: Int, redToBlue: Int) -> Int {
        cost(p, width: width, x0: x0, x1: x1, y0: y0, y1: y1, table: table) { argb in
            Int(argb & 0xFF) &- VP8LTransform.colorTransformDelta(greenToBlue, argb &>> 8)
                &- VP8LTransform.colorTransformDelta(redToBlue, argb &>> 16)
        }
    }

    /// Applies `m` to a rectangle: red loses green's share; blue loses green's and red's
    /// (the original red, which the decoder has restored when it restores blue).
    static func transform(_ p: UnsafeMutablePointer<UInt32>, width: Int, x0: Int, x1: Int, y0: Int, y1: Int,
                          _ m: Multipliers) {
        for y in y0..<y1 {
            let row = y &* width
            for x in x0..<x1 {
                let argb = p[row &+ x]
                let green = argb &>> 8
                let red = argb &>> 16
                let newRed = (Int(red & 0xFF) &- VP8LTransform.colorTransformDelta(m.greenToRed, green)) & 0xFF
                let newBlue = (Int(argb & 0xFF) &- VP8LTransform.colorTransformDelta(m.greenToBlue, green)
                    &- VP8LTransform.colorTransformDelta(m.redToBlue, red)) & 0xFF
                p[row &+ x] = (argb & 0xFF00_FF00) | UInt32(newRed) << 16 | UInt32(newBlue)
            }
        }
    }
}
