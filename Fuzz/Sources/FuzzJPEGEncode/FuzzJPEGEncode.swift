// libFuzzer target for the JPEG encoder behind ImageDestination (see ../../README.md).
//
// The input's first 8 bytes choose the request: width and height 1...64 (or, one time in 64, a
// side of 1 and the other up to 2048), quality 0...1 in steps of 0.01 (cjpeg's 0...100), luma
// sampling factors 1...4 each (some give more than 10 blocks per MCU: a typed error), gray output,
// optimized tables, progressive scans, a restart interval (none, rows or MCUs), and a maximum
// file size; the rest of the input, cycled, is the RGBA8 pixels. The request must either fail
// with an EncodingError or give a file that our decoder reads completely, at the size asked for.
// Any crash or sanitizer report is a finding, and so is a broken invariant (a trap).
// No main.swift: SwiftPM links an executable target's entry point as `FuzzJPEGEncode_main`.
import FuzzSupport
import ImageCodecs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 8 else { return 0 }
    let b = UnsafeBufferPointer(start: data, count: size)
    var width = Int(b[0] & 63) + 1, height = Int(b[1] & 63) + 1
    if b[0] >> 6 == 3 && b[1] >> 6 == 3 {
        (width, height) = b[2] & 1 == 0 ? (1, Int(b[3]) * 8 + 1) : (Int(b[3]) * 8 + 1, 1)
    }
    var options = EncodingOptions()
    options.quality = Double(min(Int(b[2] >> 1), 100)) / 100
    options.chromaSubsampling = SamplingFactors(horizontal: Int(b[4] & 3) + 1, vertical: Int(b[4] >> 2 & 3) + 1)
    options.grayscale = b[4] & 0x10 != 0
    options.optimizeCoding = b[4] & 0x20 != 0
    options.progressive = b[4] & 0x40 != 0
    switch b[5] & 3 {
    case 1: options.restartInterval = .rows(Int(b[5] >> 2))
    case 2: options.restartInterval = .blocks(Int(b[5] >> 2))
    default: break
    }
    if b[6] & 1 != 0 { options.maxFileSize = Int(b[7]) * 16 + 1 }
    options.backgroundColor = RGBA8(r: b[6], g: b[7], b: b[3])
    let pixels = (0..<(width * height * 4)).map { size > 8 ? b[8 + $0 % (size - 8)] : 0 }
    do {
        let destination = try ImageDestination(format: .jpeg, options: options)
        try destination.add(EncodingFrame(raster: Raster(width: width, height: height, bytesPerPixel: 4, pixels: pixels)))
        let file = try destination.finalize()
        let source = ImageSource(bytes: file)
        let image = try source.image(at: 0)
        precondition(source.status == .complete && image.width == width && image.height == height,
                     "the encoder's file does not decode to the size asked for")
    } catch let error as EncodingError {
        _ = error
    } catch {
        preconditionFailure("the encoder's file does not decode: \(error)")
    }
    return 0
}

@_cdecl("FuzzJPEGEncode_main")   // "<target name>_main": the symbol SwiftPM's `main` alias points to
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzOne)
}
