import BenchSupport
import CLibJPEGShim
import ImageCodecs

/// The decoders under comparison, each giving RGBA8 (alpha 255): ours with the default options
/// (`maxThreads`: the processors online, at most 8), ours on one core (`maxThreads` 1), and
/// libjpeg-turbo (one core: it has no multi-threaded decoder).
enum Decoder: Int, BenchDecoder {
    case ours, oursOneCore, libjpegTurbo

    var name: String {
        switch self {
        case .ours: "ours"
        case .oursOneCore: "ours (1 thread)"
        case .libjpegTurbo: "libjpeg-turbo"
        }
    }

    /// Our options with `maxThreads` 1.
    static let oneCore: DecodingOptions = {
        var options = DecodingOptions()
        options.maxThreads = 1
        return options
    }()

    /// Decodes `bytes` whole, as a user would: everything from the file's bytes to the pixels,
    /// output allocation included.
    func decode(_ bytes: [UInt8], info: JPEGInfo) throws(BenchError) -> [UInt8] {
        switch self {
        case .ours: try decodeOurs(bytes)
        case .oursOneCore: try decodeOurs(bytes, options: Self.oneCore)
        case .libjpegTurbo: try decodeLibJPEGTurbo(bytes, info: info).pixels
        }
    }
}

/// libjpeg-turbo's classic API through the C shim (`Sources/CLibJPEGShim`): `jpeg_mem_src`,
/// ISLOW IDCT, fancy upsampling, `JCS_EXT_RGBA` scanlines straight into the output. `warnings`
/// counts what libjpeg skipped or filled in corrupt data (it still writes the whole image).
func decodeLibJPEGTurbo(_ bytes: [UInt8], info: JPEGInfo) throws(BenchError) -> (pixels: [UInt8], warnings: Int32, message: String) {
    let size = info.canvasBytes
    var rc: Int32 = 0
    var warnings: Int32 = 0
    let capacity = 200
    var message = [CChar](repeating: 0, count: capacity)
    let pixels = bytes.withUnsafeBytes { raw in
        [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var width: UInt32 = 0
            var height: UInt32 = 0
            rc = jpegshim_decode_rgba8(raw.baseAddress, raw.count, buffer.baseAddress, size, &width, &height,
                                       &warnings, &message, capacity)
            count = rc == 0 ? size : 0
        }
    }
    let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    guard rc == 0 else {
        throw BenchError(rc == -2 ? "libjpeg-turbo: output larger than the frame header says" : "libjpeg-turbo: \(text)")
    }
    return (pixels, warnings, text)
}
