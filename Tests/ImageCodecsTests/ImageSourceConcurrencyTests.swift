import Foundation
import ImageCodecs
import TestSupport
import Testing

/// One source used from several threads: readers never wait on a pixel decode, and every image
/// equals what a single-threaded decode gives (SPEC-NOTES.md, "Threads").
struct ImageSourceConcurrencyTests {
    static func fixture(_ name: String) throws -> [UInt8] {
        try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/\(name)"))
    }

    /// A still of each format, and animations of each animated format.
    static let files = [
        "png/rgba8-64x64-i.png", "apng/pil-mixed-40x40.png", "gif/im-dispose-previous-32x24.gif",
        "jpeg/kodim03-q90-420-prog-256x192.jpg", "jpeg/kodim05-q80-422-rst1row-200x136.jpg",
        "webp-lossy/alpha-blobs-q60-afbest-37x29.webp", "webp/anim-gif2webp-dispose-previous-32x24.webp",
    ]

    /// Four threads on one source: one appends in random splits, three read the status, count
    /// and properties, ask for images and thumbnails. An image asked for after its frame was
    /// seen complete must equal the whole decode's; at the end every frame does.
    @Test(arguments: files, [UInt64(1), 2])
    func fourThreadsOnOneSource(_ name: String, seed: UInt64) async throws {
        let bytes = try Self.fixture(name)
        let whole = Decoding.whole(bytes)
        let sizes = Decoding.randomSizes(count: 64, max: max(2, bytes.count / 20), seed: seed)
        let source = ImageSource(incremental: .init())
        let mismatches = await withTaskGroup(of: [String].self) { group in
            group.addTask {
                var offset = 0, i = 0
                while offset < bytes.count {
                    let end = min(bytes.count, offset + sizes[i % sizes.count])
                    source.append(bytes[offset..<end], final: end == bytes.count)
                    offset = end
                    i += 1
                }
                return []
            }
            for reader in 0..<3 {
                group.addTask { Self.read(source, whole: whole, reader: reader) }
            }
            return await group.reduce(into: []) { $0 += $1 }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(3))")
        #expect(Decoding.hashes(source) == whole)
    }

    /// Reads until the source is final and then a little more; returns what differed.
    static func read(_ source: ImageSource, whole: DecodeResult, reader: Int) -> [String] {
        var mismatches: [String] = []
        var afterFinal = 0
        var round = 0
        while afterFinal < 20 {
            round += 1
            let status = source.status
            if status != .readingHeader && status != .incomplete { afterFinal += 1 }
            _ = source.properties
            let count = source.count
            guard count > 0 else { continue }
            let index = (round * 7 + reader) % count
            _ = source.properties(at: index)
            let wasComplete = source.status(at: index) == .complete
            if reader == 2 {
                _ = try? source.thumbnail(at: index, maxPixelSize: 16)
            } else if let image = try? source.image(at: index), wasComplete, index < whole.frames.count {
                let hash = "\(image.width)x\(image.height) \(CanonicalHash.hex(image))"
                if hash != whole.frames[index] { mismatches.append("frame \(index) round \(round)") }
            }
        }
        return mismatches
    }

    /// While a decode is held inside the renderer, every reader and an append answer at once.
    @Test func readersAndAppendsDoNotWaitOnADecode() async throws {
        let bytes = try Self.fixture("apng/pil-mixed-40x40.png")
        let gate = AnimationPlayerTests.Gate(open: false)
        defer { gate.open() }
        var registry = CoderRegistry.standard
        registry.register(AnimationPlayerTests.WrappingCoder(gate: gate, failing: []))
        let source = ImageSource(incremental: .init(), registry: registry)
        let half = bytes.count / 2
        source.append(bytes[..<half], final: false)
        // A thread of its own, not a task: under ThreadSanitizer on two loaded cores the
        // cooperative pool did not start a detached task within the wait below.
        let decode = Outcome()
        Thread {
            decode.image = try? source.image(at: 0)
            decode.done.signal()
        }.start()
        #expect(await AnimationPlayerTests.eventually { gate.isInside }, "the decode holds the renderer")
        let countBefore = source.count
        source.append(bytes[half...], final: true)
        #expect(source.status == .complete && source.count >= countBefore)
        #expect(source.properties != nil && source.properties(at: 0) != nil && source.error == nil)
        #expect(gate.isInside, "the reads and the append returned while the decode was in progress")
        gate.open()
        decode.done.wait()
        #expect(decode.image != nil)
    }

    /// What the decoding thread gives back; read only after `done` is signalled.
    final class Outcome: @unchecked Sendable {
        let done = DispatchSemaphore(value: 0)
        var image: DecodedImage?
    }
}
