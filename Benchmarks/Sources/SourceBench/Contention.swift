import BenchSupport
import Foundation
import ImageCodecs

/// Readers of a source while another thread decodes it.
enum Contention {
    /// Three decodes of `bytes` (a new source each) on this thread; a second thread times every
    /// read of `status`, `count` and `properties` of the source being decoded.
    static func measure(_ bytes: [UInt8]) -> (reads: Int, worst: Double, p99: Double, median: Double, decodeSeconds: Double) {
        struct Shared {
            var source: ImageSource
            var stop = false
            var waits: [Double]?
        }
        let shared = Guarded(Shared(source: ImageSource(bytes: bytes)))
        let reader = Thread {
            var local: [Double] = []
            while true {
                let (s, stop) = shared.withLock { ($0.source, $0.stop) }
                if stop { break }
                let start = monotonicNanoseconds()
                let status = s.status, count = s.count, width = s.properties?.width ?? 0
                local.append(Double(monotonicNanoseconds() - start) / 1e6)
                blackhole &+= UInt64(status.rawValue &+ 8) &+ UInt64(count) &+ UInt64(width)
            }
            shared.withLock { $0.waits = local }
        }
        reader.start()
        let start = monotonicNanoseconds()
        for round in 0..<3 {
            if round > 0 {
                let next = ImageSource(bytes: bytes)
                shared.withLock { $0.source = next }
            }
            let s = shared.withLock { $0.source }
            if let image = try? s.image(at: 0) { consume(image.pixels) }
        }
        let seconds = Double(monotonicNanoseconds() - start) / 1e9
        shared.withLock { $0.stop = true }
        var waits: [Double]?
        while waits == nil {
            usleep(1000)
            waits = shared.withLock { $0.waits }
        }
        let sorted = (waits ?? []).sorted()
        guard !sorted.isEmpty else { return (0, 0, 0, 0, seconds) }
        return (sorted.count, sorted[sorted.count - 1], sorted[min(sorted.count - 1, sorted.count * 99 / 100)],
                sorted[sorted.count / 2], seconds)
    }
}

/// A value behind a lock, shared by the decoding and the reading thread.
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func withLock<R>(_ body: (inout Value) -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}

/// Thumbnails over a download.
enum Thumbnails {
    /// Seconds for one thumbnail of the complete file.
    static func whole(_ bytes: [UInt8], size: Int) -> Double {
        let start = monotonicNanoseconds()
        if let image = try? ImageSource(bytes: bytes).thumbnail(at: 0, maxPixelSize: size) { consume(image.pixels) }
        return Double(monotonicNanoseconds() - start) / 1e9
    }

    /// Seconds for appending `chunk` bytes at a time and asking for a thumbnail after each.
    static func afterEveryAppend(_ bytes: [UInt8], chunk: Int, size: Int) -> Double {
        let start = monotonicNanoseconds()
        let source = ImageSource(incremental: .init())
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + chunk)
            source.append(bytes[offset..<end], final: end == bytes.count)
            offset = end
            if source.count > 0, let image = try? source.thumbnail(at: 0, maxPixelSize: size) { consume(image.pixels) }
        }
        return Double(monotonicNanoseconds() - start) / 1e9
    }
}

/// Many animations on show at once, as a page of animated thumbnails.
enum Players {
    /// `players` players, each on a source of its own, asked for their frame 60 times a
    /// second for `seconds`: frames each showed, frames dropped by all, the largest buffer.
    static func play(_ bytes: [UInt8], players: Int, seconds: Double) -> (shown: [Int], dropped: Int, peakBuffer: Int) {
        let all = (0..<players).map { _ in AnimationPlayer(source: ImageSource(bytes: bytes), bufferBudget: 8 << 20) }
        let start = monotonicNanoseconds()
        let end = start + UInt64(seconds * 1e9)
        var tick = start
        while tick < end {
            for player in all { _ = player.currentFrame() }
            tick += 16_666_667
            let now = monotonicNanoseconds()
            if tick > now { usleep(UInt32((tick - now) / 1000)) }
        }
        return (all.map(\.framesShown), all.map(\.framesDropped).reduce(0, +), all.map(\.peakBufferBytes).max() ?? 0)
    }
}
