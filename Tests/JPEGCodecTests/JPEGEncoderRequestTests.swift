import ImageCodecs
@testable import JPEGCodec
import TestSupport
import Testing

/// What the encoder does beyond cjpeg, and odd requests: rows in any bands, alpha flattening,
/// EXIF and ICC, maxFileSize, and sizes, qualities and calls that must be typed errors or valid
/// files, never traps.
struct JPEGEncoderRequestTests {
    static func photo() throws -> PNMImage {
        try #require(PNMImage(try Corpus.bytes(Corpus.conformance.appendingPathComponent("fixtures/jpeg-encoder/kodim23-57x61.ppm"))))
    }

    /// The bytes do not depend on how rows are handed over.
    @Test(arguments: [1, 5, 16, 61]) func rowBandsGiveTheSameFile(band: Int) throws {
        let image = try Self.photo()
        for settings in [JPEGEncoderSettings(), JPEGEncoderSettings(quality: 90, lumaSampling: (1, 2), progressive: true)] {
            let banded = try encodeJPEG(image, settings, band: band)
            let whole = try encodeJPEG(image, settings, band: image.height)
            #expect(banded == whole)
        }
    }

    static func rgba(_ image: PNMImage, alpha: UInt8) -> [UInt8] {
        var out: [UInt8] = []
        for i in 0..<(image.width * image.height) {
            out += [image.samples[3 * i], image.samples[3 * i + 1], image.samples[3 * i + 2], alpha]
        }
        return out
    }

    /// RGBA with opaque alpha is the RGB file; transparent pixels become the background colour
    /// (an all-transparent image is the file of a flat background).
    @Test func alphaIsFlattenedOnTheBackground() throws {
        let image = try Self.photo()
        let opaque = PNMImage(width: image.width, height: image.height, components: 4, samples: Self.rgba(image, alpha: 255))
        let (a, b) = (try encodeJPEG(opaque, .init()), try encodeJPEG(image, .init()))
        #expect(a == b)
        let clear = PNMImage(width: image.width, height: image.height, components: 4, samples: Self.rgba(image, alpha: 0))
        let white = PNMImage(width: image.width, height: image.height, components: 3,
                             samples: [UInt8](repeating: 255, count: image.width * image.height * 3))
        let (c, d) = (try encodeJPEG(clear, .init()), try encodeJPEG(white, .init()))
        #expect(c == d)
        var red = JPEGEncoderMetadata()
        red.background = (255, 0, 0)
        var redPixels: [UInt8] = []
        for _ in 0..<(image.width * image.height) { redPixels += [255, 0, 0] }
        let redImage = PNMImage(width: image.width, height: image.height, components: 3, samples: redPixels)
        let (e, f) = (try encodeJPEG(clear, .init(), metadata: red), try encodeJPEG(redImage, .init()))
        #expect(e == f)
    }

    /// Opaque rows are read as they are and the others flattened, row by row: an image whose
    /// every third row has one half-transparent pixel gives the file of its flattened RGB.
    @Test func opaqueAndTranslucentRowsMix() throws {
        let image = try Self.photo()
        var rgba = Self.rgba(image, alpha: 255), flat = image.samples
        for y in stride(from: 0, to: image.height, by: 3) {
            let i = y * image.width + (y * 7) % image.width
            rgba[4 * i + 3] = 128
            for c in 0..<3 {
                let blended: Int = Int(flat[3 * i + c]) * 128 + 255 * 127 + 127
                flat[3 * i + c] = UInt8(blended / 255)
            }
        }
        #expect(!rgba.withUnsafeBufferPointer { JPEGPreprocessor.isOpaque($0.baseAddress!, count: image.width) })
        #expect(rgba.withUnsafeBufferPointer { JPEGPreprocessor.isOpaque($0.baseAddress! + 4 * image.width, count: image.width) })
        let translucent = PNMImage(width: image.width, height: image.height, components: 4, samples: rgba)
        let flattened = PNMImage(width: image.width, height: image.height, components: 3, samples: flat)
        #expect(try encodeJPEG(translucent, .init()) == encodeJPEG(flattened, .init()))
    }

    /// EXIF (orientation 6) in APP1 and a 150 000-byte ICC profile over three APP2 chunks read
    /// back by our decoder; without those segments the file is the plain one.
    @Test func exifAndICCAreCarried() throws {
        let image = try Self.photo()
        let exif: [UInt8] = [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0]
        let icc = (0..<150_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let file = try encodeJPEG(image, .init(), metadata: JPEGEncoderMetadata(exif: exif, icc: icc))
        let source = ImageSource(bytes: file)
        let properties = try #require(source.properties)
        #expect(properties.orientation == 6)
        #expect(properties.iccProfile == icc)
        var markers: [UInt8] = [], i = 2
        var stripped: [UInt8] = [0xFF, 0xD8]
        while i + 4 <= file.count, file[i] == 0xFF, file[i + 1] != 0xDA {
            let length = Int(file[i + 2]) << 8 | Int(file[i + 3])
            markers.append(file[i + 1])
            if file[i + 1] != 0xE1 && file[i + 1] != 0xE2 { stripped += file[i..<(i + 2 + length)] }
            i += 2 + length
        }
        #expect(markers.prefix(5) == [0xE0, 0xE1, 0xE2, 0xE2, 0xE2])
        let plain = try encodeJPEG(image, .init())
        #expect(stripped + file[i...] == plain)
        #expect(Decoding.whole(file).frames == Decoding.whole(plain).frames)
    }

    /// Re-encoding a JPEG source through ImageDestination carries its EXIF orientation, XMP and
    /// ICC profile into the new file, in the order APP0, EXIF APP1, XMP APP1, ICC APP2.
    @Test func metadataIsCarriedFromASource() throws {
        let image = try Self.photo()
        let exif: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0]
        let icc = (0..<70_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let xmp = Array("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF/></x:xmpmeta>".utf8)
        let original = try encodeJPEG(image, .init(), metadata: JPEGEncoderMetadata(exif: exif, icc: icc, xmp: xmp))
        let destination = try ImageDestination(format: .jpeg)
        try destination.add(contentsOf: ImageSource(bytes: original))
        let file = try destination.finalize()
        let properties = try #require(ImageSource(bytes: file).properties)
        #expect(properties.orientation == 8 && properties.iccProfile == icc && properties.exif == exif)
        #expect(properties.text.first { $0.keyword == "XML:com.adobe.xmp" }.map { Array($0.text.utf8) } == xmp)
        var segments: [(UInt8, [UInt8])] = [], i = 2
        while i + 4 <= file.count, file[i] == 0xFF, file[i + 1] != 0xDB {
            let length = Int(file[i + 2]) << 8 | Int(file[i + 3])
            segments.append((file[i + 1], Array(file[(i + 4)..<min(file.count, i + 2 + length)])))
            i += 2 + length
        }
        #expect(segments.map(\.0) == [0xE0, 0xE1, 0xE1, 0xE2, 0xE2])
        #expect(segments.count == 5 && segments[2].1 == Array("http://ns.adobe.com/xap/1.0/\0".utf8) + xmp)
        #expect(segments.count == 5 && segments[1].1.starts(with: Array("Exif\0\0".utf8)))
    }

    /// The file fits, is the plain file at its quality, and no higher quality up to the one
    /// asked for fits (file size is not monotonic in quality: with these inputs and limits,
    /// qualities below 25 need 16-bit tables and are larger than some above them).
    @Test(arguments: [("checker-16x16.ppm", [700, 760]), ("rect-35x21.ppm", [900, 1000]),
                      ("kodim23-57x61.ppm", [780, 1500]), ("gradient-64x48.ppm", [650, 100])])
    func maxFileSizeKeepsTheBestQualityThatFits(name: String, limits: [Int]) throws {
        let folder = Corpus.conformance.appendingPathComponent("fixtures/jpeg-encoder")
        let image = try #require(PNMImage(try Corpus.bytes(folder.appendingPathComponent(name))))
        for limit in limits {
            for base in [JPEGEncoderSettings(quality: 95), JPEGEncoderSettings(quality: 95, progressive: true)] {
                var encoder = try JPEGEncoder(width: image.width, height: image.height, components: 3, settings: base, keepsTransform: true)
                try image.samples.withUnsafeBufferPointer { try encoder.write(rows: $0) }
                let (quality, file) = try encoder.finish(fitting: limit)
                var at = base
                at.quality = quality
                #expect(try file == encodeJPEG(image, at))
                let fits = file.count <= limit
                #expect(fits || quality == 1, "\(name) \(limit): quality \(quality) does not fit")
                for above in (quality + 1)..<96 {
                    at.quality = above
                    #expect(try encodeJPEG(image, at).count > limit, "\(name) \(limit): \(above) fits, \(quality) chosen")
                }
            }
        }
    }

    /// Quality 0 and 101 are clamped as libjpeg's `jpeg_quality_scaling` clamps them.
    @Test func qualityOutOfRangeIsClamped() throws {
        let image = try Self.photo()
        let (q0, q1) = (try encodeJPEG(image, .init(quality: 0)), try encodeJPEG(image, .init(quality: 1)))
        let (q101, q100) = (try encodeJPEG(image, .init(quality: 101)), try encodeJPEG(image, .init(quality: 100)))
        #expect(q0 == q1 && q101 == q100)
    }

    @Test func badRequestsAreTypedErrors() throws {
        let settings = JPEGEncoderSettings()
        for (w, h) in [(0, 1), (1, 0), (65501, 1), (1, 65501), (-3, 2)] {
            #expect(throws: JPEGEncoderError.invalidSize) { try JPEGEncoder(width: w, height: h, components: 3, settings: settings) }
        }
        #expect(throws: JPEGEncoderError.invalidComponents) { try JPEGEncoder(width: 8, height: 8, components: 2) }
        #expect(throws: JPEGEncoderError.invalidSampling) { try JPEGEncoder(width: 8, height: 8, components: 3, settings: .init(lumaSampling: (4, 4))) }
        #expect(throws: JPEGEncoderError.invalidSampling) { try JPEGEncoder(width: 8, height: 8, components: 1, settings: .init(lumaSampling: (0, 1))) }
        #expect(throws: JPEGEncoderError.invalidRestart) { try JPEGEncoder(width: 8, height: 8, components: 3, settings: .init(restart: .rows(70000))) }
        var encoder = try JPEGEncoder(width: 4, height: 2, components: 3)
        #expect(throws: JPEGEncoderError.missingRows) { try encoder.finish() }
        let row = [UInt8](repeating: 9, count: 12)
        #expect(throws: JPEGEncoderError.invalidRows) { try row.dropLast().withUnsafeBufferPointer { try encoder.write(rows: $0) } }
        try (row + row).withUnsafeBufferPointer { try encoder.write(rows: $0) }
        #expect(throws: JPEGEncoderError.invalidRows) { try row.withUnsafeBufferPointer { try encoder.write(rows: $0) } }
        #expect(Decoding.whole(try encoder.finish()).frames.count == 1)
    }

    /// The largest sizes: 65500 × 1 and 1 × 65500, baseline and progressive, read back.
    @Test func largestSizes() throws {
        for (w, h) in [(65500, 1), (1, 65500)] {
            for settings in [JPEGEncoderSettings(), JPEGEncoderSettings(progressive: true)] {
                let image = PNMImage(width: w, height: h, components: 1, samples: (0..<(w * h)).map { UInt8(truncatingIfNeeded: $0) })
                let file = try encodeJPEG(image, settings, band: 4096)
                #expect(Decoding.whole(file).frames.first?.hasPrefix("\(w)x\(h) ") == true)
            }
        }
    }

    /// Through ImageDestination: an empty destination and a second frame are errors.
    @Test func destinationRequests() throws {
        let destination = try ImageDestination(format: .jpeg)
        #expect(throws: EncodingError.self) { try destination.finalize() }
        let raster = Raster(width: 3, height: 2, bytesPerPixel: 4, pixels: [UInt8](repeating: 200, count: 24))
        let one = try ImageDestination(format: .jpeg)
        try one.add(EncodingFrame(raster: raster))
        #expect(Decoding.whole(try one.finalize()).frames.count == 1)
    }
}
