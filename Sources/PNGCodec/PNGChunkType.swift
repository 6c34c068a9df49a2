/// A chunk type: four ASCII letters read as a big-endian integer (PNG 3rd edition §5.3, §5.4).
struct PNGChunkType: RawRepresentable, Hashable {
    let rawValue: UInt32

    init(rawValue: UInt32) { self.rawValue = rawValue }

    private init(_ name: StaticString) {
        let p = name.utf8Start
        rawValue = UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
    }

    static let IHDR = PNGChunkType("IHDR")
    static let PLTE = PNGChunkType("PLTE")
    static let IDAT = PNGChunkType("IDAT")
    static let IEND = PNGChunkType("IEND")
    static let tRNS = PNGChunkType("tRNS")
    static let gAMA = PNGChunkType("gAMA")
    static let cHRM = PNGChunkType("cHRM")
    static let sRGB = PNGChunkType("sRGB")
    static let iCCP = PNGChunkType("iCCP")
    static let cICP = PNGChunkType("cICP")
    static let sBIT = PNGChunkType("sBIT")
    static let bKGD = PNGChunkType("bKGD")
    static let pHYs = PNGChunkType("pHYs")
    static let tEXt = PNGChunkType("tEXt")
    static let zTXt = PNGChunkType("zTXt")
    static let iTXt = PNGChunkType("iTXt")
    static let eXIf = PNGChunkType("eXIf")
    static let acTL = PNGChunkType("acTL")
    static let fcTL = PNGChunkType("fcTL")
    static let fdAT = PNGChunkType("fdAT")

    /// Each byte is an ASCII letter (§5.4).
    var isValid: Bool {
        (0..<4).allSatisfy { i in
            let b = UInt8(truncatingIfNeeded: rawValue >> (24 - 8 * i)) | 0x20
            return b >= 0x61 && b <= 0x7A
        }
    }

    /// Ancillary bit: bit 5 of the first byte (§5.4); critical chunks have it clear.
    var isCritical: Bool { rawValue & 0x2000_0000 == 0 }
}
