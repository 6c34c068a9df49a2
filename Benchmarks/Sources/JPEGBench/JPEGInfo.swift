/// What the report needs from a JPEG's frame header (ITU T.81 B.2.2), read without our decoder
/// so that the label does not depend on the code under test: the size, the process, the
/// components and their sampling factors, and whether a restart interval is defined.
struct JPEGInfo {
    /// The SOFn marker's second byte (0xC0 baseline, 0xC1 extended, 0xC2 progressive, ...).
    let frameMarker: UInt8
    let width: Int
    let height: Int
    /// (H, V) sampling factors of each component, in frame order.
    let sampling: [(h: Int, v: Int)]
    /// A DRI segment with a non-zero interval came before the frame header.
    let hasRestartInterval: Bool

    /// Walks the marker segments from SOI up to the first SOFn; nil when there is none before
    /// the data ends or the first scan starts.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= 4, bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
        var pos = 2
        var restart = false
        while pos + 4 <= bytes.count {
            guard bytes[pos] == 0xFF else { pos += 1; continue } // junk before a marker, as libjpeg skips it
            let marker = bytes[pos + 1]
            if marker == 0xFF { pos += 1; continue } // fill byte
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { pos += 2; continue } // no length
            let length = Int(bytes[pos + 2]) << 8 | Int(bytes[pos + 3])
            let body = pos + 4
            guard length >= 2, pos + 2 + length <= bytes.count else { return nil }
            switch marker {
            case 0xC0...0xCF where marker != 0xC4 && marker != 0xC8 && marker != 0xCC:
                guard length >= 8 else { return nil }
                let count = Int(bytes[body + 5])
                guard length >= 8 + 3 * count, count > 0 else { return nil }
                frameMarker = marker
                height = Int(bytes[body + 1]) << 8 | Int(bytes[body + 2])
                width = Int(bytes[body + 3]) << 8 | Int(bytes[body + 4])
                sampling = (0..<count).map { i in
                    let factors = bytes[body + 7 + 3 * i]
                    return (h: Int(factors >> 4), v: Int(factors & 15))
                }
                hasRestartInterval = restart
                return
            case 0xDD where length >= 4:
                restart = bytes[body] != 0 || bytes[body + 1] != 0
            case 0xDA, 0xD9:
                return nil
            default:
                break
            }
            pos += 2 + length
        }
        return nil
    }

    var megapixels: Double { Double(width) * Double(height) / 1e6 }

    /// Bytes of the RGBA8 canvas: our default output and what the shim writes.
    var canvasBytes: Int { width * height * 4 }

    var isProgressive: Bool { frameMarker == 0xC2 || frameMarker == 0xCA }

    /// "420", "444", "422", "440", "411", "410", "gray", "cmyk", or the factors ("2x2,2x1,1x2").
    var samplingName: String {
        if sampling.count == 1 { return "gray" }
        if sampling.count == 4 { return "cmyk" }
        let named: [String: String] = ["2x2": "420", "1x1": "444", "2x1": "422", "1x2": "440",
                                       "4x1": "411", "4x2": "410"]
        if sampling.count == 3, sampling[1...].allSatisfy({ $0.h == 1 && $0.v == 1 }),
           let name = named["\(sampling[0].h)x\(sampling[0].v)"] {
            return name
        }
        return sampling.map { "\($0.h)x\($0.v)" }.joined(separator: ",")
    }

    /// For example "baseline-420", "baseline-444", "progressive-420", "baseline-420 restarts",
    /// "extended-420", "arithmetic-444".
    var category: String {
        let process = switch frameMarker {
        case 0xC0: "baseline"
        case 0xC1: "extended"
        case 0xC2: "progressive"
        case 0xC9: "arithmetic"
        case 0xCA: "arithmetic-progressive"
        default: "SOF" + String(Int(frameMarker) - 0xC0, radix: 16, uppercase: true)
        }
        return "\(process)-\(samplingName)" + (hasRestartInterval ? " restarts" : "")
    }
}
