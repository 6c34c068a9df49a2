// libFuzzer target for the GIF decoder behind ImageSource (see ../../README.md).
//
// The decoding and the checks are FuzzPNG's (FuzzSupport), through a registry that holds only
// the GIF coder:
//  1. whole (`ImageSource(bytes:options:)`): every frame's image and canonical hash, the image
//     and frame properties, and a 32-pixel thumbnail of frame 0;
//  2. incrementally (`ImageSource(incremental:)` with `decodesImmediately`), fed in chunks of
//     1...4096 bytes whose sizes come from a hash of the input, asking for the last known
//     frame now and then while the data is still open.
// Any crash or sanitizer report is a finding, and so is a broken invariant (a trap). GIF
// compares more than PNG (`.sameStatus`), because every GIF frame is an animation frame: an
// LZW error is thrown by image(at:) for its frame only and the source stays `complete`, so
// the frames, not the status, carry most of the outcome:
//  - the same final bytes give the same status (exactly, not only `complete` or not), and the
//    same `ImageSource.error`; FUZZ_GIF_STRICT_STATUS=0 turns the status check off;
//  - split independence: whenever both statuses are equal (`unexpectedEOF` included), the frame
//    counts are equal and so is each frame's canonical hash and `finalRowCount`; a frame that
//    throws in one source must throw in the other;
//  - when the source is `complete` and image(at: 0) succeeded, thumbnail(at: 0) does not fail.
// FUZZ_GIF_VERBOSE=1 prints both outcomes (status, frame count, hashes) for each input run.
// No main.swift: SwiftPM links an executable target's entry point as `FuzzGIF_main`, which
// starts libFuzzer's driver (FUZZING.md in shared/, beside the project root).
import FuzzSupport
import ImageCodecs

/// FuzzPNG's limits (`FuzzTarget.animation`). Every GIF frame is the whole logical screen, and a
/// 2 KB file can hold 100 one-pixel images on a 16-megapixel screen: hashing 200 such canvases
/// took 192 s. So images above 64 kilopixels get the word hash instead of SHA-256, and each
/// decode hashes at most 16 megapixels in all (frames past that are compared by size and final
/// rows only).
private let target = FuzzTarget.animation(environmentPrefix: "FUZZ_GIF", registry: CoderRegistry(coders: [GIFCoder()]))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    target.run(data, size)
}

@_cdecl("FuzzGIF_main")   // "<target name>_main": the symbol SwiftPM's `main` alias points to
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzOne)
}
