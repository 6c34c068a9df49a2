import ImageCodecs
import TestSupport
import Testing

/// One reproducer of issue 15 with the reference's verdict (fixtures-hostile.tsv, made by
/// make_hostile_manifests.py from djpeg, dwebp, libpng and Pillow).
struct HostileEntry: Sendable, CustomStringConvertible {
    let path: String
    /// "WxH sha256" per frame, as the reference decodes the file; empty when it refuses it.
    let frames: [String]
    /// frames, refused, or the error kind of a documented deviation (unknownType, limitExceeded).
    let expect: String

    var description: String { path }

    static let all: [HostileEntry] = {
        var order: [String] = [], frames: [String: [String]] = [:], expect: [String: String] = [:]
        for cols in Manifest.rows("fixtures-hostile.tsv") where cols.count >= 5 {
            if frames[cols[0]] == nil { order.append(cols[0]); frames[cols[0]] = [] }
            if cols[3] != "error" { frames[cols[0]]?.append("\(cols[2]) \(cols[3])") }
            expect[cols[0]] = cols[4]
        }
        return order.map { HostileEntry(path: $0, frames: frames[$0] ?? [], expect: expect[$0] ?? "") }
    }()
}

/// The hostile inputs of issue 15, whole and fed 1, 7 and 50 bytes at a time: every one ends as
/// the reference says (or as SPEC-NOTES.md documents where this library differs), and what a
/// source announced while the bytes arrived never traps a caller.
struct HostileReproducerTests {
    @Test func manifestIsLoaded() {
        #expect(HostileEntry.all.count >= 25)
        #expect(HostileEntry.all.filter { $0.expect == "refused" }.count >= 8)
        #expect(HostileEntry.all.filter { $0.expect == "frames" }.count >= 13)
    }

    @Test(arguments: HostileEntry.all)
    func endsAsTheReference(_ entry: HostileEntry) throws {
        let bytes = try Corpus.bytes(Corpus.conformance.appendingPathComponent(entry.path))
        let whole = Decoding.whole(bytes)
        check(entry, whole, "whole")
        for size in [1, 7, 50] {
            check(entry, Decoding.chunked(bytes, sizes: [size]).result, "fed \(size)")
            check(entry, Self.fedAsAViewer(bytes, size), "viewer \(size)")
        }
    }

    private func check(_ entry: HostileEntry, _ result: DecodeResult, _ how: String) {
        switch entry.expect {
        case "frames":
            #expect(result.status == .complete && result.frames == entry.frames, "\(entry.path) \(how): \(result)")
        case "refused":
            #expect(result.status == .invalidData && result.error?.kind == .invalidData, "\(entry.path) \(how): \(result)")
        case "unknownType":
            #expect(result.status == .unknownType, "\(entry.path) \(how): \(result)")
        default:
            #expect(result.error?.kind.rawValue == entry.expect, "\(entry.path) \(how): \(result)")
        }
    }

    /// Takes each frame as soon as it is complete, as a viewer (and `imagecodecs feed`) does,
    /// asks again for every frame announced so far after each piece (an index the source has
    /// since withdrawn must throw, not trap), and forgets its frames when the file falls back to
    /// its static image; then returns the frames it holds at the end.
    static func fedAsAViewer(_ bytes: [UInt8], _ size: Int) -> DecodeResult {
        var options = DecodingOptions()
        options.decodesImmediately = true
        let source = ImageSource(incremental: options)
        var taken: [String] = [], announced = 0, fellBack = false
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + size)
            source.append(bytes[offset..<end], final: end == bytes.count)
            offset = end
            for index in 0..<announced where index >= source.count {
                #expect(throws: DecodingError.self) { try source.image(at: index) }
            }
            announced = max(announced, source.count)
            if !fellBack && source.properties?.showsStaticFallback == true {
                fellBack = true
                taken = []
            }
            while taken.count < source.count, source.status(at: taken.count) == .complete,
                  let image = try? source.image(at: taken.count) {
                taken.append("\(image.width)x\(image.height) \(CanonicalHash.hex(image))")
            }
        }
        var result = Decoding.hashes(source)
        if result.status == .complete {
            result.frames = Array(taken.prefix(source.count)) + result.frames.dropFirst(min(taken.count, source.count))
        }
        return result
    }

    /// The metadata floods keep Limits.maxMetadataItems items, in file order; the 1 MiB Latin-1
    /// zTXt is whole, as UTF-8 (each 0xE9 becomes é, two bytes).
    @Test func metadataFloodsKeepTheItemLimit() throws {
        func properties(_ name: String) throws -> ImageProperties? {
            try ImageSource(bytes: Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/hostile/\(name)"))).properties
        }
        let limit = Limits().maxMetadataItems
        let ztxt = try #require(try properties("png-ztxt-flood.png"))
        #expect(ztxt.text.count == limit)
        #expect(ztxt.text.first?.keyword == "k0" && ztxt.text.last?.keyword == "k\(limit - 1)")
        #expect(ztxt.text.last?.text == String(repeating: "line \(limit - 1) ", count: 12))
        #expect(try properties("png-text-flood.png")?.text.count == limit)
        #expect(try properties("gif-comment-flood.gif")?.text.count == limit)
        let comments = try #require(try properties("gif-comment-flood-text.gif"))
        #expect(comments.text.count == limit && comments.text.allSatisfy { $0.keyword == "Comment" && $0.text == "abc" })
        let latin1 = try #require(try properties("png-ztxt-latin1.png")?.text.first)
        #expect(latin1.keyword == "big" && latin1.text.unicodeScalars.count == 1 << 20)
        #expect(latin1.text.utf8.count == 2 << 20 && latin1.text.unicodeScalars.allSatisfy { $0 == "é" })
    }

    /// A smaller item limit is honoured, and the byte limit still counts the items kept.
    @Test func metadataLimitsCanBeLowered() throws {
        var options = DecodingOptions()
        options.limits.maxMetadataItems = 10
        let flood = try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/hostile/gif-comment-flood-text.gif"))
        #expect(ImageSource(bytes: flood, options: options).properties?.text.count == 10)
        options.limits.maxMetadataItems = 1_000
        options.limits.maxMetadataBytes = 30
        #expect(ImageSource(bytes: flood, options: options).properties?.text.count == 10)
        let latin1 = try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/hostile/png-ztxt-latin1.png"))
        options.limits.maxMetadataBytes = 1 << 20
        #expect(ImageSource(bytes: latin1, options: options).properties?.text.isEmpty == true)
    }

    /// Withdrawn late, an APNG says so in its properties and shows the static image only.
    @Test func lateFallbackIsAnnounced() throws {
        let bytes = try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/hostile/apng-late-fallback-hidden.png"))
        let source = ImageSource(incremental: DecodingOptions())
        var counts: [Int] = []
        for byte in bytes {
            source.append([byte], final: false)
            if counts.last != source.count { counts.append(source.count) }
        }
        source.append([], final: true)
        #expect(counts == [0, 1, 2, 3, 1], "\(counts)")
        #expect(source.properties?.showsStaticFallback == true && source.count == 1 && source.status == .complete)
        #expect(throws: DecodingError.self) { try source.image(at: 2) }
    }
}
