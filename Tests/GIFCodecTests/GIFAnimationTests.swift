import ImageCodecs
import TestSupport
import Testing
@testable import GIFCodec

/// Generated animations against ``GIFModel``, in order, out of order and incrementally.
struct GIFAnimationTests {
    static func frames(_ source: ImageSource, order: [Int]) throws -> [Int: [UInt8]] {
        var out: [Int: [UInt8]] = [:]
        for i in order { out[i] = CanonicalHash.canonicalBytes(try source.image(at: i)) }
        return out
    }

    @Test(arguments: 0..<60)
    func matchesTheModel(_ seed: Int) throws {
        let model = GIFModel.random(seed: UInt64(seed), frames: 1 + seed % 7)
        let bytes = model.bytes
        let expected = model.canvases
        let source = ImageSource(bytes: bytes)
        #expect(source.status == .complete)
        #expect(source.count == expected.count)
        let inOrder = try Self.frames(source, order: Array(expected.indices))
        for i in expected.indices { #expect(inOrder[i] == expected[i], "seed \(seed) frame \(i)") }
        // Random access, backwards and shuffled, on fresh sources and on a used one.
        var rng = SplitMix(seed: UInt64(seed))
        let shuffled = expected.indices.shuffled(using: &rng)
        #expect(try Self.frames(ImageSource(bytes: bytes), order: expected.indices.reversed()) == inOrder, "seed \(seed)")
        #expect(try Self.frames(ImageSource(bytes: bytes), order: shuffled) == inOrder, "seed \(seed)")
        #expect(try Self.frames(source, order: shuffled) == inOrder, "seed \(seed)")
        // Splits.
        let whole = Decoding.whole(bytes)
        #expect(Decoding.chunked(bytes, sizes: [1]).result == whole, "seed \(seed) byte by byte")
        #expect(Decoding.chunked(bytes, sizes: Decoding.randomSizes(count: 16, max: 40, seed: UInt64(seed))).result == whole)
        // Properties.
        for (i, f) in model.frames.enumerated() {
            let p = try #require(source.properties(at: i))
            #expect(p.unclampedDuration == Double(f.disposal == nil ? 0 : f.delay) / 100)
            let expectedDisposal: Disposal = switch f.disposal ?? 0 { case 2: .background; case 3, 4: .previous; default: .none }
            #expect(p.disposal == expectedDisposal)
            #expect(p.blend == (f.transparent == nil ? .source : .over))
        }
        #expect(source.properties?.loopCount == model.loopCount ?? 1)
    }

    /// Random access starts at the latest frame that needs no predecessor, not at frame 0.
    @Test func randomAccessStartsAtAKeyFrame() throws {
        var model = GIFModel(width: 4, height: 4, globalTable: [[0, 0, 0], [255, 255, 255], [255, 0, 0]])
        let full = [UInt8](repeating: 1, count: 16)
        model.frames = [
            .init(x: 0, y: 0, width: 4, height: 4, indices: full, disposal: 0),
            .init(x: 1, y: 1, width: 1, height: 1, indices: [2], transparent: nil, disposal: 0),
            .init(x: 0, y: 0, width: 4, height: 4, indices: full, transparent: nil, disposal: 2),   // opaque, full: a key frame
            .init(x: 2, y: 2, width: 1, height: 1, indices: [2], disposal: 0),                    // after a full clear: a key frame
            .init(x: 3, y: 3, width: 1, height: 1, indices: [2], transparent: 2, disposal: 0),
        ]
        let decoder = GIFDecoder(options: .init())
        let input = InputBuffer(model.bytes, isFinal: true)
        try decoder.advance(input)
        let frames = decoder.format.container.frames
        let keyFrames = (0..<5).map {
            AnimationCompositor.isIndependent($0, frame: frames[$0].properties, previous: $0 > 0 ? frames[$0 - 1].properties : nil,
                                              canvasWidth: 4, canvasHeight: 4)
        }
        #expect(keyFrames == [true, false, true, true, false])
        _ = try decoder.rendered(at: 4, input: input).converted(.init())
        #expect(decoder.canvas?.composedIndex == 4)
        let expected = model.canvases
        #expect(CanonicalHash.canonicalBytes(try decoder.rendered(at: 4, input: input).converted(.init())) == expected[4])
        #expect(CanonicalHash.canonicalBytes(try decoder.rendered(at: 1, input: input).converted(.init())) == expected[1])
        #expect(CanonicalHash.canonicalBytes(try decoder.rendered(at: 2, input: input).converted(.init())) == expected[2])
    }

    /// An error in one frame's data fails that frame and the frames composed on it, not the
    /// frames before it or after the next key frame.
    @Test func frameErrorsStayWithTheirFrames() throws {
        var b = GIFBuilder(width: 2, height: 1, globalTable: [[0, 0, 0], [255, 255, 255]])
        b.graphicControl(transparent: 0)
        b.image(width: 2, height: 1, indices: [1, 0], minimumCodeSize: 2)
        b.image(width: 2, height: 1, minimumCodeSize: 2, data: ReferenceLZWEncoder.encode([1], minimumCodeSize: 2))  // ends early
        b.graphicControl(transparent: 0)
        b.image(width: 1, height: 1, indices: [1], minimumCodeSize: 2)
        b.image(width: 2, height: 1, indices: [1, 1], minimumCodeSize: 2)                                  // a key frame
        b.trailer()
        let source = ImageSource(bytes: b.bytes)
        #expect(source.status == .complete && source.count == 4)
        #expect(try source.image(at: 0).pixels == [255, 255, 255, 255, 0, 0, 0, 0])
        #expect(throws: DecodingError.invalidData("LZW end code before the last pixel")) { try source.image(at: 1) }
        #expect(throws: DecodingError.invalidData("LZW end code before the last pixel")) { try source.image(at: 2) }
        #expect(try source.image(at: 3).pixels == [255, 255, 255, 255, 255, 255, 255, 255])
        #expect(try source.image(at: 0).pixels == [255, 255, 255, 255, 0, 0, 0, 0])
        #expect(source.status == .complete)
    }
}
