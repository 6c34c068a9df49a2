// libFuzzer target for the WebP encoders behind ImageDestination (see ../../README.md).
//
// The input's first 8 bytes choose the request: width and height 1...48 (or, one time in 16, a
// side of 1 and the other up to 4081), 1...4 frames, effort 0...9, exact or not, a loop count,
// how colourful the pixels are (free bytes, or 1, 2, 3, 5, 16, 17, 200 or 300 colours, each a
// run of the input's bytes) and how alpha is used (opaque, 0 or 255, any); the rest of the
// input, cycled, picks the pixels; frames after the first change a rectangle of the one before.
// Checks, each a trap when broken: nothing valid is refused; our decoder reads the file back
// completely, with the loop count, and every frame it shows is one of the frames given, in
// order (a frame equal to the one before is merged into it), canonically (a pixel of alpha 0
// compares as 0,0,0,0; with `exact`, every byte).
// Bit 0x20 of the third byte asks for lossy (VP8) frames instead, with a quality from the seventh
// byte, mixed frames (the smaller of VP8 and VP8L) when bit 0x40 of the fifth is set, and an
// alpha quality below 1 when the sixth byte is odd: then every frame must decode completely with
// the size given and, at alpha quality 1, the alpha given. Bit 0x04 of the eighth byte asks for
// spatial noise shaping (segments) of strength `(byte >> 3) / 31`.
// No main.swift: SwiftPM links an executable target's entry point as `FuzzWebPEncode_main`.
#if canImport(Glibc)
import Glibc
#endif
import FuzzSupport
import ImageCodecs

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 8 else { return 0 }
    let b = UnsafeBufferPointer(start: data, count: size)
    var width = Int(b[0] % 48) + 1, height = Int(b[1] % 48) + 1
    if b[2] & 0x0F == 0 {
        let long = Int(b[3]) * 16 + 1
        (width, height) = b[2] & 0x10 == 0 ? (1, long) : (long, 1)
    }
    let frameCount = Int(b[2] >> 6) + 1
    var options = EncodingOptions()
    let lossy = b[2] & 0x20 != 0
    options.lossless = !lossy
    options.mixed = b[4] & 0x40 != 0
    options.quality = Double(b[6]) / 255
    options.alphaQuality = b[5] & 1 == 0 ? 1 : Double(b[5]) / 255
    options.effort = Int(b[4] % 10)
    options.noiseShaping = b[7] & 0x04 == 0 ? 0 : Double(b[7] >> 3) / 31
    options.exact = b[4] & 0x80 != 0
    options.loopCount = Int(b[5])
    let colours = [0, 1, 2, 3, 5, 16, 17, 200, 300, 0][Int(b[6] % 10)]
    let alphaMode = Int(b[7] % 3)
    let pixelBytes = UnsafeBufferPointer(rebasing: b[8...])
    var cursor = 0
    func next() -> UInt8 {
        guard !pixelBytes.isEmpty else { return 0 }
        defer { cursor += 1 }
        return pixelBytes[cursor % pixelBytes.count]
    }
    let palette: [[UInt8]] = (0..<max(colours, 1)).map { k in
        [UInt8(truncatingIfNeeded: k &* 37), next(), next(), alphaMode == 0 ? 255 : alphaMode == 1 ? (k & 1 == 0 ? 0 : 255) : next()]
    }
    func pixel() -> [UInt8] {
        if colours > 0 { return palette[Int(next()) % colours] }
        let a: UInt8 = alphaMode == 0 ? 255 : alphaMode == 1 ? (next() & 1 == 0 ? 0 : 255) : next()
        return [next(), next(), next(), a]
    }
    var frames: [[UInt8]] = []
    var first = [UInt8]()
    first.reserveCapacity(width * height * 4)
    for _ in 0..<(width * height) { first += pixel() }
    frames.append(first)
    for _ in 1..<frameCount {
        var f = frames[frames.count - 1]
        let x0 = Int(next()) % width, y0 = Int(next()) % height
        let x1 = min(width, x0 + 1 + Int(next()) % width), y1 = min(height, y0 + 1 + Int(next()) % height)
        for y in y0..<y1 {
            for x in x0..<x1 {
                let p = pixel()
                for c in 0..<4 { f[(y * width + x) * 4 + c] = p[c] }
            }
        }
        frames.append(f)
    }
    do {
        let destination = try ImageDestination(format: .webp, options: options)
        for f in frames {
            try destination.add(EncodingFrame(raster: Raster(width: width, height: height, bytesPerPixel: 4, pixels: f),
                                              duration: .milliseconds(50)))
        }
        let file = try destination.finalize()
        if lossy {
            verifyLossy(file, frames: frames, alphaIsExact: options.alphaQuality == 1)
        } else {
            verify(file, frames: frames, exact: options.exact, loopCount: options.loopCount ?? 0)
        }
    } catch {
        fatalError("refused a valid request: \(error)")
    }
    return 0
}

/// A pixel of alpha 0 as 0,0,0,0 (unless `exact`).
func canonical(_ pixels: [UInt8], exact: Bool) -> [UInt8] {
    guard !exact else { return pixels }
    var out = pixels
    for i in stride(from: 0, to: out.count, by: 4) where out[i + 3] == 0 {
        out[i] = 0; out[i + 1] = 0; out[i + 2] = 0
    }
    return out
}

/// Our decoder reads `file` back to `frames` (consecutive equal frames merged).
func verify(_ file: [UInt8], frames: [[UInt8]], exact: Bool, loopCount: Int) {
    let source = ImageSource(bytes: file)
    guard source.status == .complete, source.count >= 1 else { fatalError("our file does not decode") }
    if frames.count > 1, source.properties?.loopCount != loopCount { fatalError("loop count lost") }
    var expected: [[UInt8]] = []
    for f in frames.map({ canonical($0, exact: exact) }) where expected.last != f { expected.append(f) }
    // A still of one frame is written even when several equal frames were given.
    guard source.count == expected.count else { fatalError("decoded \(source.count) frames, expected \(expected.count)") }
    for i in 0..<source.count {
        guard let image = try? source.image(at: i) else { fatalError("frame \(i) does not decode") }
        let got = canonical(image.rgba8Raster().pixels, exact: exact)
        let equal = got.count == expected[i].count && got.withUnsafeBytes { a in
            expected[i].withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
        if !equal { fatalError("frame \(i) differs") }
    }
}

/// Our decoder reads a lossy `file` back: frames of the size given (at most as many as given), and
/// with `alphaIsExact` each frame's alpha that of a frame given.
func verifyLossy(_ file: [UInt8], frames: [[UInt8]], alphaIsExact: Bool) {
    let source = ImageSource(bytes: file)
    guard source.status == .complete, source.count >= 1, source.count <= frames.count else {
        fatalError("our lossy file does not decode")
    }
    let alphas = frames.map { f in stride(from: 3, to: f.count, by: 4).map { f[$0] } }
    for i in 0..<source.count {
        guard let image = try? source.image(at: i) else { fatalError("lossy frame \(i) does not decode") }
        let got = image.rgba8Raster().pixels
        guard got.count == frames[0].count else { fatalError("lossy frame \(i) has another size") }
        if alphaIsExact && !alphas.contains(stride(from: 3, to: got.count, by: 4).map { got[$0] }) {
            fatalError("lossy frame \(i): alpha differs")
        }
    }
}

@_cdecl("FuzzWebPEncode_main")   // "<target name>_main": the symbol SwiftPM's `main` alias points to
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzOne)
}
