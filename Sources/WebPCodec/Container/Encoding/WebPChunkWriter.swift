/// Writes the RIFF container of WebP (RFC 9649 section 2): chunk headers with little-endian
/// sizes, payloads padded to an even length, the VP8X, ANIM and ANMF headers.
enum WebPChunkWriter {
    /// RFC 9649 2.7: VP8X flags.
    struct Features: OptionSet {
        let rawValue: UInt8
        static let animation = Features(rawValue: 0x02)
        static let xmp = Features(rawValue: 0x04)
        static let exif = Features(rawValue: 0x08)
        static let alpha = Features(rawValue: 0x10)
        static let icc = Features(rawValue: 0x20)
    }

    /// RFC 9649 2.7: VP8X stores the canvas size minus one in 24 bits, and its product must
    /// fit 32 bits.
    static let maxCanvasDimension = 1 << 24

    static func appendLE(_ value: Int, bytes: Int, to out: inout [UInt8]) {
        for i in 0..<bytes { out.append(UInt8(truncatingIfNeeded: value >> (8 * i))) }
    }

    /// A chunk: FourCC, size, payload, a zero pad byte when the size is odd.
    static func chunk(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
        var out = Array(fourCC.utf8)
        out.reserveCapacity(payload.count + 9)
        appendLE(payload.count, bytes: 4, to: &out)
        out += payload
        if payload.count & 1 == 1 { out.append(0) }
        return out
    }

    /// The RIFF header of a file whose chunks take `chunkBytes` bytes.
    static func riffHeader(chunkBytes: Int) -> [UInt8] {
        var out = Array("RIFF".utf8)
        appendLE(chunkBytes + 4, bytes: 4, to: &out)
        out += Array("WEBP".utf8)
        return out
    }

    /// RFC 9649 2.7: the VP8X chunk.
    static func vp8x(_ features: Features, width: Int, height: Int) -> [UInt8] {
        var payload: [UInt8] = [features.rawValue, 0, 0, 0]
        appendLE(width - 1, bytes: 3, to: &payload)
        appendLE(height - 1, bytes: 3, to: &payload)
        return chunk("VP8X", payload)
    }

    /// RFC 9649 2.7.1.1: the ANIM chunk, the background colour in B, G, R, A byte order.
    static func anim(background: (r: UInt8, g: UInt8, b: UInt8, a: UInt8), loopCount: Int) -> [UInt8] {
        var payload: [UInt8] = [background.b, background.g, background.r, background.a]
        appendLE(loopCount, bytes: 2, to: &payload)
        return chunk("ANIM", payload)
    }

    /// RFC 9649 2.7.1.1: an ANMF chunk around a frame's image chunk. `x` and `y` are even.
    static func anmf(x: Int, y: Int, width: Int, height: Int, duration: Int, blend: Bool, disposeToBackground: Bool,
                     image: [UInt8]) -> [UInt8] {
        var payload: [UInt8] = []
        payload.reserveCapacity(16 + image.count)
        appendLE(x / 2, bytes: 3, to: &payload)
        appendLE(y / 2, bytes: 3, to: &payload)
        appendLE(width - 1, bytes: 3, to: &payload)
        appendLE(height - 1, bytes: 3, to: &payload)
        appendLE(duration, bytes: 3, to: &payload)
        // Reserved 6 bits, then B (1: do not blend) and D (1: dispose to background).
        payload.append((blend ? 0 : 0x02) | (disposeToBackground ? 0x01 : 0))
        payload += image
        return chunk("ANMF", payload)
    }
}
