/// The Paeth filter (PNG 3rd edition §9.4) for 3- and 4-byte pixels (8-bit RGB and RGBA), the hot
/// case for photographs, with the channels in SIMD lanes. Each pixel depends on the one to its
/// left, so one row gives one pixel at a time (as libpng's SSE2 code does); two Paeth rows one
/// above the other go together, the lower two pixels behind (``paethPair(_:_:_:count:stride:)``).
/// ``PNGFilter/paeth(_:_:count:stride:)`` is the scalar twin a test holds equal.
///
/// The predictor is recast so that little waits for the left neighbour `a`. With b (above) and
/// c (upper left) fixed, §9.4's choice is a matter of where `a` lies: with t = 3c − 2b,
/// it is `a` when a ≤ min(b, t) or a ≥ max(b, t); otherwise `b` when `a` is at least as near
/// to b as to t (2a ≥ 3c − b when b > c, 2a ≤ 3c − b when b < c), else `c`. The thresholds
/// come from b and c alone, ahead of time; once `a` is known, three comparisons and two
/// selections remain (checked against §9.4 for every a, b and c by `FilterTests`).
extension PNGFilter {
    /// The predictor of §9.4 in eight lanes: a pixel of two rows at once, or of one (the other
    /// half zero, at no extra cost: the same 128-bit register). Everything but the last three
    /// comparisons and two selections comes from b and c alone.
    #if compiler(>=6.2)
    @inline(always)  // the hint `@inline(__always)` was not always taken here (SE-0496)
    #else
    @inline(__always)
    #endif
    static func paethPredictor(_ a: SIMD8<Int16>, above b: SIMD8<Int16>, upperLeft c: SIMD8<Int16>) -> SIMD8<Int16> {
        let t = c &+ c &+ c &- b &- b, m = t &+ b
        let one = SIMD8<Int16>(repeating: 1)
        let tBelow = t .< b, rising = b .> c
        // `a` is the prediction when a ≤ low or a ≥ high.
        let low = b.replacing(with: t, where: tBelow), highMinusOne = t.replacing(with: b, where: tBelow) &- one
        // Otherwise b or c: `ifAbove` when a > middle.
        let middle = ((m &+ one) &>> one &- one).replacing(with: m &>> one, where: .!rising)
        let ifAbove = c.replacing(with: b, where: rising), ifNotAbove = b.replacing(with: c, where: rising)
        let between = (a .> low) .& .!(a .> highMinusOne)
        return a.replacing(with: ifNotAbove.replacing(with: ifAbove, where: a .> middle), where: between)
    }

    /// Pixels go in and out of the lanes through a 64-bit word, four bytes for each half: the
    /// compiler keeps that in one register, where halves of a vector it would take apart.
    @inline(__always)
    static func widen(_ word: UInt64) -> SIMD8<Int16> {
        SIMD8<Int16>(truncatingIfNeeded: unsafeBitCast(word, to: SIMD8<UInt8>.self))
    }

    @inline(__always)
    static func narrow(_ v: SIMD8<Int16>) -> UInt64 {
        unsafeBitCast(SIMD8<UInt8>(truncatingIfNeeded: v), to: UInt64.self)
    }

    /// Four bytes; the row buffers carry padding so the last 3-byte pixel's fourth byte is in
    /// bounds.
    @inline(__always)
    static func load(_ p: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(UnsafeRawPointer(p).loadUnaligned(as: UInt32.self))
    }

    /// Stores four bytes. A 3-byte pixel is stored with four bytes whose fourth is the next
    /// byte as it was: its lane has a = b = c = 0, so nothing was added to it.
    @inline(__always)
    static func store(_ word: UInt64, _ p: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(p).storeBytes(of: UInt32(truncatingIfNeeded: word), as: UInt32.self)
    }

    /// The bytes of a pixel that are channels: four, or three for 3-byte pixels.
    @inline(__always)
    static func channelMask(_ stride: Int) -> UInt64 { stride == 4 ? 0xFFFF_FFFF : 0x00FF_FFFF }

    /// Paeth reconstruction of pixels `first..<end` of a row (bytes `first · stride` on;
    /// `stride` is 3 or 4), the pixels left of `first` already reconstructed. The pixel is in
    /// the low four lanes.
    @inline(never)
    static func paethSIMD(_ row: UnsafeMutablePointer<UInt8>, _ prev: UnsafePointer<UInt8>,
                          pixels range: Range<Int>, stride: Int) {
        let keep = channelMask(stride)
        var i = range.lowerBound &* stride
        var a = widen(i > 0 ? load(row + (i &- stride)) & keep : 0)
        var c = widen(i > 0 ? load(prev + (i &- stride)) & keep : 0)
        let end = range.upperBound &* stride
        while i < end {
            let b = widen(load(prev + i) & keep)
            let out = narrow(widen(load(row + i)) &+ paethPredictor(a, above: b, upperLeft: c))
            store(out, row + i)
            a = widen(out & keep)
            c = b
            i &+= stride
        }
    }

    /// Paeth reconstruction of a row `count` bytes long (`stride` 3 or 4); bytes past the last
    /// whole pixel, which no PNG row has, one at a time.
    static func paethSIMD(_ row: UnsafeMutablePointer<UInt8>, _ prev: UnsafePointer<UInt8>, count: Int, stride: Int) {
        let whole = count / stride
        paethSIMD(row, prev, pixels: 0..<whole, stride: stride)
        for i in (whole &* stride)..<max(count, whole &* stride) {
            let left = i >= stride ? Int16(row[i &- stride]) : 0, upperLeft = i >= stride ? Int16(prev[i &- stride]) : 0
            row[i] = row[i] &+ UInt8(truncatingIfNeeded: predictor(left, Int16(prev[i]), upperLeft))
        }
    }

    /// Paeth reconstruction of two consecutive rows both filtered with Paeth: `row` (above it
    /// `prev`) and `next`, which starts `rowLength` bytes after `row`. The low lanes carry a
    /// pixel of `row`, the high ones a pixel of `next` two pixels behind, so that the pixels of
    /// `row` it needs (above and upper left) were made two and three steps before: two chains
    /// of dependence side by side in one vector. The same result as two calls of
    /// ``paethSIMD(_:_:count:stride:)``.
    static func paethPair(_ row: UnsafeMutablePointer<UInt8>, _ prev: UnsafePointer<UInt8>, rowLength: Int,
                          count: Int, stride: Int) {
        let width = count / stride, next = row + rowLength
        guard width > 3, count == width &* stride else {
            paethSIMD(row, prev, count: count, stride: stride)
            paethSIMD(next, row, count: count, stride: stride)
            return
        }
        paethSIMD(row, prev, pixels: 0..<2, stride: stride)
        let keep = channelMask(stride), keepBoth = keep | keep &<< 32
        // The upper row's last two pixels, masked: above the lower row's next two.
        var made1 = load(row + stride) & keep, made2 = load(row) & keep
        var a = widen(made1), c = widen(load(prev + stride) & keep)
        var i = 2 &* stride
        let end = width &* stride
        while i < end {
            let lower = next + (i &- 2 &* stride)
            let b = widen(load(prev + i) & keep | made2 &<< 32)
            let filtered = widen(load(row + i) | load(lower) &<< 32)
            let out = narrow(filtered &+ paethPredictor(a, above: b, upperLeft: c))
            store(out, row + i)
            store(out &>> 32, lower)
            let made = out & keepBoth
            a = widen(made)
            c = b
            made2 = made1
            made1 = made & keep
            i &+= stride
        }
        paethSIMD(next, row, pixels: (width - 2)..<width, stride: stride)
    }
}
