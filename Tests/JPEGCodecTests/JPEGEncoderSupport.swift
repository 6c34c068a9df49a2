import Foundation
@testable import JPEGCodec
import TestSupport

/// A PPM (P6) or PGM (P5) file with maxval 255, as the encoder fixtures are.
struct PNMImage {
    let width: Int
    let height: Int
    let components: Int
    let samples: [UInt8]

    init(width: Int, height: Int, components: Int, samples: [UInt8]) {
        self.width = width
        self.height = height
        self.components = components
        self.samples = samples
    }

    init?(_ bytes: [UInt8]) {
        var fields: [Int] = [], i = 2
        guard bytes.count > 2, bytes[0] == 0x50, bytes[1] == 0x35 || bytes[1] == 0x36 else { return nil }
        while fields.count < 3 && i < bytes.count {
            while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 { i += 1 }
            var value = 0
            while i < bytes.count, (0x30...0x39).contains(bytes[i]) { value = value * 10 + Int(bytes[i] - 0x30); i += 1 }
            fields.append(value)
        }
        guard fields.count == 3, fields[2] == 255 else { return nil }
        width = fields[0]
        height = fields[1]
        components = bytes[1] == 0x36 ? 3 : 1
        let start = i + 1
        guard bytes.count >= start + width * height * components else { return nil }
        samples = Array(bytes[start..<(start + width * height * components)])
    }
}

/// cjpeg's command-line flags as encoder settings.
func encoderSettings(cjpegFlags: String) -> JPEGEncoderSettings? {
    var s = JPEGEncoderSettings()
    var words = cjpegFlags.split(separator: " ").map(String.init)[...]
    while let flag = words.popFirst() {
        switch flag {
        case "-quality": guard let q = words.popFirst().flatMap({ Int($0) }) else { return nil }; s.quality = q
        case "-sample":
            let parts = words.popFirst()?.split(separator: "x").compactMap { Int($0) } ?? []
            guard parts.count == 2 else { return nil }
            s.lumaSampling = (parts[0], parts[1])
        case "-grayscale": s.grayscale = true
        case "-optimize": s.optimizeHuffman = true
        case "-progressive": s.progressive = true
        case "-restart":
            guard let word = words.popFirst() else { return nil }
            if word.hasSuffix("B") {
                guard let n = Int(word.dropLast()) else { return nil }
                s.restart = .mcus(n)
            } else {
                guard let n = Int(word) else { return nil }
                s.restart = .rows(n)
            }
        default: return nil
        }
    }
    return s
}

/// Encodes a whole image, feeding rows in bands of `band` rows.
func encodeJPEG(_ image: PNMImage, _ settings: JPEGEncoderSettings, band: Int = 7,
                metadata: JPEGEncoderMetadata = .init(), maxThreads: Int = 1) throws -> [UInt8] {
    var encoder = try JPEGEncoder(width: image.width, height: image.height, components: image.components, settings: settings,
                                  metadata: metadata, maxThreads: maxThreads)
    var out: [UInt8] = []
    let rowBytes = image.width * image.components
    var y = 0
    while y < image.height {
        let rows = min(band, image.height - y)
        try image.samples.withUnsafeBufferPointer { p in
            try encoder.write(rows: UnsafeBufferPointer(rebasing: p[(y * rowBytes)..<((y + rows) * rowBytes)]))
        }
        out += encoder.takeOutput()
        y += rows
    }
    return out + (try encoder.finish())
}
