import BenchSupport
import Foundation
import ImageCodecs

// Encodes one file as GIF with ImageCodecs' GIF encoder and times it in process (the tool's
// `imagecodecs encode` times whole processes): the input is any file the library decodes
// (every frame, with its delays and loop count) or a binary PNM/PAM (P5, P6, P7 of depth 1-4).
// Prints "GIF WxH FRAMES BYTES", then "encode-ms BEST" over the iterations.
// Conformance/scripts/check_gif_encoder.py can run it in place of the tool (--encoder).

let usage = "usage: GIFEncodeBench IN -o OUT [--no-dither] [--iterations N]"
var rawArguments = Array(CommandLine.arguments.dropFirst())
var dithering = true
if let i = rawArguments.firstIndex(of: "--no-dither") {
    dithering = false
    rawArguments.remove(at: i)
}
var output: String?
if let i = rawArguments.firstIndex(of: "-o"), i + 1 < rawArguments.count {
    output = rawArguments[i + 1]
    rawArguments.removeSubrange(i...(i + 1))
}
var iterations = 1
if let i = rawArguments.firstIndex(of: "--iterations"), i + 1 < rawArguments.count, let n = Int(rawArguments[i + 1]), n > 0 {
    iterations = n
    rawArguments.removeSubrange(i...(i + 1))
}
guard rawArguments.count == 1, let output else {
    FileHandle.standardError.write(Data((usage + "\n").utf8))
    exit(2)
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    exit(1)
}

guard let input = FileManager.default.contents(atPath: rawArguments[0]).map({ [UInt8]($0) }) else { fail("cannot read input") }
var options = EncodingOptions()
options.dithering = dithering

func makeDestination(_ input: [UInt8], _ options: EncodingOptions) -> ImageDestination {
    do {
        let destination = try ImageDestination(format: .gif, options: options)
        if let raster = PNM.raster(input) {
            try destination.add(EncodingFrame(raster: raster))
        } else {
            let source = ImageSource(bytes: input)
            try destination.add(contentsOf: source)
        }
        return destination
    } catch {
        fail("\(error)")
    }
}

var best = UInt64.max
var bytes: [UInt8] = []
for _ in 0..<iterations {
    let destination = makeDestination(input, options)
    let start = monotonicNanoseconds()
    do { bytes = try destination.finalize() } catch { fail("\(error)") }
    best = min(best, monotonicNanoseconds() - start)
}
guard FileManager.default.createFile(atPath: output, contents: Data(bytes)) else { fail("cannot write \(output)") }
let check = ImageSource(bytes: bytes)
let size = check.properties.map { "\($0.width)x\($0.height)" } ?? "?"
print("GIF \(size) \(check.count) \(bytes.count)")
print("encode-ms \(String(format: "%.1f", Double(best) / 1e6))")
