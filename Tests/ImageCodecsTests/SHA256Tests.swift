import ImageCodecs
import Testing

struct SHA256Tests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    ])
    func vectors(message: String, digest: String) {
        #expect(SHA256.hex(Array(message.utf8)) == digest)
    }

    @Test func millionAs() {
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000))
            == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func incrementalEqualsOneShot() {
        let message = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        for split in [0, 1, 63, 64, 65, 500, 999, 1000] {
            var hasher = SHA256.Hasher()
            message[0..<split].withUnsafeBufferPointer { hasher.update($0) }
            message[split...].withUnsafeBufferPointer { hasher.update($0) }
            #expect(hasher.finalize() == SHA256.digest(message), "split \(split)")
        }
    }

    @Test func rowWiseCanonicalHashEqualsWholeBuffer() {
        let pixels = (0..<(7 * 5 * 4)).map { UInt8(truncatingIfNeeded: $0 % 4 == 3 ? ($0 / 4 % 3) * 127 : $0 &* 13) }
        let image = DecodedImage(width: 7, height: 5, pixelFormat: .rgba8, isPremultiplied: false, pixels: pixels, finalRowCount: 5)
        #expect(CanonicalHash.hex(image) == SHA256.hex(CanonicalHash.canonicalBytes(image)))
    }

    @Test func canonicalBytesZeroTransparentPixels() {
        let image = DecodedImage(width: 2, height: 1, pixelFormat: .rgba8, isPremultiplied: false,
                                 pixels: [1, 2, 3, 0, 4, 5, 6, 7], finalRowCount: 1)
        #expect(CanonicalHash.canonicalBytes(image) == [0, 0, 0, 0, 4, 5, 6, 7])
    }
}
