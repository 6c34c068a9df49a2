// What the libFuzzer targets share (see ../../README.md): decode an input whole and again fed
// in chunks through ImageSource, check the invariants, and start libFuzzer's driver.
//
// Each target (FuzzPNG, FuzzGIF) describes itself with a `FuzzTarget` and keeps only the two
// symbols that must live in its executable: `LLVMFuzzerTestOneInput` (which calls
// `FuzzTarget.run`) and `<Target>_main` (which calls `runLibFuzzer`).
//
// Each input is decoded twice, each at a `maxThreads` of 1, 2, 3 or 8 picked from a hash of
// the input (so the two often differ), both with the same `colorSpace`, `.sRGB` for half the
// inputs (another bit of the hash: the conversion through a mutated embedded profile, on every
// path a decode takes, thumbnails included):
//  1. whole (`ImageSource(bytes:options:)`): every frame's image and canonical hash, the image
//     and frame properties, the raw (uncomposited) frames of the first 16 frames, and a
//     32-pixel thumbnail of frame 0;
//  2. incrementally (`ImageSource(incremental:)` with `decodesImmediately`), fed in chunks of
//     1...4096 bytes whose sizes come from a hash of the input, asking for the last known
//     frame, composed and raw, now and then while the data is still open.
// Any crash or sanitizer report is a finding, and so is a broken invariant (a trap here):
//  - split independence: when both sources end in a status the target compares (`complete`
//    for every target; `FuzzTarget.Comparison.sameStatus` adds the other final statuses),
//    their frame counts and every frame's canonical hash are equal (a frame that throws in one
//    source and decodes in the other breaks it too);
//  - the same final bytes give the same verdict (`complete` or not; the exact status with
//    `.sameStatus`); <PREFIX>_STRICT_STATUS=0 turns this check off;
//  - when the source is `complete` and image(at: 0) succeeded, thumbnail(at: 0) of a fresh source
//    (the streaming shrink: rows, Adam7 passes and GIF rows shrunk as they are decoded) does
//    not fail, and equals image(at: 0) shrunk by the same resampler (`Thumbnails.shrunkImage`),
//    or (`Thumbnails.ownScale`: JPEG's DCT-domain thumbnails, rendered at a reduced scale first,
//    whichever target's registry reached the JPEG decoder; and every format's with `.sRGB`,
//    converted after shrinking) has the fitted size and is complete when image(at: 0) is;
//  - a raw frame that decodes has its frame rectangle's size.
// <PREFIX>_VERBOSE=1 prints both outcomes (status, frame count, hashes) for each input run.
import ImageCodecs

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One fuzz target: the options it decodes with and which outcomes it compares.
public struct FuzzTarget: Sendable {
    /// Which final outcomes of the two decodes are compared.
    public enum Comparison: Sendable {
        /// Frames are compared when both sources end `complete`; the verdict check compares
        /// only `complete` against anything else (FuzzPNG).
        case completeOnly
        /// The final statuses must be equal; whenever they are, the frame counts, the
        /// `ImageSource.error`s and the frames are compared, partial frames of an
        /// `unexpectedEOF` source included, and each frame's `finalRowCount` is part of its hash.
        case sameStatus
    }

    /// What a streamed thumbnail of a complete frame 0 must equal.
    public enum Thumbnails: Sendable {
        /// The full image shrunk by the same resampler, pixel for pixel.
        case shrunkImage
        /// Something of its own making (a decoder that renders at a reduced scale first): only
        /// the size and completeness are checked.
        case ownScale
    }

    /// The prefix of the environment variables, e.g. `FUZZ_PNG` (`FUZZ_PNG_VERBOSE`, `FUZZ_PNG_STRICT_STATUS`).
    public var environmentPrefix: String
    public var limits: Limits
    /// The coders the sources may use.
    public var registry: CoderRegistry
    public var comparison: Comparison
    /// Images up to this many pixels are hashed with `CanonicalHash.hex` (SHA-256); larger ones
    /// with a 128-bit word hash of the same canonical bytes (see `frameDigest`).
    public var sha256MaxPixels: Int
    /// Pixels each decode hashes at most, summed over its frames; frames past the budget are
    /// compared by size (and `finalRowCount` with `.sameStatus`) only. Both decodes spend it
    /// alike, frame by frame.
    public var hashBudgetPixels: Int
    public var thumbnails: Thumbnails
    /// <PREFIX>_VERBOSE and <PREFIX>_STRICT_STATUS, read once.
    private let verbose: Bool
    private let strictStatus: Bool

    public init(environmentPrefix: String, limits: Limits, registry: CoderRegistry = .standard,
                comparison: Comparison, sha256MaxPixels: Int, hashBudgetPixels: Int = .max,
                thumbnails: Thumbnails = .shrunkImage) {
        self.environmentPrefix = environmentPrefix
        self.limits = limits
        self.registry = registry
        self.comparison = comparison
        self.sha256MaxPixels = sha256MaxPixels
        self.hashBudgetPixels = hashBudgetPixels
        self.thumbnails = thumbnails
        func flag(_ name: String) -> Bool? {
            getenv(environmentPrefix + "_" + name).map { String(cString: $0) != "0" }
        }
        verbose = flag("VERBOSE") ?? false
        strictStatus = flag("STRICT_STATUS") ?? true
    }

    /// The settings of a format whose every frame may be an animation frame on a large canvas
    /// (FuzzGIF, FuzzWebP): 16 megapixels per canvas, 100 frames, `.sameStatus`; a 2 KB file can
    /// hold 100 tiny frames on a 16-megapixel canvas, so images above 64 kilopixels get the word
    /// hash instead of SHA-256 and each decode hashes at most 16 megapixels in all.
    public static func animation(environmentPrefix: String, registry: CoderRegistry) -> FuzzTarget {
        FuzzTarget(environmentPrefix: environmentPrefix,
                   limits: Limits(maxPixels: 1 << 24, maxFrames: 100, maxBytesHeld: 256 << 20, maxMetadataBytes: 1 << 20),
                   registry: registry, comparison: .sameStatus, sha256MaxPixels: 1 << 16, hashBudgetPixels: 1 << 24)
    }

    /// Small limits, so that the fuzzer spends its time on logic, not on allocating. Checksums
    /// are ignored, so that mutated files get past CRC-32 and Adler-32 into the deeper code
    /// (formats without checksums ignore the option). `maxThreads` and `colorSpace` as the
    /// input picks them (``threadCounts(_:)``, ``colorSpace(_:)``).
    func options(immediate: Bool, maxThreads: Int, colorSpace: ColorSpace) -> DecodingOptions {
        var options = DecodingOptions()
        options.colorSpace = colorSpace
        options.limits = limits
        options.ignoresChecksums = true
        options.decodesImmediately = immediate
        options.maxThreads = maxThreads
        return options
    }

    /// The thread counts of the whole and the chunked decode, each 1, 2, 3 or 8, from a hash of
    /// the input: outputs must not depend on them (DESIGN.md, "Threads and colour"), so the
    /// split-independence checks compare decodes at different counts as well.
    static func threadCounts(_ bytes: UnsafeBufferPointer<UInt8>) -> (whole: Int, chunked: Int) {
        let counts = [1, 2, 3, 8], h = fnv1a(bytes) &>> 40
        return (counts[Int(h & 3)], counts[Int((h &>> 2) & 3)])
    }

    /// `.sRGB` for half the inputs, from a bit of the hash that ``threadCounts(_:)`` does not use.
    static func colorSpace(_ bytes: UnsafeBufferPointer<UInt8>) -> ColorSpace {
        (fnv1a(bytes) &>> 44) & 1 == 1 ? .sRGB : .original
    }

    /// Decodes `size` bytes at `data` both ways and traps on a broken invariant. Call it from
    /// the target's `LLVMFuzzerTestOneInput`.
    public func run(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
        let bytes = UnsafeBufferPointer(start: data, count: size)
        let threads = Self.threadCounts(bytes)
        let colorSpace = Self.colorSpace(bytes)
        let (whole, thumbnailError) = decodeWhole(bytes, maxThreads: threads.whole, colorSpace: colorSpace)
        let chunked = decodeChunked(bytes, maxThreads: threads.chunked, colorSpace: colorSpace)
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

        let compared: Bool
        switch comparison {
        case .completeOnly:
            compared = whole.status == .complete && chunked.status == .complete
            if !compared, strictStatus, (whole.status == .complete) != (chunked.status == .complete) {
                fatalError("split dependence: status \(whole.status) whole (\(whole.count) frames), "
                    + "\(chunked.status) fed in chunks (\(chunked.count) frames)")
            }
        case .sameStatus:
            compared = whole.status == chunked.status
            if !compared, strictStatus {
                fatalError("split dependence: status \(whole.status) whole (\(whole.count) frames"
                    + (whole.error.map { ", \($0)" } ?? "") + "), \(chunked.status) fed in chunks ("
                    + "\(chunked.count) frames" + (chunked.error.map { ", \($0)" } ?? "") + ")")
            }
            if compared, whole.error != chunked.error {
                fatalError("split dependence: \(whole.status) with error \(whole.error.map { "\($0)" } ?? "nil") whole, "
                    + "\(chunked.error.map { "\($0)" } ?? "nil") fed in chunks")
            }
        }
        guard compared else { return 0 }
        // FuzzPNG's messages name no status: it compares `complete` sources only.
        let status = comparison == .sameStatus ? "\(whole.status), " : ""
        if whole.count != chunked.count {
            fatalError("split dependence: \(status)\(whole.count) frames whole, \(chunked.count) fed in chunks")
        }
        for index in 0..<min(whole.hashes.count, chunked.hashes.count)
        where whole.hashes[index] != chunked.hashes[index] {
            fatalError("split dependence: \(status)frame \(index) hash \(whole.frameDescriptions[index]) whole, "
                + "\(chunked.frameDescriptions[index]) fed in chunks")
        }
        return 0
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

        /// One word per frame, for <PREFIX>_VERBOSE and trap messages.
        var frameDescriptions: [String] {
            zip(hashes, frameErrors).map { hash, error in hash ?? "threw \(error.map { "\($0)" } ?? "?")" }
        }
    }

    /// The canonical hash of `image`: `CanonicalHash.hex` (SHA-256) up to `sha256MaxPixels`;
    /// above that a 128-bit word hash of the same canonical bytes, because SHA-256 under the
    /// fuzzer's comparison tracing takes seconds for the 16-megapixel images the limits allow
    /// (a 44-byte PNG took 7.8 s). Both sources go through this function, so their digests stay
    /// comparable. With `.sameStatus` the image's `finalRowCount` is appended (`/rows N`).
    private func frameDigest(_ image: DecodedImage) -> String {
        let rows = comparison == .sameStatus ? "/rows \(image.finalRowCount)" : ""
        if image.width * image.height <= sha256MaxPixels { return CanonicalHash.hex(image) + rows }
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
        return "\(image.width)x\(image.height):" + String(a, radix: 16) + "-" + String(b, radix: 16) + rows
    }

    /// Every frame's canonical hash (nil where `image(at:)` threw) and error, in order.
    private func hashFrames(_ source: ImageSource) -> (hashes: [String?], errors: [DecodingError?]) {
        var hashes: [String?] = [], errors: [DecodingError?] = []
        let count = source.count
        var budget = hashBudgetPixels
        hashes.reserveCapacity(count)
        errors.reserveCapacity(count)
        for index in 0..<count {
            do {
                let image = try source.image(at: index)
                let pixels = image.width * image.height
                if pixels <= budget {
                    budget -= pixels
                    hashes.append(frameDigest(image))
                } else {
                    hashes.append("\(image.width)x\(image.height) unhashed"
                        + (comparison == .sameStatus ? "/rows \(image.finalRowCount)" : ""))
                }
                errors.append(nil)
            } catch {
                hashes.append(nil)
                errors.append(error)
            }
        }
        return (hashes, errors)
    }

    /// Decodes `bytes` whole.
    private func decodeWhole(_ bytes: UnsafeBufferPointer<UInt8>, maxThreads: Int, colorSpace: ColorSpace) -> (Outcome, thumbnailError: DecodingError?) {
        let source = ImageSource(bytes: bytes, options: options(immediate: false, maxThreads: maxThreads, colorSpace: colorSpace), registry: registry)
        let (hashes, errors) = hashFrames(source)
        let count = source.count
        _ = source.properties
        for index in -1...count { _ = source.properties(at: index) }
        for index in [-1, count] + Array(0..<min(count, 16)) { checkRawFrame(source, index) }
        _ = source.status(at: 0)
        let status = source.status
        var thumbnailError: DecodingError?
        do {
            let fresh = ImageSource(bytes: bytes, options: options(immediate: false, maxThreads: maxThreads, colorSpace: colorSpace), registry: registry)
            let thumbnail = try fresh.thumbnail(at: 0, maxPixelSize: 32, applyOrientation: false)
            if status == .complete, let full = try? source.image(at: 0), full.isComplete,
               thumbnail.width != full.width || thumbnail.height != full.height {
                // JPEG thumbnails are rendered at a reduced scale (whichever target the file
                // reached through the registry); outside JPEG a thumbnail is converted to sRGB
                // after it is shrunk, the image before (SPEC-NOTES.md, "Colour management").
                // Only the size is held then.
                switch colorSpace == .sRGB || source.format == .jpeg ? .ownScale : thumbnails {
                case .shrunkImage:
                    let expected = StreamingResampler.resample(full.rgba8Raster(), toWidth: thumbnail.width, height: thumbnail.height)
                    if thumbnail.pixels != expected.pixels {
                        fatalError("streamed thumbnail of frame 0 differs from its full decode shrunk")
                    }
                case .ownScale:
                    let size = StreamingResampler.fittedSize(width: full.width, height: full.height, maxPixelSize: 32)
                    if thumbnail.width != size.width || thumbnail.height != size.height || !thumbnail.isComplete {
                        fatalError("thumbnail of frame 0 is \(thumbnail.width)x\(thumbnail.height) complete \(thumbnail.isComplete), "
                            + "expected \(size.width)x\(size.height) complete")
                    }
                }
            }
        } catch {
            thumbnailError = error
        }
        return (Outcome(status: status, count: count, hashes: hashes, frameErrors: errors, error: source.error),
                thumbnailError)
    }

    /// Frame `index`'s raw pixels, when they decode, must have its rectangle's size.
    private func checkRawFrame(_ source: ImageSource, _ index: Int) {
        guard let raw = try? source.rawFrame(at: index) else { return }
        if raw.image.width != raw.properties.width || raw.image.height != raw.properties.height {
            fatalError("raw frame \(index) is \(raw.image.width)x\(raw.image.height), its rectangle "
                + "\(raw.properties.width)x\(raw.properties.height)")
        }
    }

    /// Decodes `bytes` fed in chunks of 1...4096 bytes drawn from a hash of the input.
    private func decodeChunked(_ bytes: UnsafeBufferPointer<UInt8>, maxThreads: Int, colorSpace: ColorSpace) -> Outcome {
        let source = ImageSource(incremental: options(immediate: true, maxThreads: maxThreads, colorSpace: colorSpace), registry: registry)
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
                if count > 0 {
                    _ = try? source.image(at: count - 1)
                    _ = try? source.rawFrame(at: count - 1)
                }
            }
        }
        let (hashes, errors) = hashFrames(source)
        return Outcome(status: source.status, count: source.count, hashes: hashes, frameErrors: errors,
                       error: source.error)
    }
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

/// Writes `line` to stderr at once (no buffering, so it comes out before a trap).
private func note(_ line: String) {
    var line = line
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// The type of `LLVMFuzzerTestOneInput`.
public typealias TestOneInput = @convention(c) (UnsafePointer<UInt8>, Int) -> CInt

@_silgen_name("LLVMFuzzerRunDriver")
private func runDriver(_ argc: UnsafeMutablePointer<CInt>,
                       _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
                       _ body: TestOneInput) -> CInt

/// Starts libFuzzer's driver with the command line; call it from the target's `<Target>_main`
/// (the symbol SwiftPM's `main` alias points to; FUZZING.md in shared/, beside the project root).
public func runLibFuzzer(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
                         _ body: TestOneInput) -> CInt {
    var c = argc, v = argv
    return runDriver(&c, &v, body)
}
