/// One coded item of an entropy-coded image (RFC 9649 section 5.2.2): a literal ARGB pixel,
/// a colour cache index, or an LZ77 backward reference (a length and a distance code).
struct VP8LToken {
    enum Kind: UInt32 {
        case literal = 0
        case cacheIndex = 1
        case copy = 2
    }

    /// The ARGB pixel, the cache index, or the distance code (1-based, as written).
    var value: UInt32
    /// `length << 2 | kind`; the length is 1 for literals and cache indices.
    var info: UInt32

    @inline(__always)
    static func literal(_ argb: UInt32) -> VP8LToken { VP8LToken(value: argb, info: 1 << 2) }

    @inline(__always)
    static func cacheIndex(_ index: Int) -> VP8LToken {
        VP8LToken(value: UInt32(truncatingIfNeeded: index), info: 1 << 2 | Kind.cacheIndex.rawValue)
    }

    @inline(__always)
    static func copy(length: Int, distanceCode: Int) -> VP8LToken {
        VP8LToken(value: UInt32(truncatingIfNeeded: distanceCode),
                  info: UInt32(truncatingIfNeeded: length) << 2 | Kind.copy.rawValue)
    }

    @inline(__always) var kind: UInt32 { info & 3 }
    /// Pixels the token stands for.
    @inline(__always) var length: Int { Int(info &>> 2) }
}

/// RFC 9649 3.7.1.2 and 4.2.2, encoding side: the prefix coding of copy lengths and distance
/// codes, and the distance codes of pixel distances.
enum VP8LPrefixEncoding {
    /// The prefix symbol of `value` (≥ 1), its extra bit count and extra bits: the inverse of
    /// ``VP8LBackwardReference/prefixValue(_:_:)``.
    @inline(__always)
    static func prefix(of value: Int) -> (symbol: Int, extraBits: Int, extra: Int) {
        let d = value &- 1
        if d < 4 { return (d, 0, 0) }
        let high = Int.bitWidth &- 1 &- d.leadingZeroBitCount
        let second = (d &>> (high &- 1)) & 1
        let extraBits = high &- 1
        return (2 &* high &+ second, extraBits, d & ((1 &<< extraBits) &- 1))
    }

    /// The inverse of ``VP8LBackwardReference/distanceMap``: entry `yi << 4 | (8 − xi)` → code.
    static let planeCodes: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 128)
        for (i, entry) in VP8LBackwardReference.distanceMap.enumerated() { table[Int(entry)] = UInt8(i + 1) }
        return table
    }()

    /// The distance code of a pixel `distance` in an image `width` wide: the plane code of the
    /// (x, y) offset when one decodes back to `distance`, else `distance + 120`.
    @inline(__always)
    static func distanceCode(_ distance: Int, width: Int, planeCodes: UnsafePointer<UInt8>,
                             map: UnsafePointer<UInt8>) -> Int {
        let yOffset = distance / width
        let xOffset = distance &- yOffset &* width
        var entry = -1
        if xOffset <= 8 && yOffset < 8 {
            entry = yOffset &<< 4 | (8 &- xOffset)
        } else if xOffset > width &- 8 && yOffset < 7 {
            entry = (yOffset &+ 1) &<< 4 | (8 &+ width &- xOffset)
        }
        if entry >= 0 && entry < 128 {
            let code = Int(planeCodes[entry])
            if code != 0 && VP8LBackwardReference.distance(code: code, width: width, map: map) == distance {
                return code
            }
        }
        return distance &+ VP8LBackwardReference.distanceMapSize
    }
}
