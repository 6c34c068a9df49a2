import ImageCodecs

/// Binary PNM and PAM (Netpbm: P5 greyscale, P6 RGB, P7 with DEPTH 1–4) with MAXVAL 255 as RGBA8.
enum PNM {
    static func raster(_ bytes: [UInt8]) -> Raster? {
        guard bytes.count > 2, bytes[0] == UInt8(ascii: "P") else { return nil }
        var position = 2
        func token() -> String? {
            while position < bytes.count {
                if bytes[position] == UInt8(ascii: "#") {
                    while position < bytes.count && bytes[position] != 10 { position += 1 }
                } else if bytes[position] <= 32 {
                    position += 1
                } else {
                    break
                }
            }
            let start = position
            while position < bytes.count && bytes[position] > 32 { position += 1 }
            return start < position ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
        }
        var width = 0, height = 0, depth = 0, maxval = 0
        switch bytes[1] {
        case UInt8(ascii: "5"), UInt8(ascii: "6"):
            depth = bytes[1] == UInt8(ascii: "5") ? 1 : 3
            guard let w = token().flatMap({ Int($0) }), let h = token().flatMap({ Int($0) }),
                  let m = token().flatMap({ Int($0) }) else { return nil }
            (width, height, maxval) = (w, h, m)
        case UInt8(ascii: "7"):
            while let t = token(), t != "ENDHDR" {
                let v = token().flatMap { Int($0) } ?? 0
                switch t {
                case "WIDTH": width = v
                case "HEIGHT": height = v
                case "DEPTH": depth = v
                case "MAXVAL": maxval = v
                default: break
                }
            }
        default:
            return nil
        }
        position += 1
        guard width > 0, height > 0, (1...4).contains(depth), maxval == 255,
              bytes.count - position >= width * height * depth else { return nil }
        var pixels = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) {
            let s = position + i * depth
            switch depth {
            case 1, 2:
                pixels[i * 4] = bytes[s]; pixels[i * 4 + 1] = bytes[s]; pixels[i * 4 + 2] = bytes[s]
                if depth == 2 { pixels[i * 4 + 3] = bytes[s + 1] }
            default:
                pixels[i * 4] = bytes[s]; pixels[i * 4 + 1] = bytes[s + 1]; pixels[i * 4 + 2] = bytes[s + 2]
                if depth == 4 { pixels[i * 4 + 3] = bytes[s + 3] }
            }
        }
        return Raster(width: width, height: height, bytesPerPixel: 4, pixels: pixels)
    }
}
