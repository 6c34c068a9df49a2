// libFuzzer target for the ICC profile parser and the colour transform (CodecCore/Color).
//
// The input is a profile. It is parsed (header, tag table, description); when a transform can
// be built from it, the transform converts a fixed RGBA8 row, a fixed RGBA16 row and, for
// CMYK profiles, a row of ink. Any crash or sanitizer report is a finding, and so is a broken
// invariant (a trap): the conversion never changes alpha. Building a transform for the same
// bytes twice must give the same pixels (the cache hands back the first).
// No main.swift: SwiftPM links the entry point as `FuzzICC_main` (FUZZING.md in shared/).
import FuzzSupport
import ImageCodecs

/// Rows that cover the code range: 64 pixels of RGBA8 and of RGBA16.
private let row8: [UInt8] = (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }
private let row16: [UInt8] = (0..<512).map { UInt8(truncatingIfNeeded: $0 &* 91 &+ 7) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let profile = try? ICCProfile(bytes: bytes) else { return 0 }
    _ = profile.profileDescription
    guard case .success(let transform) = ColorTransform.cached(profile: bytes) else { return 0 }
    if transform.inputChannelCount == 4 {
        var ink = row8
        ink.withUnsafeMutableBufferPointer { transform.convertInk($0.baseAddress!, count: 64) }
        for i in stride(from: 3, to: ink.count, by: 4) where ink[i] != 255 { fatalError("ink conversion left alpha") }
        return 0
    }
    var narrow = Raster(width: 8, height: 8, bytesPerPixel: 4, pixels: row8)
    transform.apply(to: &narrow)
    var wide = Raster(width: 8, height: 8, bytesPerPixel: 8, pixels: row16)
    transform.apply(to: &wide)
    for i in stride(from: 3, to: 256, by: 4) where narrow.pixels[i] != row8[i] { fatalError("alpha changed") }
    var again = Raster(width: 8, height: 8, bytesPerPixel: 4, pixels: row8)
    if case .success(let second) = ColorTransform.cached(profile: bytes) { second.apply(to: &again) }
    if again.pixels != narrow.pixels { fatalError("the same profile converted differently") }
    return 0
}

@_cdecl("FuzzICC_main")   // "<target name>_main": the symbol SwiftPM's `main` alias points to
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzOne)
}
