import BenchSupport
import CGifShim
import ImageCodecs

/// The decoders under comparison, each giving every frame as the composited RGBA8 canvas
/// (straight alpha, alpha 0 or 255): ours with the default `maxThreads` and with 1, and giflib.
enum Decoder: Int, BenchDecoder {
    case ours, oursOneCore, giflib

    var name: String {
        switch self {
        case .ours: "ours"
        case .oursOneCore: "ours (1 thread)"
        case .giflib: "giflib"
        }
    }

    /// Decodes `bytes` whole and composites every frame, as a user would: everything from the
    /// file's bytes to the last frame's pixels, output allocation included. Returns the final
    /// canvas; `frames`, when given, sees every frame's canvas (the check, never timed).
    func decode(_ bytes: [UInt8], info: GIFInfo, frames: FrameHashes? = nil) throws(BenchError) -> [UInt8] {
        switch self {
        case .ours: try decodeOursEveryFrame(bytes, frames: frames)
        case .oursOneCore: try decodeOursEveryFrame(bytes, options: oneThread, frames: frames)
        case .giflib: try decodeGiflib(bytes, info: info, frames: frames)
        }
    }
}

/// giflib through the C shim (`Sources/CGifShim`): DGifSlurp over the buffer, then every image
/// composited onto one RGBA8 canvas, which this function allocates.
func decodeGiflib(_ bytes: [UInt8], info: GIFInfo, frames: FrameHashes? = nil) throws(BenchError) -> [UInt8] {
    let size = info.canvasBytes
    var rc: Int32 = 0
    let context = frames.map { Unmanaged.passUnretained($0).toOpaque() }
    let callback: gifshim_frame_callback? = frames == nil ? nil : { context, _, canvas in
        let frames = Unmanaged<FrameHashes>.fromOpaque(context!).takeUnretainedValue()
        frames.append(UnsafeBufferPointer(start: canvas, count: frames.canvasBytes))
    }
    let pixels = bytes.withUnsafeBytes { raw in
        [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var width: UInt32 = 0
            var height: UInt32 = 0
            var images: Int32 = 0
            rc = gifshim_decode_composite(raw.baseAddress, raw.count, buffer.baseAddress, size,
                                          callback, context, &width, &height, &images)
            count = rc == 0 ? size : 0
        }
    }
    guard rc == 0 else {
        let message = gifshim_error_string(rc).map { String(cString: $0) } ?? "error \(rc)"
        throw BenchError("giflib: \(message)")
    }
    return pixels
}
