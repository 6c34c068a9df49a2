import Foundation

/// The concurrent-throughput row: four decodes of different images at once, each on a thread
/// of its own with the default options (so they share the library's worker pool), against the
/// rate that the machine's cores would give decoding one image after another on one core each:
/// the cores (at most four) times the one-core rate. Each thread decodes all four files,
/// starting at a different one, so that the four decodes running at any time are of different
/// images and every thread has the same work (a round of one file per thread would end with the
/// longest decode alone). A ratio near 1 says the threads the decodes add cost nothing when the
/// machine is already busy; below 1, they oversubscribe it or wait.
///
/// The one-core rate is taken two ways, both printed: as issue 18 defines it, one thread
/// decoding the four files one after another with `maxThreads` 1 (a sequential round, timed
/// like the concurrent ones and interleaved with them, best round), and from the tables' best
/// single decode of each file (a stricter reference: each file's fastest decode, caches warm).
public enum Throughput {
    static let decodes = 4

    /// Runs `rounds` rounds of the four largest still files of `results` at once (the best
    /// round counts) and prints the row, against the rates of `oneCore` (ours with `maxThreads`
    /// 1); prints why not when fewer than four stills decoded.
    public static func run<Decoder, Info>(_ results: [FileResult<Decoder, Info>], oneCore: Decoder, rounds: Int) {
        let chosen = results.filter { $0.bestSeconds[oneCore] != nil && $0.stillBytes != nil }
            .sorted { $0.megapixels > $1.megapixels }.prefix(decodes)
        Swift.print("### Concurrent throughput")
        Swift.print()
        guard chosen.count == decodes else {
            Swift.print("Not measured: it needs \(decodes) still files that decoded (\(chosen.count) here).")
            return
        }
        let inputs = chosen.map { $0.stillBytes! }
        var best = Double.infinity, bestSequential = Double.infinity
        for _ in 0..<rounds {
            bestSequential = min(bestSequential, sequentialRound(inputs))
            best = min(best, round(inputs))
        }
        let megapixels = chosen.reduce(0) { $0 + $1.megapixels }
        let oneCoreSeconds = chosen.reduce(0) { $0 + $1.bestSeconds[oneCore]! }
        let cores = Double(min(ProcessInfo.processInfo.activeProcessorCount, decodes))
        let concurrent = Double(decodes) * megapixels / best
        let sequential = cores * megapixels / bestSequential, fastest = cores * megapixels / oneCoreSeconds
        Swift.print("| decodes | at once MP/s | \(Int(cores)) × one-core rate, one after another, MP/s | ratio | \(Int(cores)) × one-core rate, each file's best, MP/s | ratio |")
        Swift.print("|---|---:|---:|---:|---:|---:|")
        Swift.print("| \(decodes) at once (\(chosen.map(\.name).joined(separator: ", ")), each thread all four), default options, best of \(rounds) "
            + "| \(Cell.rate(concurrent)) | \(Cell.rate(sequential)) | \(Cell.times(concurrent / sequential)) "
            + "| \(Cell.rate(fastest)) | \(Cell.times(concurrent / fastest)) |")
        Swift.print()
    }

    /// The four inputs decoded one after another on this thread with `maxThreads` 1; the seconds.
    private static func sequentialRound(_ inputs: [[UInt8]]) -> Double {
        let begin = monotonicNanoseconds()
        for input in inputs { _ = try? decodeOurs(input, options: oneThread) }
        return Double(monotonicNanoseconds() - begin) / 1e9
    }

    /// One round: a thread per input, all started together, thread i decoding inputs i, i + 1, …
    /// (every input once); the seconds until the last ends.
    private static func round(_ inputs: [[UInt8]]) -> Double {
        let start = DispatchSemaphore(value: 0), done = DispatchGroup()
        for first in inputs.indices {
            done.enter()
            let thread = Thread {
                start.wait()
                for i in inputs.indices { _ = try? decodeOurs(inputs[(first + i) % inputs.count]) }
                done.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        let begin = monotonicNanoseconds()
        for _ in inputs { start.signal() }
        done.wait()
        return Double(monotonicNanoseconds() - begin) / 1e9
    }
}
