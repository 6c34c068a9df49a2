import CZlib
import CodecCore

/// Assembles PNG files chunk by chunk for tests of hostile and edge-case input.
struct PNGBuilder {
    private(set) var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func be32(_ v: Int) -> [UInt8] {
        [UInt8((v >> 24) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    static func ihdr(width: Int, height: Int, depth: UInt8 = 8, colorType: UInt8 = 6, interlace: UInt8 = 0) -> [UInt8] {
        be32(width) + be32(height) + [depth, colorType, 0, 0, interlace]
    }

    mutating func chunk(_ type: String, _ payload: [UInt8], corruptCRC: Bool = false) {
        bytes += Self.be32(payload.count)
        let body = Array(type.utf8) + payload
        bytes += body
        let crc = Int(body.withUnsafeBufferPointer { CRC32.checksum($0) })
        bytes += Self.be32(corruptCRC ? crc ^ 1 : crc)
    }

    static func deflate(_ data: [UInt8]) -> [UInt8] {
        var size = compressBound(uLong(data.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        _ = out.withUnsafeMutableBufferPointer { o in
            data.withUnsafeBufferPointer { i in compress2(o.baseAddress, &size, i.baseAddress, uLong(i.count), 9) }
        }
        return Array(out[0..<Int(size)])
    }

    /// A `width × height` RGBA8 image of the given rows (filter type 0 added), one IDAT.
    static func rgba(width: Int, height: Int, pixel: (Int, Int) -> [UInt8]) -> PNGBuilder {
        var b = PNGBuilder()
        b.chunk("IHDR", ihdr(width: width, height: height))
        var raw: [UInt8] = []
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width { raw += pixel(x, y) }
        }
        b.chunk("IDAT", deflate(raw))
        b.chunk("IEND", [])
        return b
    }
}
