import Foundation

/// The decoders a benchmark compares: ours and the C references.
public protocol BenchDecoder: Hashable, CaseIterable {
    /// The decoder's name in the table and the notes.
    var name: String { get }
    /// Our decoder: the numerator of every speed ratio.
    static var ours: Self { get }
}

public struct BenchError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One file's results: best seconds per decoder (nil when that decoder failed) and notes.
public struct FileResult<Decoder: BenchDecoder, Info> {
    public let name: String
    public let info: Info
    /// Megapixels of output of one decode, for MP/s.
    public let megapixels: Double
    public var bestSeconds: [Decoder: Double] = [:]
    /// Least CPU time of one decode per decoder, every thread of the process counted.
    public var bestCPUSeconds: [Decoder: Double] = [:]
    public var notes: [String] = []
    /// The file's bytes when it is a still image that ``decodeOurs(_:options:)`` decodes whole
    /// (for ``Throughput``); nil for animations.
    public var stillBytes: [UInt8]?

    public init(name: String, info: Info, megapixels: Double) {
        self.name = name
        self.info = info
        self.megapixels = megapixels
    }

    public func megapixelsPerSecond(_ decoder: Decoder) -> Double? {
        bestSeconds[decoder].map { megapixels / $0 }
    }

    /// Speed of ours over `reference`: above 1 means ours is faster.
    public func ratio(over reference: Decoder) -> Double? {
        ratio(.ours, over: reference)
    }

    /// Speed of `decoder` over `reference`: above 1 means `decoder` is faster.
    public func ratio(_ decoder: Decoder, over reference: Decoder) -> Double? {
        guard let rate = megapixelsPerSecond(decoder), let other = megapixelsPerSecond(reference) else {
            return nil
        }
        return rate / other
    }

    /// A first, untimed decode with each decoder (`check`: the warm-up, and the outputs that
    /// `compare` turns into notes), then `iterations` rounds in which each decoder that worked
    /// runs once (`decode`), the order rotating from round to round. A decoder's time is its
    /// best round, on the monotonic clock; its CPU time the least of its rounds.
    public mutating func measure<Output>(
        iterations: Int,
        check: (Decoder) throws -> Output,
        compare: ([Decoder: Output]) -> [String],
        decode: (Decoder) -> [UInt8]?
    ) {
        var outputs: [Decoder: Output] = [:]
        for decoder in Decoder.allCases {
            do {
                outputs[decoder] = try check(decoder)
            } catch {
                notes.append("\(decoder.name) failed: \(error)")
            }
        }
        notes += compare(outputs)
        let working = Decoder.allCases.filter { outputs[$0] != nil }
        outputs.removeAll()

        var best = [Decoder: UInt64](), bestCPU = [Decoder: UInt64]()
        for round in 0..<iterations {
            for step in working.indices {
                let decoder = working[(round + step) % working.count]
                let start = monotonicNanoseconds(), startCPU = processCPUNanoseconds()
                guard let pixels = decode(decoder) else { continue }
                consume(pixels)
                let elapsed = monotonicNanoseconds() - start, cpu = processCPUNanoseconds() - startCPU
                best[decoder] = min(best[decoder] ?? .max, elapsed)
                bestCPU[decoder] = min(bestCPU[decoder] ?? .max, cpu)
            }
        }
        for (decoder, nanoseconds) in best {
            bestSeconds[decoder] = Double(nanoseconds) / 1e9
        }
        for (decoder, nanoseconds) in bestCPU {
            bestCPUSeconds[decoder] = Double(nanoseconds) / 1e9
        }
    }
}

extension InputSet {
    /// Reads each file and hands its name and bytes to `measure`, which returns nil (after
    /// saying why) to skip the file; the progress goes to stderr.
    public func run<Result>(files: [URL], measure: (String, [UInt8]) -> Result?) -> [Result] {
        var results: [Result] = []
        for (index, url) in files.enumerated() {
            let name = displayName(url)
            warn("[\(index + 1)/\(files.count)] \(name)")
            guard let bytes = try? Inputs.read(url) else {
                warn("  cannot read \(url.path), skipped")
                continue
            }
            if let result = measure(name, bytes) { results.append(result) }
        }
        return results
    }
}
