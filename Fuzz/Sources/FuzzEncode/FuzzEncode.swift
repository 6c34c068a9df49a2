// libFuzzer target for the encoders behind ImageDestination (PNG and APNG).
//
// The input is read as a recipe: canvas size (small, or one side up to 4096 for odd shapes),
// frame count, 8 or 16 bits, how colourful (a few palette colours, grey, or free bytes), how
// alpha is used (opaque, 0/max, any), the options (effort, Adam7, loop count, first frame only),
// durations (0 up to 65535 cs) and, now and then, a frame of another size. The pixels come from
// the rest of the input. Checks, each a trap when broken:
//  - a frame of another size is refused with a typed error, and nothing else is refused;
//  - our decoder reads the file back to exactly the frames given (16-bit stills at 16 bits;
//    animations, which the decoder composites at 8 bits, at their high bytes), with the loop
//    count and the frame count.
// No main.swift: SwiftPM links the entry point as `FuzzEncode_main` (FUZZING.md).
#if canImport(Glibc)
import Glibc
#endif
import FuzzSupport
import ImageCodecs

/// The input as a stream of choices; past its end, zeros.
struct Recipe {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    mutating func byte() -> UInt8 {
        defer { position += 1 }
        return position < bytes.count ? bytes[position] : 0
    }

    mutating func below(_ n: Int) -> Int { n <= 1 ? 0 : Int(UInt16(byte()) << 8 | UInt16(byte())) % n }
}

/// One frame's pixels from the recipe.
func makeFrame(_ r: inout Recipe, width: Int, height: Int, wide: Bool, colours: Int, gray: Bool,
               alpha: Int, palette: [[UInt16]]) -> Raster {
    let count = width * height
    var samples = [UInt16](repeating: 0, count: count * 4)
    for i in 0..<count {
        var p: [UInt16]
        if colours > 0 {
            p = palette[r.below(colours)]
        } else {
            let v = wide ? UInt16(r.byte()) << 8 | UInt16(r.byte()) : UInt16(r.byte()) * 257
            p = gray ? [v, v, v, 0xFFFF] : [v, wide ? UInt16(r.byte()) << 8 | UInt16(r.byte()) : UInt16(r.byte()) * 257,
                                          wide ? UInt16(r.byte()) << 8 | UInt16(r.byte()) : UInt16(r.byte()) * 257, 0xFFFF]
            switch alpha {
            case 1: p[3] = r.byte() & 1 == 0 ? 0 : 0xFFFF
            case 2: p[3] = wide ? UInt16(r.byte()) << 8 | UInt16(r.byte()) : UInt16(r.byte()) * 257
            default: break
            }
        }
        for c in 0..<4 { samples[i * 4 + c] = p[c] }
    }
    if wide { return Raster(width: width, height: height, bytesPerPixel: 8, pixels: samples.withUnsafeBytes { Array($0) }) }
    return Raster(width: width, height: height, bytesPerPixel: 4, pixels: samples.map { UInt8($0 >> 8) })
}

/// FUZZ_ENCODE_VERBOSE=1 prints each recipe and leaves the last file written in
/// fuzz-encode-last.png.
let verbose = getenv("FUZZ_ENCODE_VERBOSE").map { String(cString: $0) == "1" } ?? false

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var r = Recipe(bytes: UnsafeBufferPointer(start: data, count: size))
    let shape = r.byte() % 8
    let width = shape == 0 ? 1 + r.below(4096) : 1 + r.below(40)
    let height = shape == 1 ? 1 + r.below(4096) : 1 + r.below(40)
    let frameCount = 1 + r.below(4)
    let wide = r.byte() & 1 == 1
    let colours = [0, 1, 2, 5, 16, 200, 0, 0][Int(r.byte() % 8)]
    let gray = r.byte() & 1 == 1
    let alpha = Int(r.byte() % 3)
    var options = EncodingOptions()
    options.effort = width * height * frameCount > 4096 ? Int(r.byte() % 8) : Int(r.byte() % 10)
    options.interlace = r.byte() & 1 == 1
    options.loopCount = r.below(70000) % 65536
    options.firstFrameOnly = r.byte() % 8 == 0
    let mixedAt = r.byte() % 4 == 0 && frameCount > 1 ? 1 + r.below(frameCount - 1) : nil
    var palette: [[UInt16]] = []
    for _ in 0..<max(colours, 1) {
        let v = UInt16(r.byte()) * 257
        let a: UInt16 = alpha == 0 ? 0xFFFF : alpha == 1 ? (r.byte() & 1 == 0 ? 0 : 0xFFFF) : UInt16(r.byte()) * 257
        palette.append(gray ? [v, v, v, a] : [v, UInt16(r.byte()) * 257, UInt16(r.byte()) * 257, a])
    }
    var frames: [Raster] = []
    var durations: [Duration] = []
    for k in 0..<frameCount {
        let w = k == mixedAt ? width + 1 : width
        frames.append(makeFrame(&r, width: w, height: height, wide: wide, colours: colours, gray: gray,
                                alpha: alpha, palette: palette))
        durations.append(.milliseconds(10 * r.below(65536)))
    }
    if verbose {
        let line = ("recipe: \(width)x\(height) frames \(frameCount) wide \(wide) colours \(colours) gray \(gray) alpha \(alpha)"
              + " effort \(options.effort) interlace \(options.interlace) loop \(options.loopCount ?? -1)"
              + " firstFrameOnly \(options.firstFrameOnly) mixedAt \(mixedAt ?? -1)\n")
        _ = line.withCString { write(2, $0, strlen($0)) }
    }
    do {
        let destination = try ImageDestination(format: .png, options: options)
        for (frame, duration) in zip(frames, durations) {
            try destination.add(EncodingFrame(raster: frame, duration: duration))
        }
        let bytes = try destination.finalize()
        if verbose, let f = fopen("fuzz-encode-last.png", "wb") {
            _ = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
            fclose(f)
        }
        let kept = options.firstFrameOnly ? [frames[0]] : frames
        verify(bytes, frames: kept, loopCount: options.loopCount ?? 0)
    } catch {
        let refusedMixed = mixedAt != nil && !options.firstFrameOnly
            && error == .invalidRequest("frames of an animation must have one size")
        if !refusedMixed { fatalError("refused a valid request: \(error)") }
    }
    return 0
}

/// Our decoder reads `bytes` back to `frames`.
func verify(_ bytes: [UInt8], frames: [Raster], loopCount: Int) {
    var options = DecodingOptions()
    options.prefersSixteenBitOutput = true
    let source = ImageSource(bytes: bytes, options: options)
    guard source.status == .complete, source.count == frames.count else {
        fatalError("decoded \(source.count) frames, status \(source.status), expected \(frames.count)")
    }
    if frames.count > 1, source.properties?.loopCount != loopCount { fatalError("loop count lost") }
    for (i, frame) in frames.enumerated() {
        guard let image = try? source.image(at: i) else { fatalError("frame \(i) does not decode") }
        var expected = frame.pixels
        if image.pixelFormat != .rgba16, frame.bytesPerPixel == 8 {
            let samples = frame.pixels.withUnsafeBytes { Array($0.bindMemory(to: UInt16.self)) }
            if frames.count == 1, samples.contains(where: { $0 >> 8 != $0 & 0xFF }) {
                fatalError("a 16-bit still lost its low bytes")
            }
            expected = samples.map { UInt8($0 >> 8) }
        }
        if image.pixels != expected { fatalError("frame \(i) differs") }
    }
}

@_cdecl("FuzzEncode_main")
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzOne)
}
