// libFuzzer target for the lossless JPEG transcoder (`JPEGTranscoder`, `imagecodecs transcode`).
//
// The input's first 2 bytes choose the settings: byte 0 bits 0-2 the transform (none, flip
// horizontal, flip vertical, transpose, transverse, rotate 90, 180, 270), bit 3 trim, bit 4
// optimize, bit 5 progressive, bit 6 upright; byte 1 bits 0-1 the markers copied (none, comments,
// all). The rest is the JPEG. Small limits keep the fuzzer on logic. The transcode must either
// fail with a DecodingError or give a file that our decoder reads completely; a transform that
// keeps the size (none, flips, rotate 180, without trim) must keep width and height, a quarter
// turn must swap them. Any crash or sanitizer report is a finding, and so is a broken invariant.
// No main.swift: SwiftPM links an executable target's entry point as `FuzzJPEGTranscode_main`.
import FuzzSupport
import ImageCodecs
import JPEGCodec

let transforms: [JPEGLosslessTransform] = [.none, .flipHorizontal, .flipVertical, .transpose, .transverse,
                                           .rotate90, .rotate180, .rotate270]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 2 else { return 0 }
    let b = UnsafeBufferPointer(start: data, count: size)
    var options = JPEGTranscodeOptions()
    options.transform = transforms[Int(b[0] & 7)]
    options.trim = b[0] & 8 != 0
    options.optimize = b[0] & 16 != 0
    options.progressive = b[0] & 32 != 0
    options.upright = b[0] & 64 != 0
    options.copy = [JPEGMarkerCopy.none, .comments, .all, .all][Int(b[1] & 3)]
    var limits = Limits()
    limits.maxPixels = 16 << 20
    limits.maxJPEGScans = 100
    limits.maxMetadataBytes = 1 << 20
    options.limits = limits
    let input = Array(b[2...])
    let output: [UInt8]
    do {
        output = try JPEGTranscoder.transcode(input, options: options)
    } catch {
        return 0
    }
    var decoding = DecodingOptions()
    decoding.limits = limits
    let source = ImageSource(bytes: output, options: decoding)
    do {
        let image = try source.image(at: 0)
        precondition(source.status == .complete, "the transcoder's file does not decode completely")
        if !options.upright, !options.trim, let original = ImageSource(bytes: input, options: decoding).properties {
            let (w, h) = (original.width, original.height)
            let turns = [.transpose, .transverse, .rotate90, .rotate270].contains(options.transform)
            precondition((image.width, image.height) == (turns ? (h, w) : (w, h)), "the transcoder's file has the wrong size")
        }
    } catch {
        preconditionFailure("the transcoder's file does not decode: \(error)")
    }
    return 0
}

@_cdecl("FuzzJPEGTranscode_main")   // "<target name>_main": the symbol SwiftPM's `main` alias points to
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzOne)
}
