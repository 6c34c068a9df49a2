// libFuzzer target for the WebP decoder behind ImageSource (see ../../README.md).
//
// The decoding and the checks are FuzzGIF's (FuzzSupport), through a registry that holds only
// the WebP coder:
//  1. whole (`ImageSource(bytes:options:)`): every frame's image and canonical hash, the image
//     and frame properties, and a 32-pixel thumbnail of frame 0;
//  2. incrementally (`ImageSource(incremental:)` with `decodesImmediately`), fed in chunks of
//     1...4096 bytes whose sizes come from a hash of the input, asking for the last known
//     frame now and then while the data is still open.
// Any crash or sanitizer report is a finding, and so is a broken invariant (a trap). As for GIF
// (`.sameStatus`), an animation frame's pixel error is thrown by image(at:) for that frame only,
// so the frames carry the outcome:
//  - the same final bytes give the same status and the same `ImageSource.error`;
//    FUZZ_WEBP_STRICT_STATUS=0 turns the status check off;
//  - split independence: whenever both statuses are equal, the frame counts are equal and so is
//    each frame's canonical hash and `finalRowCount`; a frame that throws in one source must
//    throw in the other;
//  - when the source is `complete` and image(at: 0) succeeded, thumbnail(at: 0) does not fail.
// Mutations reach the RIFF/VP8X/ANIM/ANMF parsing, the VP8L, VP8 and ALPH decoders and the
// WebPAnimDecoder compositing.
// FUZZ_WEBP_VERBOSE=1 prints both outcomes (status, frame count, hashes) for each input run.
// No main.swift: SwiftPM links an executable target's entry point as `FuzzWebP_main`, which
// starts libFuzzer's driver (FUZZING.md in shared/, beside the project root).
import FuzzSupport
import ImageCodecs

/// FuzzGIF's settings (`FuzzTarget.animation`): 16 megapixels per canvas, 100 frames, SHA-256
/// up to 64 kilopixels and a word hash above, at most 16 megapixels hashed per decode.
private let target = FuzzTarget.animation(environmentPrefix: "FUZZ_WEBP", registry: CoderRegistry(coders: [WebPCoder()]))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    target.run(data, size)
}

@_cdecl("FuzzWebP_main")   // "<target name>_main": the symbol SwiftPM's `main` alias points to
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv, fuzzOne)
}
