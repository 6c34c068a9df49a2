// libFuzzer target for the PNG/APNG decoder behind ImageSource (see ../../README.md).
//
// The decoding and the checks are shared with the other targets (FuzzSupport); each decode runs
// at a `maxThreads` of 1, 2, 3 or 8 picked from the input, so a large image's rows also go
// through the decoder's second thread:
//  1. whole (`ImageSource(bytes:options:)`): every frame's image and canonical hash, the image
//     and frame properties, and a 32-pixel thumbnail of frame 0;
//  2. incrementally (`ImageSource(incremental:)` with `decodesImmediately`), fed in chunks of
//     1...4096 bytes whose sizes come from a hash of the input, asking for the last known
//     frame now and then while the data is still open.
// Any crash or sanitizer report is a finding, and so is a broken invariant (a trap):
//  - split independence: when both sources end `complete`, their frame counts and every frame's
//    canonical hash are equal;
//  - the same final bytes give the same verdict: one source `complete` and the other not is a
//    split dependence too (set FUZZ_PNG_STRICT_STATUS=0 to turn this check off);
//  - when the source is `complete` and image(at: 0) succeeded, thumbnail(at: 0) does not fail.
// FUZZ_PNG_VERBOSE=1 prints both outcomes (status, frame count, hashes) for each input run.
// No main.swift: SwiftPM links an executable target's entry point as `FuzzPNG_main`, which
// starts libFuzzer's driver (FUZZING.md in shared/, beside the project root).
import FuzzSupport
import ImageCodecs

/// Small limits, so that the fuzzer spends its time on logic; CRC-32 and Adler-32 ignored.
/// Images above a megapixel are hashed with a word hash instead of SHA-256 (finding 4).
private let target = FuzzTarget(
    environmentPrefix: "FUZZ_PNG",
    limits: Limits(maxPixels: 1 << 24, maxFrames: 100, maxBytesHeld: 256 << 20, maxMetadataBytes: 1 << 20),
    registry: .standard,
    comparison: .completeOnly,
    sha256MaxPixels: 1 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    target.run(data, size)
}

@_cdecl("FuzzPNG_main")   // "<target name>_main": the symbol SwiftPM's `main` alias points to
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzOne)
}
