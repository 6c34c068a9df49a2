// libFuzzer target for the PNG/APNG decoder behind ImageSource (see ../../README.md).
//
// Each input is decoded twice:
//  1. whole (`ImageSource(bytes:options:)`): every frame's image and canonical hash, the image
//     and frame properties, and a 32-pixel thumbnail of frame 0;
//  2. incrementally (`ImageSource(incremental:)` with `decodesImmediately`), fed in chunks of
//     1...4096 bytes whose sizes come from a hash of the input, asking for the last known
//     frame now and then while the data is still open.
// Any crash or sanitizer report is a finding, and so is a broken invariant (a trap here):
//  - split independence: when both sources end `complete`, their frame counts and every frame's
//    canonical hash are equal;
//  - the same final bytes give the same verdict: one source `complete` and the other not is a
//    split dependence too (set FUZZ_PNG_STRICT_STATUS=0 to turn this check off);
//  - when the source is `complete` and image(at: 0) succeeded, thumbnail(at: 0) does not fail.
// FUZZ_PNG_VERBOSE=1 prints both outcomes (status, frame count, hashes) for each input run.
// No main.swift: SwiftPM links an executable target's entry point as `FuzzPNG_main`, which
// starts libFuzzer's driver (FUZZING.md in shared/, beside the project root).
import ImageCodecs

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Small limits, so that the fuzzer spends its time on logic, not on allocating.
private func fuzzOptions(immediate: Bool) -> DecodingOptions {
    var options = DecodingOptions()
    options.limits = Limits(maxPixels: 1 << 24, maxFrames: 100, maxBytesHeld: 256 << 20,
                            maxMetadataBytes: 1 << 20)
    options.ignoresChecksums = true
    options.decodesImmediately = immediate
    return options
}

/// What one way of decoding made of the input.
private struct Outcome {
    var status: ImageSourceStatus
    var count: Int
    /// Canonical hash of each frame, nil where `image(at:)` threw.
    var hashes: [String?]
    /// What `image(at:)` threw for each frame, nil where it did not.
    var frameErrors: [DecodingError?]
    /// The error that stopped decoding, if any (`ImageSource.error`).
    var error: DecodingError?

    /// One word per frame, for FUZZ_PNG_VERBOSE.
    var frameDescriptions: [String] {
        zip(hashes, frameErrors).map { hash, error in hash ?? "threw \(error.map { "\($0)" } ?? "?")" }
    }
}

/// The canonical hash of `image`: `CanonicalHash.hex` (SHA-256) up to a megapixel; above that a
/// 128-bit word hash of the same canonical bytes, because SHA-256 under the fuzzer's comparison
/// tracing takes seconds for the 16-megapixel images the limits allow (a 44-byte input took 7.8 s).
/// Both sources go through this function, so their digests stay comparable.
private func frameDigest(_ image: DecodedImage) -> String {
    if image.width * image.height <= 1 << 20 { return CanonicalHash.hex(image) }
    let bytes = CanonicalHash.canonicalBytes(image)
    var a: UInt64 = 0x243F_6A88_85A3_08D3 ^ UInt64(bytes.count), b: UInt64 = 0x1319_8A2E_0370_7344
    bytes.withUnsafeBytes { raw in
        let words = raw.count / 8
        var i = 0
        while i < words {
            let w = raw.loadUnaligned(fromByteOffset: i &* 8, as: UInt64.self)
            a = (a ^ w) &* 0x9E37_79B9_7F4A_7C15
            a ^= a >> 29
            b = (b &+ w) &* 0xC2B2_AE3D_27D4_EB4F
            b ^= b >> 31
            i &+= 1
        }
        var j = words &* 8
        while j < raw.count {
            a = (a ^ UInt64(raw[j])) &* 0x9E37_79B9_7F4A_7C15
            j &+= 1
        }
    }
    return "\(image.width)x\(image.height):" + String(a, radix: 16) + "-" + String(b, radix: 16)
}

/// Every frame's canonical hash (nil where `image(at:)` threw) and error, in order.
private func hashFrames(_ source: ImageSource) -> (hashes: [String?], errors: [DecodingError?]) {
    var hashes: [String?] = [], errors: [DecodingError?] = []
    let count = source.count
    hashes.reserveCapacity(count)
    errors.reserveCapacity(count)
    for index in 0..<count {
        do {
            let image = try source.image(at: index)
            hashes.append(frameDigest(image))
            errors.append(nil)
        } catch {
            hashes.append(nil)
            errors.append(error)
        }
    }
    return (hashes, errors)
}

/// SplitMix64: a small deterministic generator seeded from the input.
private struct SplitMix64 {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// FNV-1a over the input, the seed of the chunk sizes.
private func fnv1a(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var h: UInt64 = 0xCBF2_9CE4_8422_2325
    for b in bytes { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
    return h
}

private let strictStatus: Bool = {
    guard let value = getenv("FUZZ_PNG_STRICT_STATUS") else { return true }
    return String(cString: value) != "0"
}()

/// Decodes `bytes` whole.
private func decodeWhole(_ bytes: UnsafeBufferPointer<UInt8>) -> (Outcome, thumbnailError: DecodingError?) {
    let source = ImageSource(bytes: bytes, options: fuzzOptions(immediate: false))
    let (hashes, errors) = hashFrames(source)
    let count = source.count
    _ = source.properties
    for index in -1...count { _ = source.properties(at: index) }
    _ = source.status(at: 0)
    let status = source.status
    var thumbnailError: DecodingError?
    do {
        _ = try source.thumbnail(at: 0, maxPixelSize: 32)
    } catch {
        thumbnailError = error
    }
    return (Outcome(status: status, count: count, hashes: hashes, frameErrors: errors, error: source.error),
            thumbnailError)
}

/// Decodes `bytes` fed in chunks of 1...4096 bytes drawn from a hash of the input.
private func decodeChunked(_ bytes: UnsafeBufferPointer<UInt8>) -> Outcome {
    let source = ImageSource(incremental: fuzzOptions(immediate: true))
    var rng = SplitMix64(state: fnv1a(bytes))
    var offset = 0
    var midStreamRequests = 0
    if bytes.isEmpty { source.append(EmptyCollection<UInt8>(), final: true) }
    while offset < bytes.count {
        // Log-uniform sizes: small chunks (the interesting splits) are as likely as large ones.
        let bits = Int(rng.next() % 13)                         // 0...12
        let size = 1 + Int(rng.next() % (UInt64(1) << UInt64(bits)))   // 1...4096
        let end = min(bytes.count, offset + size)
        source.append(bytes[offset..<end], final: end == bytes.count)
        offset = end
        // Now and then, a partial image of the last frame known so far (bounded, to stay fast).
        if offset < bytes.count, midStreamRequests < 8, rng.next() % 4 == 0 {
            midStreamRequests += 1
            _ = source.status
            let count = source.count
            if count > 0 { _ = try? source.image(at: count - 1) }
        }
    }
    let (hashes, errors) = hashFrames(source)
    return Outcome(status: source.status, count: source.count, hashes: hashes, frameErrors: errors,
                   error: source.error)
}

private let verbose: Bool = getenv("FUZZ_PNG_VERBOSE").map { String(cString: $0) != "0" } ?? false

/// Writes `line` to stderr at once (no buffering, so it comes out before a trap).
private func note(_ line: String) {
    var line = line
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOne(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let (whole, thumbnailError) = decodeWhole(bytes)
    let chunked = decodeChunked(bytes)
    if verbose {
        note("whole: \(whole.status) \(whole.count) frames \(whole.frameDescriptions)"
            + (whole.error.map { " error: \($0)" } ?? "")
            + (thumbnailError.map { " thumbnail: \($0)" } ?? "") + "\n")
        note("chunked: \(chunked.status) \(chunked.count) frames \(chunked.frameDescriptions)"
            + (chunked.error.map { " error: \($0)" } ?? "") + "\n")
    }

    // Frame 0 decoded whole and the source is complete: its thumbnail must not fail.
    if whole.status == .complete, whole.hashes.first.flatMap({ $0 }) != nil, let thumbnailError {
        fatalError("thumbnail(at: 0, maxPixelSize: 32) threw \(thumbnailError), but image(at: 0) of the complete source did not")
    }

    if whole.status == .complete, chunked.status == .complete {
        if whole.count != chunked.count {
            fatalError("split dependence: \(whole.count) frames whole, \(chunked.count) fed in chunks")
        }
        for index in 0..<min(whole.hashes.count, chunked.hashes.count)
        where whole.hashes[index] != chunked.hashes[index] {
            fatalError("split dependence: frame \(index) hash \(whole.hashes[index] ?? "threw") whole, "
                + "\(chunked.hashes[index] ?? "threw") fed in chunks")
        }
    } else if strictStatus, (whole.status == .complete) != (chunked.status == .complete) {
        fatalError("split dependence: status \(whole.status) whole (\(whole.count) frames), "
            + "\(chunked.status) fed in chunks (\(chunked.count) frames)")
    }
    return 0
}

typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>, Int) -> CInt

@_silgen_name("LLVMFuzzerRunDriver")
func runDriver(_ argc: UnsafeMutablePointer<CInt>,
               _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
               _ body: TestOneInput) -> CInt

@_cdecl("FuzzPNG_main")   // "<target name>_main": the symbol SwiftPM's `main` alias points to
public func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var c = argc, v = argv
    return runDriver(&c, &v, fuzzOne)
}
