import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ImageCodecs
import PNGCodec

/// `imagecodecs decode FILE -o OUT.png|OUT.pam [--frame N] [--max-pixel-size N] [--apply-orientation]`.
struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "decode", abstract: "Decode one frame to a PNG or PAM file.")

    @Argument(help: "The image file.") var file: String
    @Option(name: .short, help: "Output file, .png or .pam.") var output: String
    @Option(help: "Frame index.") var frame = 0
    @Option(help: "Shrink so that the longer side is at most N pixels.") var maxPixelSize: Int?
    @Flag(help: "Turn the image upright by its EXIF orientation.") var applyOrientation = false

    func validate() throws {
        guard output.hasSuffix(".png") || output.hasSuffix(".pam") else {
            throw ValidationError("-o must name a .png or .pam file")
        }
        guard frame >= 0 else { throw ValidationError("--frame must not be negative") }
        if let maxPixelSize, maxPixelSize <= 0 { throw ValidationError("--max-pixel-size must be positive") }
    }

    func run() throws {
        var options = DecodingOptions()
        options.prefersSixteenBitOutput = true
        let source = ImageSource(bytes: try readFile(file), options: options)
        try requireRecognised(source)
        guard frame < source.count else {
            if source.status == .complete { throw ValidationError("the image has \(source.count) frames") }
            try finish(source)
            return
        }
        let image: DecodedImage
        do {
            if let maxPixelSize {
                image = try source.thumbnail(at: frame, maxPixelSize: maxPixelSize, applyOrientation: applyOrientation)
            } else {
                let full = try source.image(at: frame)
                let orientation = applyOrientation ? source.properties?.orientation ?? 1 : 1
                image = orientation == 1 ? full : DecodedImage(
                    raster: Orientation.apply(orientation, to: Raster(width: full.width, height: full.height,
                                                                       bytesPerPixel: full.pixelFormat.bytesPerPixel,
                                                                       pixels: full.pixels)),
                    finalRowCount: full.finalRowCount, options: options)
            }
        } catch {
            fail(error)
        }
        let raster = Raster(width: image.width, height: image.height,
                            bytesPerPixel: image.pixelFormat.bytesPerPixel, pixels: image.pixels)
        let written: Bool
        if output.hasSuffix(".pam") {
            written = Self.writePAM(raster, to: output)
        } else {
            written = try Self.writePNG(raster, to: output)
        }
        guard written else {
            printError("io", "cannot write \(output)")
            throw CLIExit(status: ExitStatus.invalid)
        }
        try finish(source)
    }

    /// A PNG streamed to the file as it is compressed (no copy of the compressed image is held),
    /// by the library's PNG encoder with the default options.
    static func writePNG(_ raster: Raster, to path: String) throws -> Bool {
        guard var file = FileSink(path: path) else { return false }
        var encoder = PNGEncoder()
        var streamed = true
        do {
            try encoder.begin(EncodingCanvas(width: raster.width, height: raster.height, frameCount: 1), to: &file)
            try encoder.add(EncodingFrame(raster: raster), to: &file)
            try encoder.finish(to: &file)
        } catch {
            streamed = false
        }
        return file.close() && streamed
    }

    /// Netpbm PAM, TUPLTYPE RGB_ALPHA, 8 or 16 bits (big-endian) per sample, written a row at a
    /// time so that no second copy of the image is made.
    static func writePAM(_ raster: Raster, to path: String) -> Bool {
        let wide = raster.bytesPerPixel == 8
        let header = "P7\nWIDTH \(raster.width)\nHEIGHT \(raster.height)\nDEPTH 4\nMAXVAL \(wide ? 65535 : 255)\nTUPLTYPE RGB_ALPHA\nENDHDR\n"
        guard let file = fopen(path, "wb") else { return false }
        var written = fputs(header, file) >= 0
        var row = [UInt8](repeating: 0, count: raster.bytesPerRow)
        raster.pixels.withUnsafeBytes { raw in
            for y in 0..<raster.height {
                let start = y * raster.bytesPerRow
                if wide {
                    for i in stride(from: 0, to: raster.bytesPerRow, by: 2) {
                        let v = raw.loadUnaligned(fromByteOffset: start + i, as: UInt16.self)
                        row[i] = UInt8(v >> 8)
                        row[i + 1] = UInt8(v & 0xFF)
                    }
                } else {
                    row.withUnsafeMutableBytes { $0.copyMemory(from: UnsafeRawBufferPointer(rebasing: raw[start..<(start + raster.bytesPerRow)])) }
                }
                written = written && fwrite(row, 1, row.count, file) == row.count
            }
        }
        return fclose(file) == 0 && written
    }
}
