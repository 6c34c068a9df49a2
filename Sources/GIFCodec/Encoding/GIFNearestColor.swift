/// The palette entry nearest to a colour in squared RGB distance.
///
/// The entries are sorted by green; a search starts at the query's green and walks outwards
/// in both directions until the green difference alone exceeds the best distance found
/// (exact, and typically a few dozen entries for 256). Repeated colours hit a direct-mapped
/// cache of 2^16 entries.
struct GIFNearestColor {
    private var red: [Int32] = []
    private var green: [Int32] = []
    private var blue: [Int32] = []
    private var entry: [UInt8] = []
    /// The first sorted position whose green is at least g, for g in 0…256.
    private var start = [Int](repeating: 0, count: 257)
    private var cacheKeys = [UInt32](repeating: .max, count: 1 << 16)
    private var cacheValues = [UInt8](repeating: 0, count: 1 << 16)

    /// `palette`: packed opaque colours (R in the low byte), at most 256.
    init(palette: [UInt32]) {
        let order = palette.indices.sorted { (palette[$0] >> 8) & 0xFF < (palette[$1] >> 8) & 0xFF }
        for i in order {
            let c = palette[i]
            red.append(Int32(c & 0xFF))
            green.append(Int32((c >> 8) & 0xFF))
            blue.append(Int32((c >> 16) & 0xFF))
            entry.append(UInt8(truncatingIfNeeded: i))
        }
        var p = 0
        for g in 0...256 {
            while p < green.count && green[p] < g { p += 1 }
            start[g] = p
        }
    }

    /// The index (into the palette given at init) nearest to (r, g, b), each 0…255.
    mutating func nearest(_ r: Int32, _ g: Int32, _ b: Int32) -> Int {
        let key = UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16
        let slot = Int((key &* 0x9E37_79B1) >> 16)
        if cacheKeys[slot] == key { return Int(cacheValues[slot]) }
        let found = search(r, g, b)
        cacheKeys[slot] = key
        cacheValues[slot] = UInt8(truncatingIfNeeded: found)
        return found
    }

    private func search(_ r: Int32, _ g: Int32, _ b: Int32) -> Int {
        let n = green.count
        guard n > 0 else { return 0 }
        var best = Int32.max, bestIndex = 0
        let s = start[Int(g)]
        var up = s, down = s - 1
        while up < n || down >= 0 {
            if up < n {
                let dg = green[up] - g
                if dg * dg >= best {
                    up = n
                } else {
                    let dr = red[up] - r, db = blue[up] - b
                    let d = dr * dr + dg * dg + db * db
                    if d < best { best = d; bestIndex = up }
                    up += 1
                }
            }
            if down >= 0 {
                let dg = g - green[down]
                if dg * dg >= best {
                    down = -1
                } else {
                    let dr = red[down] - r, db = blue[down] - b
                    let d = dr * dr + dg * dg + db * db
                    if d < best { best = d; bestIndex = down }
                    down -= 1
                }
            }
        }
        return Int(entry[bestIndex])
    }
}
