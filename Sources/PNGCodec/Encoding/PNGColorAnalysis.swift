import CodecCore

/// What one pass over every frame's pixels tells about the lossless reductions a PNG can use
/// (after oxipng's reductions): whether alpha is needed, whether the image is grey, which
/// colours it has when there are 256 or fewer, and whether 16-bit samples fit in 8 bits.
struct PNGColorAnalysis {
    /// Every alpha is the maximum.
    var isOpaque = true
    /// Every alpha is 0 or the maximum.
    var alphaIsBinary = true
    /// Every pixel has R = G = B.
    var isGray = true
    /// Every sample of a 16-bit frame has equal high and low bytes (v = 257 × (v >> 8)).
    var fitsEightBits = true
    /// Whether any frame has 16-bit samples.
    var hasSixteenBitFrames = false
    /// RGB of the first fully transparent pixel, 16 bits per channel packed R | G << 16 | B << 32.
    var transparentColor: UInt64?
    /// Some fully transparent pixels have different colours.
    var transparentColorsDiffer = false
    /// The distinct RGBA8 colours while there are at most 256 (valid when ``fitsEightBits``).
    var colors = PNGColorTable()
    /// Grey levels seen, 8-bit (valid when ``isGray`` and ``fitsEightBits``).
    var grayLevels = [Bool](repeating: false, count: 256)

    /// Takes every pixel of `frame` into account.
    mutating func add(_ frame: EncodingFrame) {
        var scratch = [UInt8](repeating: 0, count: frame.bytesPerRow)
        var narrow = [UInt32](repeating: 0, count: frame.width)
        let stored = frame.storedPixels
        for y in 0..<frame.height {
            if stored == nil { scratch.withUnsafeMutableBytes { frame.copyRow(y, into: $0) } }
            let done = (stored ?? scratch).withUnsafeBytes { raw -> Bool in
                let row = stored == nil ? raw.baseAddress! : raw.baseAddress! + y * frame.bytesPerRow
                if frame.isSixteenBit {
                    hasSixteenBitFrames = true
                    add16(row.assumingMemoryBound(to: UInt16.self), count: frame.width)
                    guard fitsEightBits else { return isSettled }
                    narrow.withUnsafeMutableBufferPointer { n in
                        PNGRowPacker.narrow(row.assumingMemoryBound(to: UInt16.self), into: n.baseAddress!, count: frame.width)
                        add8(UnsafePointer(n.baseAddress!), count: frame.width)
                    }
                } else {
                    add8(row.assumingMemoryBound(to: UInt32.self), count: frame.width)
                }
                return isSettled
            }
            if done { return }
        }
    }

    /// Nothing more can change the choice: colour, alpha, more than 256 colours, 16 bits.
    private var isSettled: Bool {
        !isGray && !alphaIsBinary && colors.overflowed && (!fitsEightBits || !hasSixteenBitFrames)
    }

    /// One row of RGBA8 pixels, packed little-endian.
    private mutating func add8(_ px: UnsafePointer<UInt32>, count: Int) {
        var opaque = isOpaque, binary = alphaIsBinary, gray = isGray
        var last: UInt32 = px[0] ^ 1
        var i = 0
        while i < count {
            let p = px[i]
            i &+= 1
            if p == last { continue }
            last = p
            let a = p >> 24
            if a != 255 {
                opaque = false
                if a == 0 { noteTransparent(UInt64(p & 0xFF) &* 257 | UInt64((p >> 8) & 0xFF) &* 257 << 16
                                            | UInt64((p >> 16) & 0xFF) &* 257 << 32) } else { binary = false }
            }
            let r = p & 0xFF
            if r == (p >> 8) & 0xFF && r == (p >> 16) & 0xFF {
                grayLevels[Int(r)] = true
            } else {
                gray = false
            }
            if !colors.overflowed { colors.insert(p) }
        }
        isOpaque = opaque
        alphaIsBinary = binary
        isGray = gray
    }

    /// One row of RGBA16 pixels, native byte order.
    private mutating func add16(_ s: UnsafePointer<UInt16>, count: Int) {
        var i = 0
        let n = count &* 4
        while i < n {
            let r = s[i], g = s[i &+ 1], b = s[i &+ 2], a = s[i &+ 3]
            i &+= 4
            if fitsEightBits, (r >> 8 != r & 0xFF) || (g >> 8 != g & 0xFF) || (b >> 8 != b & 0xFF) || (a >> 8 != a & 0xFF) {
                fitsEightBits = false
            }
            if a != 0xFFFF {
                isOpaque = false
                if a == 0 { noteTransparent(UInt64(r) | UInt64(g) << 16 | UInt64(b) << 32) } else { alphaIsBinary = false }
            }
            if r != g || g != b { isGray = false }
        }
    }

    @inline(__always)
    private mutating func noteTransparent(_ rgb: UInt64) {
        if let transparentColor {
            if transparentColor != rgb { transparentColorsDiffer = true }
        } else {
            transparentColor = rgb
        }
    }

    /// Whether every transparent pixel can be one `tRNS` colour key: alpha only 0 or the
    /// maximum, one colour under every transparent pixel. The caller still checks that no
    /// opaque pixel has that colour (``keyAppearsOpaque(_:in:)``).
    var allowsColorKey: Bool { !isOpaque && alphaIsBinary && !transparentColorsDiffer }

    /// Whether an opaque pixel of `frame` has the RGB `key` (packed as ``transparentColor``).
    static func keyAppearsOpaque(_ key: UInt64, in frame: EncodingFrame) -> Bool {
        let raster = frame.raster()
        return raster.pixels.withUnsafeBytes { raw in
            if frame.isSixteenBit {
                let s = raw.bindMemory(to: UInt16.self)
                for i in stride(from: 0, to: s.count, by: 4) where s[i + 3] == 0xFFFF {
                    if UInt64(s[i]) | UInt64(s[i + 1]) << 16 | UInt64(s[i + 2]) << 32 == key { return true }
                }
            } else {
                let p = raw.bindMemory(to: UInt32.self)
                let opaqueKey = UInt32(key & 0xFF) | UInt32((key >> 16) & 0xFF) << 8 | UInt32((key >> 32) & 0xFF) << 16
                    | 0xFF00_0000
                for v in p where v == opaqueKey { return true }
            }
            return false
        }
    }
}
