import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ImageCodecs
import PNGCodec

/// `imagecodecs decode FILE -o OUT.png|OUT.pam [--frame N] [--max-pixel-size N] [--apply-orientation] [--srgb]
/// [--size WxH [--stretch]]`.
struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "decode", abstract: "Decode one frame to a PNG or PAM file.")

    @Argument(help: "The image file.") var file: String
    @Option(name: .short, help: "Output file, .png or .pam.") var output: String
    @Option(help: "Frame index.") var frame = 0
    @Option(help: "Shrink so that the longer side is at most N pixels.") var maxPixelSize: Int?
    @Flag(help: "Turn the image upright by its EXIF orientation.") var applyOrientation = false
    @Flag(help: "Convert to sRGB through the file's ICC profile, PNG cICP or cHRM/gAMA.") var srgb = false
    @Option(help: "Shrink to fit a WxH box, keeping the aspect ratio (never enlarged).") var size: String?
    @Flag(help: "With --size: shrink to exactly WxH, not keeping the aspect ratio.") var stretch = false

    func validate() throws {
        guard output.hasSuffix(".png") || output.hasSuffix(".pam") else {
            throw ValidationError("-o must name a .png or .pam file")
        }
        guard frame >= 0 else { throw ValidationError("--frame must not be negative") }
        if let maxPixelSize, maxPixelSize <= 0 { throw ValidationError("--max-pixel-size must be positive") }
        if size != nil, maxPixelSize != nil { throw ValidationError("--size and --max-pixel-size exclude each other") }
        if stretch, size == nil { throw ValidationError("--stretch needs --size") }
        if let size, Self.box(size) == nil { throw ValidationError("--size must be WxH with positive W and H") }
    }

    func run() throws {
        var options = DecodingOptions()
        options.prefersSixteenBitOutput = true
        if srgb { options.colorSpace = .sRGB }
        let source = ImageSource(bytes: try readFile(file), options: options)
        try requireRecognised(source)
        for warning in source.properties?.warnings ?? [] { printWarning(warning) }
        guard frame < source.count else {
            if source.status == .complete { throw ValidationError("the image has \(source.count) frames") }
            try finish(source)
            return
        }
        let image: DecodedImage
        do {
            if let size, let box = Self.box(size) {
                image = try source.thumbnail(at: frame, options: ThumbnailOptions(
                    thumbnailPixelSize: box, preserveAspectRatio: !stretch, applyOrientation: applyOrientation))
            } else if let maxPixelSize {
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

    /// The box of `--size WxH`, or nil when it is not two positive integers.
    static func box(_ text: String) -> ThumbnailOptions.PixelSize? {
        let sides = text.split(separator: "x", omittingEmptySubsequences: false)
        guard sides.count == 2, let w = Int(sides[0]), let h = Int(sides[1]), w > 0, h > 0 else { return nil }
        return ThumbnailOptions.PixelSize(width: w, height: h)
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

/// A warning (an ignored colour profile, for example) on the standard error; the exit status
/// is not changed by it.
private func printWarning(_ text: String) {
    writeStandardError("warning: \(text)\n")
}
