import Foundation

/// `--memory FILE`: one decode with ours, and the resident memory it took, for every bench.
///
/// The peak is VmHWM from /proc/self/status, reset to the current RSS just before decoding
/// (writing 5 to /proc/self/clear_refs) so that start-up and file reading do not count.
/// Target: peak - baseline <= 1.25 x RGBA8 canvas + 24 MiB.
public enum MemoryProbe {
    /// What the bench's header reader says of a file: its size and category.
    public typealias Facts = (width: Int, height: Int, category: String)

    /// Decodes `file` once with `decode` and prints the memory it took; `facts` reads the
    /// header (nil: not a file of `format`).
    public static func run(file: URL, inputs: InputSet, format: String, facts: ([UInt8]) -> Facts?,
                           decode: ([UInt8]) throws -> [UInt8]) -> Int32 {
        guard let bytes = try? Inputs.read(file), let info = facts(bytes) else {
            warn("error: cannot read a \(format) from \(file.path)")
            return 1
        }
        let resetWorked = resetPeak()
        guard let baseline = status("VmRSS") else {
            warn("error: /proc/self/status has no VmRSS (Linux only)")
            return 1
        }
        let image: [UInt8]
        do {
            image = try decode(bytes)
        } catch {
            warn("error: decode failed: \(error)")
            return 1
        }
        let peak = status("VmHWM") ?? 0
        let after = status("VmRSS") ?? 0
        consume(image)

        let canvas = info.width * info.height * 4
        let used = peak - baseline
        let budget = canvas + canvas / 4 + 24 << 20
        print("file: \(inputs.displayName(file)) (\(info.width)x\(info.height) \(info.category), \(mib(bytes.count)) MiB)")
        print("RGBA8 canvas: \(mib(canvas)) MiB")
        print("baseline RSS (before decode): \(mib(baseline)) MiB")
        print("peak RSS (VmHWM after decode): \(mib(peak)) MiB" + (resetWorked ? "" : " (peak not reset: includes start-up)"))
        print("RSS after decode, image held: \(mib(after)) MiB")
        print("peak - baseline: \(mib(used)) MiB = \(String(format: "%.2f", Double(used) / Double(canvas)))x canvas")
        print("target peak - baseline <= 1.25x canvas + 24 MiB = \(mib(budget)) MiB: \(used <= budget ? "PASS" : "FAIL")")
        return 0
    }

    /// A /proc/self/status field in bytes.
    static func status(_ key: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            let digits = line.dropFirst(key.count + 1).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }

    /// Resets VmHWM to the current RSS (Linux >= 4.0).
    static func resetPeak() -> Bool {
        guard let handle = FileHandle(forWritingAtPath: "/proc/self/clear_refs") else { return false }
        defer { try? handle.close() }
        do {
            try handle.write(contentsOf: Data("5".utf8))
            return true
        } catch {
            return false
        }
    }

    static func mib(_ bytes: Int) -> String { String(format: "%.1f", Double(bytes) / 1_048_576) }
}
