// libFuzzer target for the JPEG decoder behind ImageSource (see ../../README.md).
//
// The decoding and the checks are FuzzGIF's (FuzzSupport), through a registry that decodes
// only JPEG:
//  1. whole (`ImageSource(bytes:options:)`): the image and its canonical hash, the image and
//     frame properties, and a 32-pixel thumbnail;
//  2. incrementally (`ImageSource(incremental:)` with `decodesImmediately`), fed in chunks of
//     1...4096 bytes whose sizes come from a hash of the input, asking for the image now and
//     then while the data is still open (a progressive file shows a partial image per scan).
// Each decode runs on 1...4 threads picked from a hash of the input (FuzzSupport), so the row
// pipeline, restart intervals in bands and scans decoded at once meet hostile input too.
// Any crash or sanitizer report is a finding, and so is a broken invariant (a trap). As for
// GIF, the outcomes are compared with `.sameStatus`: a truncated or corrupt JPEG still has rows
// decoded before the damage, so `unexpectedEOF` and `invalidData` sources are compared too:
//  - the same final bytes give the same status (exactly), and the same `ImageSource.error`;
//    FUZZ_JPEG_STRICT_STATUS=0 turns the status check off;
//  - split independence: whenever both statuses are equal, the frame counts are equal and so is
//    the image's canonical hash and `finalRowCount`; an image that throws in one source must
//    throw in the other;
//  - when the source is `complete` and image(at: 0) succeeded, thumbnail(at: 0) of a fresh source
//    (the DCT-domain thumbnail: a scaled IDCT, then the resampler) does not fail, has the
//    fitted size and is complete.
// FUZZ_JPEG_VERBOSE=1 prints both outcomes (status, frame count, hashes) for each input run.
// The registry enables only the JPEG format among the built-in coders, so the target needs no
// change when the JPEG coder joins `CoderRegistry.standard`; until it does, every input is
// `unknownType` and nothing is decoded.
// No main.swift: SwiftPM links an executable target's entry point as `FuzzJPEG_main`, which
// starts libFuzzer's driver (FUZZING.md in shared/, beside the project root).
import FuzzSupport
import ImageCodecs

/// Small limits, so the fuzzer spends its time on logic, not on allocating: 16 megapixels (a
/// 2 KB file can declare 65535x65535), 100 scans (a progressive file may repeat scans without
/// end; libjpeg-turbo's djpeg defaults to no limit, its fuzzers to 500), 1 MB of metadata (ICC
/// chunks). SHA-256 up to 64 kilopixels, a word hash above, as for GIF (SHA-256 under the
/// fuzzer's comparison tracing takes seconds on large images).
private let target = FuzzTarget(
    environmentPrefix: "FUZZ_JPEG",
    limits: Limits(maxPixels: 1 << 24, maxFrames: 100, maxBytesHeld: 256 << 20, maxMetadataBytes: 1 << 20,
                   maxJPEGScans: 100),
    registry: jpegOnly(),
    comparison: .sameStatus,
    sha256MaxPixels: 1 << 16,
    hashBudgetPixels: 1 << 24,
    thumbnails: .ownScale)

/// The built-in coders with only the JPEG format enabled.
private func jpegOnly() -> CoderRegistry {
    var registry = CoderRegistry.standard
    registry.enabledFormats = [.jpeg]
    return registry
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    target.run(data, size)
}

@_cdecl("FuzzJPEG_main")   // "<target name>_main": the symbol SwiftPM's `main` alias points to
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzOne)
}
