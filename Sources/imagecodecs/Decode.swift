import ArgumentParser
import Foundation
import ImageCodecs
import PNGCodec

/// `imagecodecs decode FILE -o OUT.png|OUT.pam [--frame N] [--max-pixel-size N] [--apply-orientation]`.
struct Decode: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Decode one frame to a PNG or PAM file.")

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
        let bytes = output.hasSuffix(".pam") ? Self.pam(raster) : try PNGWriter.encode(raster)
        guard FileManager.default.createFile(atPath: output, contents: Data(bytes)) else {
            printError("io", "cannot write \(output)")
            throw CLIExit(status: ExitStatus.invalid)
        }
        try finish(source)
    }

    /// Netpbm PAM, TUPLTYPE RGB_ALPHA, 8 or 16 bits (big-endian) per sample.
    static func pam(_ raster: Raster) -> [UInt8] {
        let wide = raster.bytesPerPixel == 8
        var out = Array("P7\nWIDTH \(raster.width)\nHEIGHT \(raster.height)\nDEPTH 4\nMAXVAL \(wide ? 65535 : 255)\nTUPLTYPE RGB_ALPHA\nENDHDR\n".utf8)
        if wide {
            raster.pixels.withUnsafeBytes { raw in
                for v in raw.bindMemory(to: UInt16.self) { out += [UInt8(v >> 8), UInt8(v & 0xFF)] }
            }
        } else {
            out += raster.pixels
        }
        return out
    }
}
