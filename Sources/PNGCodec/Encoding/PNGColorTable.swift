/// A small set of RGBA8 colours (packed as `r | g << 8 | b << 16 | a << 24`) with an index for
/// each, by open addressing: at most 256 colours, in the order they were first added.
struct PNGColorTable {
    static let capacity = 256
    private static let slotCount = 1024
    /// Key + 1 in the low 33 bits' worth (0 = empty), index in the high bits.
    private var slots = [UInt64](repeating: 0, count: slotCount)
    private(set) var colors: [UInt32] = []
    /// Set once a colour beyond ``capacity`` was offered; the table then stops growing.
    private(set) var overflowed = false

    init() {
        colors.reserveCapacity(Self.capacity)
    }

    /// A table of `colors` in this order (each distinct).
    init(colors list: [UInt32]) {
        self.init()
        for c in list { insert(c) }
    }

    @inline(__always)
    private static func hash(_ c: UInt32) -> Int {
        Int(truncatingIfNeeded: (c &* 0x9E37_79B1) >> 22)
    }

    /// Adds `color` unless present; marks the table overflowed when full.
    @inline(__always)
    mutating func insert(_ color: UInt32) {
        let key = UInt64(color) &+ 1
        var i = Self.hash(color)
        while true {
            let s = slots[i]
            if s == 0 { break }
            if s & 0x1_FFFF_FFFF == key { return }
            i = (i &+ 1) & (Self.slotCount &- 1)
        }
        guard colors.count < Self.capacity else {
            overflowed = true
            return
        }
        slots[i] = key | UInt64(colors.count) << 33
        colors.append(color)
    }

    /// The index of `color`, if present.
    @inline(__always)
    func index(of color: UInt32) -> Int? {
        let key = UInt64(color) &+ 1
        var i = Self.hash(color)
        while true {
            let s = slots[i]
            if s == 0 { return nil }
            if s & 0x1_FFFF_FFFF == key { return Int(truncatingIfNeeded: s >> 33) }
            i = (i &+ 1) & (Self.slotCount &- 1)
        }
    }
}
