import BenchSupport
import Foundation

/// `--memory FILE`: one encode with ours of FILE's pixels (decoded by libspng first and held),
/// and the resident memory the encode took beyond them: VmHWM from /proc/self/status, reset to
/// the current RSS just before encoding (writing 5 to /proc/self/clear_refs).
/// Target (issue 16): peak − baseline ≤ 32 MiB, the decoded image being in the baseline.
enum EncodeMemoryProbe {
    static func run(file: URL, effort: Int) -> Int32 {
        let source: Source
        do {
            source = try Source(try Inputs.read(file))
        } catch {
            warn("error: cannot read a PNG from \(file.path): \(error)")
            return 1
        }
        let reset = resetPeak()
        guard let baseline = status("VmRSS") else {
            warn("error: /proc/self/status has no VmRSS (Linux only)")
            return 1
        }
        let encoded: [UInt8]
        do {
            encoded = try encodeOurs(source, effort: effort)
        } catch {
            warn("error: encode failed: \(error)")
            return 1
        }
        let peak = status("VmHWM") ?? 0
        let used = peak - baseline - encoded.count
        print("file: \(inputs.displayName(file)) (\(source.width)x\(source.height) \(source.category))")
        print("decoded image held: \(mib(source.rgba.count)) MiB; encoded file: \(mib(encoded.count)) MiB")
        print("baseline RSS (image decoded): \(mib(baseline)) MiB")
        print("peak RSS during encode: \(mib(peak)) MiB" + (reset ? "" : " (peak not reset: includes start-up)"))
        print("peak - baseline - the file in memory: \(mib(used)) MiB")
        print("target <= 32 MiB: \(used <= 32 << 20 ? "PASS" : "FAIL")")
        return 0
    }

    static func status(_ key: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.dropFirst(key.count + 1).filter(\.isNumber)).map { $0 * 1024 }
        }
        return nil
    }

    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        return (try? handle.write(contentsOf: Data("5".utf8))) != nil
    }

    static func mib(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
}
