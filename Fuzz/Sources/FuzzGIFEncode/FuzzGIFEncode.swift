// libFuzzer target for the GIF encoder (see ../../README.md): the input is read as a request,
// not as a file. Its first bytes pick the canvas (1...64 × 1...64, or 1×N and N×1 strips up to
// 4096), the frame count (1...6), dithering, interlacing, the loop count and each frame's
// duration (0...70000 cs, past the 65535 cap); the rest are the pixels, read cyclically, either
// as indices into a palette of 2...300 colours that the input also gives (alpha from a byte, so
// thresholds and transparent runs come up) or as raw RGBA. The frames are encoded through
// `ImageDestination(format: .gif)` and decoded by our decoder. Findings (a trap):
//  - a request the encoder refuses (every request here is valid);
//  - a file our decoder does not read completely, or with another frame count or size;
//  - a frame of at most 256 colours (after the alpha threshold) that does not come back exactly;
//  - a delay other than the duration rounded to centiseconds and capped at 65535.
// No main.swift: SwiftPM links an executable target's entry point as `FuzzGIFEncode_main`.
import FuzzSupport
import ImageCodecs

private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    mutating func next() -> Int {
        guard !bytes.isEmpty else { return 0 }
        defer { position += 1 }
        return Int(bytes[position % bytes.count])
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size >= 8 else { return 0 }
    var r = Reader(bytes: UnsafeBufferPointer(start: data, count: size))
    let shape = r.next()
    var width = 1 + r.next() % 64, height = 1 + r.next() % 64
    if shape % 16 == 0 { width = 1; height = 1 + (r.next() << 4 | r.next()) % 4096 }
    if shape % 16 == 1 { height = 1; width = 1 + (r.next() << 4 | r.next()) % 4096 }
    let frameCount = 1 + r.next() % 6
    let flags = r.next()
    var options = EncodingOptions()
    options.dithering = flags & 1 != 0
    options.interlace = flags & 2 != 0
    options.loopCount = flags & 4 != 0 ? r.next() << 8 | r.next() : nil
    let paletteSize = flags & 8 != 0 ? 2 + (r.next() << 8 | r.next()) % 299 : 0
    var palette: [[UInt8]] = []
    for _ in 0..<paletteSize { palette.append([UInt8(r.next()), UInt8(r.next()), UInt8(r.next()), UInt8(r.next())]) }

    var frames: [[UInt8]] = []
    var durations: [Int] = []
    do {
        let destination = try ImageDestination(format: .gif, options: options)
        for _ in 0..<frameCount {
            let cs = (r.next() << 8 | r.next()) * 70000 / 65536
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            var i = 0
            while i < pixels.count {
                if paletteSize > 0 {
                    let c = palette[r.next() % paletteSize]
                    let run = 1 + r.next() % 8
                    for _ in 0..<run where i < pixels.count {
                        pixels[i] = c[0]; pixels[i + 1] = c[1]; pixels[i + 2] = c[2]; pixels[i + 3] = c[3]
                        i += 4
                    }
                } else {
                    pixels[i] = UInt8(r.next()); pixels[i + 1] = UInt8(r.next())
                    pixels[i + 2] = UInt8(r.next()); pixels[i + 3] = UInt8(r.next())
                    i += 4
                }
            }
            frames.append(pixels)
            durations.append(cs)
            let raster = Raster(width: width, height: height, bytesPerPixel: 4, pixels: pixels)
            try destination.add(EncodingFrame(raster: raster, duration: .milliseconds(cs * 10)))
        }
        let file = try destination.finalize()
        let source = ImageSource(bytes: file)
        guard source.status == .complete, source.count == frameCount,
              source.properties?.width == width, source.properties?.height == height else {
            fatalError("our decoder does not read the file back: \(source.status) \(source.count) frames")
        }
        for k in 0..<frameCount {
            let image = try source.image(at: k).rgba8Raster().pixels
            let want = thresholded(frames[k])
            if colourCount(want) <= 256 && image != want { fatalError("frame \(k) of at most 256 colours changed") }
            if frameCount > 1, source.properties(at: k)?.unclampedDuration != Double(min(durations[k], 65535)) / 100 {
                fatalError("frame \(k) delay")
            }
        }
    } catch {
        fatalError("refused: \(error)")
    }
    return 0
}

/// What a GIF holds of RGBA8 pixels: alpha below 128 transparent black, the rest opaque.
private func thresholded(_ pixels: [UInt8]) -> [UInt8] {
    var out = pixels
    for i in stride(from: 0, to: out.count, by: 4) {
        if out[i + 3] < 128 {
            out[i] = 0; out[i + 1] = 0; out[i + 2] = 0; out[i + 3] = 0
        } else {
            out[i + 3] = 255
        }
    }
    return out
}

private func colourCount(_ pixels: [UInt8]) -> Int {
    var seen = Set<UInt32>()
    for i in stride(from: 0, to: pixels.count, by: 4) {
        seen.insert(UInt32(pixels[i]) | UInt32(pixels[i + 1]) << 8 | UInt32(pixels[i + 2]) << 16 | UInt32(pixels[i + 3]) << 24)
        if seen.count > 256 { break }
    }
    return seen.count
}

@_cdecl("FuzzGIFEncode_main")   // "<target name>_main": the symbol SwiftPM's `main` alias points to
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzOne)
}
