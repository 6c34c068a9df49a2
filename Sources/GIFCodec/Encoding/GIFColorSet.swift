/// The distinct colours of an image when there are at most 256: a colour table (GIF89a §19,
/// §21) being built, with each colour's index.
///
/// Colours are RGBA8 packed in a `UInt32` (R in the low byte). An open-addressed hash of 1024
/// slots (a quarter full at most) maps a colour to its index; a one-entry cache catches runs.
struct GIFColorSet {
    static let capacity = 256
    private static let slotCount = 1024
    /// Slot keys: colour, or `empty` (never a colour the encoder stores: alpha is 0 or 255 and a
    /// transparent colour is stored as 0).
    private static let empty: UInt32 = 0x7F00_0000
    private var keys = [UInt32](repeating: GIFColorSet.empty, count: GIFColorSet.slotCount)
    private var values = [UInt8](repeating: 0, count: GIFColorSet.slotCount)
    /// The colours in index order.
    private(set) var colors: [UInt32] = []
    private var lastColor = GIFColorSet.empty
    private var lastIndex = 0

    var count: Int { colors.count }

    init() { colors.reserveCapacity(Self.capacity) }

    /// A set holding `colors` (distinct, at most 256) at their positions.
    init(_ colors: [UInt32]) {
        self.init()
        for c in colors { _ = insert(c) }
    }

    private static func slot(_ color: UInt32) -> Int {
        Int(truncatingIfNeeded: (color &* 0x9E37_79B1) >> 22)
    }

    /// The index of `color`, or nil when it is not in the set.
    mutating func index(of color: UInt32) -> Int? {
        if color == lastColor { return lastIndex }
        var s = Self.slot(color)
        while true {
            let k = keys[s]
            if k == color {
                lastColor = color
                lastIndex = Int(values[s])
                return lastIndex
            }
            if k == Self.empty { return nil }
            s = (s &+ 1) & (Self.slotCount - 1)
        }
    }

    /// Adds `color` if it is new; false when the set already holds 256 colours and `color` is
    /// not one of them.
    mutating func insert(_ color: UInt32) -> Bool {
        var s = Self.slot(color)
        while true {
            let k = keys[s]
            if k == color { return true }
            if k == Self.empty { break }
            s = (s &+ 1) & (Self.slotCount - 1)
        }
        guard colors.count < Self.capacity else { return false }
        keys[s] = color
        values[s] = UInt8(truncatingIfNeeded: colors.count)
        colors.append(color)
        return true
    }

    /// Adds every colour of `pixels`; false as soon as a 257th colour turns up.
    mutating func insert(contentsOf pixels: UnsafeBufferPointer<UInt32>) -> Bool {
        var previous = Self.empty
        for c in pixels where c != previous {
            guard insert(c) else { return false }
            previous = c
        }
        return true
    }
}
