import BenchSupport
import CSpng
import Foundation

/// What the report says of a file besides the times: its kind and each encoder's output size.
final class EncodeInfo {
    let category: String
    var sizes: [Encoder: Int] = [:]

    init(category: String) { self.category = category }

    /// Our size over `other`'s: below 1 means ours is smaller.
    func sizeRatio(over other: Encoder) -> Double? {
        guard let ours = sizes[.ours], let theirs = sizes[other], theirs > 0 else { return nil }
        return Double(ours) / Double(theirs)
    }
}

typealias FileResult = BenchSupport.FileResult<Encoder, EncodeInfo>

/// Encodes each file with every encoder, checks that libspng reads ours back to the source's
/// pixels, then times them, interleaved.
struct Benchmark {
    let iterations: Int
    let effort: Int
    /// zlib level the references use.
    let level: Int32

    func run(files: [URL]) -> [FileResult] {
        inputs.run(files: files) { name, bytes in
            let source: Source
            do {
                source = try Source(bytes)
            } catch {
                warn("  \(error), skipped")
                return nil
            }
            var result = FileResult(name: name, info: EncodeInfo(category: source.category), megapixels: source.megapixels)
            let info = result.info
            result.measure(
                iterations: iterations,
                check: { try $0.encode(source, effort: effort, level: level) },
                compare: { outputs in
                    for (encoder, output) in outputs { info.sizes[encoder] = output.count }
                    return verify(outputs[.ours], source: source)
                },
                decode: { try? $0.encode(source, effort: effort, level: level) }
            )
            return result
        }
    }

    /// libspng's decode of our file against the source's pixels (RGBA16 for 16-bit sources).
    func verify(_ ours: [UInt8]?, source: Source) -> [String] {
        guard let ours else { return ["ours failed"] }
        do {
            let back = try decodeWithSpng(ours, format: source.isSixteenBit ? SPNG_FMT_RGBA16 : SPNG_FMT_RGBA8)
            guard back == source.rgba else { return ["MISMATCH: libspng reads our file to other pixels"] }
            return []
        } catch {
            return ["MISMATCH: libspng refuses our file: \(error)"]
        }
    }
}
