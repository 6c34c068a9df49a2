import Foundation

/// What the machine itself gives memory-bound work on two threads, printed under the
/// concurrent-throughput row so that the row is read against it (the last line of
/// `Probes/core-sharing.c`, in the same run as the row): each thread fills a buffer far larger
/// than the caches (`memset`), on one thread and then on two at once.
enum MemoryScaling {
    static let bufferBytes = 96 << 20
    static let fills = 10

    /// Two threads' fill rate over twice one thread's, median of `rounds` alternating rounds.
    static func ratio(rounds: Int = 5) -> Double {
        let ratios = (0..<rounds).map { _ in
            let one = 1 / Throughput.timedThreads(1) { _ in fill() }
            let two = 2 / Throughput.timedThreads(2) { _ in fill() }
            return two / (2 * one)
        }
        return ratios.sorted()[rounds / 2]
    }

    /// Fills a new buffer of ``bufferBytes`` ``fills`` times.
    private static func fill() {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bufferBytes, alignment: 64)
        defer { buffer.deallocate() }
        for k in 0..<fills {
            buffer.initializeMemory(as: UInt8.self, repeating: UInt8(truncatingIfNeeded: k + 1), count: bufferBytes)
            keep(buffer)
        }
    }
}

/// Makes the optimiser assume that `pointer`'s memory is read, so that no fill is left out.
@_optimize(none)
func keep(_ pointer: UnsafeMutableRawPointer) {}
