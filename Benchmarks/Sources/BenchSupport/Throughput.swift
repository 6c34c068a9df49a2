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
/// A round is made long enough to be a service's steady state rather than a burst: each thread
/// goes over the four files ``passes(oneCoreSeconds:)`` times, so that the sequential round
/// lasts at least ``minimumRoundSeconds``. Four threads on two cores do not always share them
/// evenly (Linux may leave three on one core for a while and one on the other), so a round ends
/// with a straggler running alone while the other core idles; in a 75 ms round of the GIF set
/// that tail was a fifth of the round, in a 300 ms one a twentieth (SPEC-NOTES.md, "Many
/// images at once"). A service's queue keeps both cores busy; the tail is the batch's.
///
/// The one-core rate is taken two ways, both printed: as issue 18 defines it, one thread
/// decoding the four files one after another with `maxThreads` 1 (a sequential round, timed
/// like the concurrent ones and interleaved with them, best round), and from the tables' best
/// single decode of each file (a stricter reference: each file's fastest decode, caches warm).
public enum Throughput {
    static let decodes = 4
    /// The shortest sequential round, in seconds.
    static let minimumRoundSeconds = 0.3

    /// How many times each thread goes over the files: enough for a sequential round of at
    /// least ``minimumRoundSeconds`` at the one-core rate (the four files' best decodes add up
    /// to `oneCoreSeconds`).
    static func passes(oneCoreSeconds: Double) -> Int {
        max(1, Int((minimumRoundSeconds / oneCoreSeconds).rounded(.up)))
    }

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
        let oneCoreSeconds = chosen.reduce(0) { $0 + $1.bestSeconds[oneCore]! }
        let passes = passes(oneCoreSeconds: oneCoreSeconds)
        var best = Double.infinity, bestSequential = Double.infinity
        for _ in 0..<rounds {
            bestSequential = min(bestSequential, sequentialRound(inputs, passes: passes))
            best = min(best, round(inputs, passes: passes))
        }
        let megapixels = Double(passes) * chosen.reduce(0) { $0 + $1.megapixels }
        let cores = Double(min(ProcessInfo.processInfo.activeProcessorCount, decodes))
        let concurrent = Double(decodes) * megapixels / best
        let sequential = cores * megapixels / bestSequential
        let fastest = cores * megapixels / (Double(passes) * oneCoreSeconds)
        Swift.print("| decodes | at once MP/s | \(Int(cores)) × one-core rate, one after another, MP/s | ratio | \(Int(cores)) × one-core rate, each file's best, MP/s | ratio |")
        Swift.print("|---|---:|---:|---:|---:|---:|")
        Swift.print("| \(decodes) at once (\(chosen.map(\.name).joined(separator: ", ")), each thread all four\(passes > 1 ? " \(passes) times" : "")), default options, best of \(rounds) "
            + "| \(Cell.rate(concurrent)) | \(Cell.rate(sequential)) | \(Cell.times(concurrent / sequential)) "
            + "| \(Cell.rate(fastest)) | \(Cell.times(concurrent / fastest)) |")
        Swift.print()
        Swift.print("The machine in the same run: two threads filling buffers of \(MemoryScaling.bufferBytes >> 20) MiB (memory-bound) "
            + "reach \(Cell.times(MemoryScaling.ratio())) of twice one thread's rate (median of 5; `Probes/core-sharing.c` "
            + "measures computing too). A decode that writes a whole image is partly memory-bound.")
        Swift.print()
    }

    /// The four inputs decoded one after another on this thread with `maxThreads` 1, `passes`
    /// times; the seconds.
    private static func sequentialRound(_ inputs: [[UInt8]], passes: Int) -> Double {
        let begin = monotonicNanoseconds()
        for _ in 0..<passes {
            for input in inputs { _ = try? decodeOurs(input, options: oneThread) }
        }
        return Double(monotonicNanoseconds() - begin) / 1e9
    }

    /// One round: a thread per input, all started together, thread i decoding inputs i, i + 1, …
    /// (every input `passes` times); the seconds until the last ends.
    private static func round(_ inputs: [[UInt8]], passes: Int) -> Double {
        timedThreads(inputs.count) { first in
            for i in 0..<(passes * inputs.count) { _ = try? decodeOurs(inputs[(first + i) % inputs.count]) }
        }
    }

    /// Runs `work(0)` … `work(count − 1)` on threads of their own, started together; the
    /// seconds from the start until the last ends.
    static func timedThreads(_ count: Int, _ work: @escaping @Sendable (Int) -> Void) -> Double {
        let start = DispatchSemaphore(value: 0), done = DispatchGroup()
        for index in 0..<count {
            done.enter()
            let thread = Thread {
                start.wait()
                work(index)
                done.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        let begin = monotonicNanoseconds()
        for _ in 0..<count { start.signal() }
        done.wait()
        return Double(monotonicNanoseconds() - begin) / 1e9
    }
}
