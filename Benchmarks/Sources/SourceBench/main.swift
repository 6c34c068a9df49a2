import BenchSupport
import Foundation
import ImageCodecs

// SourceBench: how ImageSource behaves as a whole, beside the per-format decode benchmarks.
//   contention FILE...   a reader thread reads status, count and properties in a loop while this
//                        thread decodes the file three times (a new source each time): the
//                        reader's worst and 99th-percentile wait per read
//   thumbnails FILE...   a 512-px thumbnail asked for after every 64 KiB append over the whole
//                        file, against one thumbnail of the complete file (best of the runs)
//   players FILE...      --players N players (default 16), each on its own source of the file,
//                        shown at 60 Hz for --seconds S (default 10): frames shown and dropped
let usage = "usage: SourceBench contention|thumbnails|players [--iterations N] [--chunk BYTES] [--size PX] [--players N] [--seconds S] FILE..."
let arguments = Arguments(usage: usage, valueOptions: ["--chunk", "--size", "--players", "--seconds"])
guard let mode = arguments.files.first, ["contention", "thumbnails", "players"].contains(mode), arguments.files.count > 1 else {
    warn(usage)
    exit(2)
}
let files = arguments.files.dropFirst().map { URL(fileURLWithPath: $0) }
let chunk = arguments.values["--chunk"].flatMap { Int($0) } ?? 65_536
let size = arguments.values["--size"].flatMap { Int($0) } ?? 512

switch mode {
case "contention":
    print("| file | reads | worst wait ms | p99 ms | median µs | decodes s |")
    print("|---|---:|---:|---:|---:|---:|")
    for url in files {
        let bytes = try Inputs.read(url)
        let result = Contention.measure(bytes)
        print("| \(url.lastPathComponent) | \(result.reads) | \(String(format: "%.2f", result.worst)) | "
              + "\(String(format: "%.3f", result.p99)) | \(String(format: "%.1f", result.median * 1000)) | "
              + "\(String(format: "%.2f", result.decodeSeconds)) |")
    }
case "players":
    let count = arguments.values["--players"].flatMap { Int($0) } ?? 16
    let seconds = arguments.values["--seconds"].flatMap { Double($0) } ?? 10
    print("| file | players | seconds | frames shown (min–max per player) | dropped (total) | peak buffer MB |")
    print("|---|---:|---:|---:|---:|---:|")
    for url in files {
        let bytes = try Inputs.read(url)
        let result = Players.play(bytes, players: count, seconds: seconds)
        print("| \(url.lastPathComponent) | \(count) | \(seconds) | \(result.shown.min() ?? 0)–\(result.shown.max() ?? 0) | "
              + "\(result.dropped) | \(String(format: "%.1f", Double(result.peakBuffer) / 1e6)) |")
    }
default:
    print("| file | bytes | appends | one thumbnail ms | after every append ms | ratio |")
    print("|---|---:|---:|---:|---:|---:|")
    for url in files {
        let bytes = try Inputs.read(url)
        var once = Double.infinity, resumed = Double.infinity
        for _ in 0..<arguments.iterations {
            once = min(once, Thumbnails.whole(bytes, size: size))
            resumed = min(resumed, Thumbnails.afterEveryAppend(bytes, chunk: chunk, size: size))
        }
        let appends = (bytes.count + chunk - 1) / chunk
        print("| \(url.lastPathComponent) | \(bytes.count) | \(appends) | \(String(format: "%.1f", once * 1000)) | "
              + "\(String(format: "%.1f", resumed * 1000)) | \(String(format: "%.2f", resumed / once))× |")
    }
}
