/// The palette entry nearest to a colour in squared RGB distance, found exactly.
///
/// The RGB cube is split into 16×16×16 cells. The first query in a cell lists the entries that
/// can be nearest to some point of it (Heckbert's "locally sorted search", 1982): an entry whose
/// closest possible distance to the cell exceeds the smallest farthest distance of any entry
/// never wins there. Later queries in the cell compare only those, typically a handful.
struct GIFNearestColor {
    private let red: [Int32]
    private let green: [Int32]
    private let blue: [Int32]
    /// Per cell: where its list starts in `candidates`, or -1 before its first query.
    private var start = [Int32](repeating: -1, count: 4096)
    private var length = [UInt16](repeating: 0, count: 4096)
    private var candidates: [UInt8] = []

    /// `palette`: packed opaque colours (R in the low byte), 1…256 of them.
    init(palette: [UInt32]) {
        red = palette.map { Int32($0 & 0xFF) }
        green = palette.map { Int32(($0 >> 8) & 0xFF) }
        blue = palette.map { Int32(($0 >> 16) & 0xFF) }
    }

    /// The index of the entry nearest to (r, g, b), each 0…255 (the first of equals); 0 for an
    /// empty palette.
    mutating func nearest(_ r: Int32, _ g: Int32, _ b: Int32) -> Int {
        let cell = Int(r >> 4) << 8 | Int(g >> 4) << 4 | Int(b >> 4)
        if start[cell] < 0 { list(cell) }
        var best = Int32.max, bestIndex = 0
        let from = Int(start[cell]), to = from + Int(length[cell])
        for k in from..<to {
            let i = Int(candidates[k])
            let dr = red[i] &- r, dg = green[i] &- g, db = blue[i] &- b
            let d = dr &* dr &+ dg &* dg &+ db &* db
            if d < best {
                best = d
                bestIndex = i
            }
        }
        return bestIndex
    }

    /// Lists, in palette order, the entries that can be nearest somewhere in `cell`.
    private mutating func list(_ cell: Int) {
        let r0 = Int32(cell >> 8) &* 16, g0 = Int32((cell >> 4) & 15) &* 16, b0 = Int32(cell & 15) &* 16
        /// Squared distances from `v` to the nearest and the farthest of `lo...lo + 15`.
        @inline(__always) func span(_ v: Int32, _ lo: Int32) -> (near: Int32, far: Int32) {
            let below = lo &- v, above = v &- (lo &+ 15)
            let near = below > 0 ? below : above > 0 ? above : 0
            let far = max(v &- lo, lo &+ 15 &- v)
            return (near &* near, far &* far)
        }
        var bound = Int32.max
        for i in red.indices {
            let far = span(red[i], r0).far &+ span(green[i], g0).far &+ span(blue[i], b0).far
            bound = min(bound, far)
        }
        start[cell] = Int32(candidates.count)
        for i in red.indices {
            let near = span(red[i], r0).near &+ span(green[i], g0).near &+ span(blue[i], b0).near
            if near <= bound { candidates.append(UInt8(truncatingIfNeeded: i)) }
        }
        length[cell] = UInt16(candidates.count - Int(start[cell]))
    }
}
