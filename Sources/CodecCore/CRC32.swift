/// CRC-32 as ISO 3309 / ITU-T V.42 define it (PNG 3rd edition, Annex D; the zlib polynomial
/// 0xEDB88320, reflected), computed eight bytes at a time ("slicing by 8").
package struct CRC32: Sendable {
    package private(set) var value: UInt32 = 0

    package init() {}

    /// The CRC of `bytes` in one call.
    package static func checksum(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes)
        return crc.value
    }

    /// Table `k` maps a byte to its contribution `k` bytes further on.
    static let tables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            t[n] = c
        }
        for k in 1..<8 {
            for n in 0..<256 {
                let prev = t[(k - 1) * 256 + n]
                t[k * 256 + n] = (prev >> 8) ^ t[Int(prev & 0xFF)]
            }
        }
        return t
    }()

    package mutating func update(_ bytes: UnsafeBufferPointer<UInt8>) {
        var crc = ~value
        CRC32.tables.withUnsafeBufferPointer { t in
            var i = 0
            let n = bytes.count
            while i &+ 8 <= n {
                let lo = crc ^ (UInt32(bytes[i]) | UInt32(bytes[i &+ 1]) << 8
                    | UInt32(bytes[i &+ 2]) << 16 | UInt32(bytes[i &+ 3]) << 24)
                let hi = UInt32(bytes[i &+ 4]) | UInt32(bytes[i &+ 5]) << 8
                    | UInt32(bytes[i &+ 6]) << 16 | UInt32(bytes[i &+ 7]) << 24
                crc = t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int((lo >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((lo >> 16) & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
                    ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi >> 8) & 0xFF)]
                    ^ t[256 + Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
                i &+= 8
            }
            while i < n {
                crc = t[Int((crc ^ UInt32(bytes[i])) & 0xFF)] ^ (crc >> 8)
                i &+= 1
            }
        }
        value = ~crc
    }
}
