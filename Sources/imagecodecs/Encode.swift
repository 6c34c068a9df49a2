import ArgumentParser
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ImageCodecs

/// `imagecodecs encode IN -o OUT [flags]`: writes IN (any file the library decodes, all its
/// frames, or PNM/PAM) in OUT's format, streaming to the file; prints "FORMAT WxH FRAMES BYTES".
struct Encode: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "encode", abstract: "Encode an image or animation (PNG, APNG; GIF, JPEG, WebP when built).")

    @Argument(help: "The input: an image file or PNM/PAM (P5, P6, P7).") var input: String
    @Option(name: .short, help: "The output file.") var output: String
    @OptionGroup var flags: EncodeFlags

    func validate() throws {
        _ = try flags.resolvedFormat(output: output)
        _ = try flags.encodingOptions()
    }

    func run() throws {
        let format = try flags.resolvedFormat(output: output)
        var options = try flags.encodingOptions()
        guard CoderRegistry.standard.encoder(for: format) != nil else {
            printError("unsupported", "no \(format) encoder in this build")
            throw CLIExit(status: ExitStatus.invalid)
        }
        let input = try EncodeInput.open(self.input)
        // cjpeg writes one component for gray input (PGM, gray PAM), whatever -grayscale says.
        if format == .jpeg, case .pnm(let pnm) = input, pnm.channels <= 2 { options.grayscale = true }
        guard var file = FileSink(path: output) else {
            printError("io", "cannot write \(output)")
            throw CLIExit(status: ExitStatus.invalid)
        }
        var counting = CountingSink(file)
        let destination: ImageDestination
        do {
            destination = try ImageDestination(format: format, options: options)
            try input.add(to: destination)
            try destination.finalize(to: &counting)
        } catch {
            _ = counting.base.close()
            unlink(output)
            fail(error)
        }
        file = counting.base
        guard file.close() else {
            unlink(output)
            printError("io", "cannot write \(output)")
            throw CLIExit(status: ExitStatus.invalid)
        }
        let name = format == .png && destination.frameCount > 1 ? "apng" : format.rawValue
        let size = destination.canvasSize ?? (0, 0)
        print("\(name) \(size.width)x\(size.height) \(destination.frameCount) \(counting.count)")
    }
}
