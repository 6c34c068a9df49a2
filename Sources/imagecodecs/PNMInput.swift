#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ImageCodecs

/// A Netpbm file (P5 greymap, P6 pixmap, P7 PAM with TUPLTYPE GRAYSCALE, GRAYSCALE_ALPHA, RGB or
/// RGB_ALPHA) read by rows on demand, so that encoding it never holds the whole image: each row
/// is read from the file when the encoder asks and widened to RGBA (8 bits for MAXVAL 255 or
/// less, 16 bits above; other MAXVALs are scaled to 255 or 65535).
final class PNMInput {
    let width: Int
    let height: Int
    let channels: Int
    let maxValue: Int
    private let fd: Int32
    private let dataOffset: Int

    /// Opens `path`; nil when it cannot be opened or does not start with P5, P6 or P7. Throws
    /// for a malformed or short file.
    init?(path: String) throws(PNMError) {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        self.fd = fd
        var head = [UInt8](repeating: 0, count: 1024)
        let n = head.withUnsafeMutableBytes { pread(fd, $0.baseAddress, 1024, 0) }
        guard n >= 2, head[0] == UInt8(ascii: "P"), [UInt8(ascii: "5"), UInt8(ascii: "6"), UInt8(ascii: "7")].contains(head[1]) else {
            close(fd)
            return nil
        }
        var header = PNMHeaderParser(Array(head[0..<max(0, n)]))
        do {
            let parsed = try header.parse()
            (width, height, channels, maxValue, dataOffset) = (parsed.width, parsed.height, parsed.channels,
                                                               parsed.maxValue, parsed.dataOffset)
        } catch {
            close(fd)
            throw error
        }
        var info = stat()
        let sampleBytes = maxValue > 255 ? 2 : 1
        let (rowBytes, o1) = width.multipliedReportingOverflow(by: channels * sampleBytes)
        let (dataBytes, o2) = rowBytes.multipliedReportingOverflow(by: height)
        guard !o1, !o2, fstat(fd, &info) == 0, Int(info.st_size) - dataOffset >= dataBytes else {
            throw PNMError("the PNM data is shorter than its header says")
        }
    }

    /// Closes the file (also when the initializer threw after every property was set).
    deinit { close(fd) }

    /// Bytes of one row in the file.
    var fileRowBytes: Int { width * channels * (maxValue > 255 ? 2 : 1) }

    /// Bytes per RGBA pixel handed to the encoder.
    var bytesPerPixel: Int { maxValue > 255 ? 8 : 4 }

    /// Fills `out` with row `y` as RGBA8 or RGBA16 (native order).
    func readRow(_ y: Int, into out: UnsafeMutableRawBufferPointer, scratch: inout [UInt8]) {
        let rowBytes = fileRowBytes
        if scratch.count < rowBytes { scratch = [UInt8](repeating: 0, count: rowBytes) }
        let got = scratch.withUnsafeMutableBytes { pread(fd, $0.baseAddress, rowBytes, off_t(dataOffset + y * rowBytes)) }
        if got < rowBytes { scratch.withUnsafeMutableBytes { _ = $0.initializeMemory(as: UInt8.self, repeating: 0) } }
        let ch = channels, maxv = maxValue, w = width, wide = maxv > 255
        if ch == 3 && maxv == 255, let o = out.baseAddress {
            scratch.withUnsafeBytes { src in
                guard let s = src.baseAddress else { return }
                PixelConversion.widenRGB(s.assumingMemoryBound(to: UInt8.self), o.assumingMemoryBound(to: UInt8.self), count: w)
            }
            return
        }
        let top = wide ? 65535 : 255
        scratch.withUnsafeBytes { src in
            /// Sample `i` of the row scaled to `top`.
            func sample(_ i: Int) -> Int {
                let raw = wide ? Int(src[2 * i]) << 8 | Int(src[2 * i + 1]) : Int(src[i])
                return maxv == top ? raw : (min(raw, maxv) * top + maxv / 2) / maxv
            }
            for x in 0..<w {
                let base = x * ch
                let r = sample(base)
                let g = ch >= 3 ? sample(base + 1) : r
                let b = ch >= 3 ? sample(base + 2) : r
                let a = ch == 2 ? sample(base + 1) : ch == 4 ? sample(base + 3) : top
                if wide {
                    let o = out.baseAddress!.assumingMemoryBound(to: UInt16.self) + 4 * x
                    (o[0], o[1], o[2], o[3]) = (UInt16(r), UInt16(g), UInt16(b), UInt16(a))
                } else {
                    let o = out.baseAddress!.assumingMemoryBound(to: UInt8.self) + 4 * x
                    (o[0], o[1], o[2], o[3]) = (UInt8(r), UInt8(g), UInt8(b), UInt8(a))
                }
            }
        }
    }

    /// The image as a frame whose rows are read on demand.
    func frame() throws(EncodingError) -> EncodingFrame {
        var scratch: [UInt8] = []
        return try EncodingFrame(width: width, height: height, bytesPerPixel: bytesPerPixel) { [self] y, out in
            readRow(y, into: out, scratch: &scratch)
        }
    }
}

struct PNMError: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

/// The header of a P5/P6 (`P6 W H MAXVAL` with comments) or P7 (`WIDTH`, `HEIGHT`, `DEPTH`,
/// `MAXVAL`, `TUPLTYPE`, `ENDHDR` lines) file.
struct PNMHeaderParser {
    private let bytes: [UInt8]
    private var i = 2

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    mutating func parse() throws(PNMError) -> (width: Int, height: Int, channels: Int, maxValue: Int, dataOffset: Int) {
        let kind = bytes[1]
        var width = 0, height = 0, channels = kind == UInt8(ascii: "5") ? 1 : 3, maxValue = 0
        if kind == UInt8(ascii: "7") {
            channels = 0
            while let key = token() {
                if key == "ENDHDR" { break }
                if key == "TUPLTYPE" { _ = token(); continue }
                guard let value = token().flatMap({ Int($0) }) else { throw PNMError("malformed PAM header") }
                switch key {
                case "WIDTH": width = value
                case "HEIGHT": height = value
                case "DEPTH": channels = value
                case "MAXVAL": maxValue = value
                default: throw PNMError("unknown PAM header field \(key)")
                }
            }
            guard i < bytes.count, bytes[i] == 0x0A else { throw PNMError("malformed PAM header") }
            i += 1
        } else {
            guard let w = token().flatMap({ Int($0) }), let h = token().flatMap({ Int($0) }),
                  let m = token().flatMap({ Int($0) }), i < bytes.count else { throw PNMError("malformed PNM header") }
            (width, height, maxValue) = (w, h, m)
            i += 1
        }
        guard width > 0, height > 0, (1...4).contains(channels), (1...65535).contains(maxValue) else {
            throw PNMError("unsupported PNM header values")
        }
        return (width, height, channels, maxValue, i)
    }

    /// The next whitespace-separated word, skipping `#` comments.
    private mutating func token() -> String? {
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "#") {
                while i < bytes.count && bytes[i] != 0x0A { i += 1 }
            } else if [0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) {
                i += 1
            } else {
                break
            }
        }
        let start = i
        while i < bytes.count && ![0x20, 0x09, 0x0A, 0x0D].contains(bytes[i]) { i += 1 }
        guard i > start else { return nil }
        return String(decoding: bytes[start..<i], as: UTF8.self)
    }
}
