import ArgumentParser
import ImageCodecs

/// `imagecodecs info FILE [--json]`: what the file says about itself.
struct Info: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "info", abstract: "Print the image's format, size, frames and metadata.")

    @Argument(help: "The image file.") var file: String
    @Flag(help: "Print one JSON object.") var json = false

    func run() throws {
        let source = ImageSource(bytes: try readFile(file))
        try requireRecognised(source)
        guard let p = source.properties else { try finish(source); return }
        let frames = (0..<source.count).compactMap { source.properties(at: $0) }
        let fields: [(String, JSONValue)] = [
            ("format", .string(source.format?.rawValue ?? "unknown")),
            ("width", .int(p.width)), ("height", .int(p.height)),
            ("frameCount", .int(frames.count)), ("loopCount", .int(p.loopCount)),
            ("orientation", .int(p.orientation)), ("hasAlpha", .bool(p.hasAlpha)),
            ("bitDepth", .int(p.bitDepth)), ("interlaced", .bool(p.isInterlaced)),
            ("iccProfileSize", .int(p.iccProfile?.count ?? 0)), ("exifSize", .int(p.exif?.count ?? 0)),
            ("colorProfile", Self.profileDescription(p.iccProfile)),
            ("status", .string(source.status.description)),
            ("frames", .array(frames.map(Self.frameJSON))),
        ]
        if json {
            print(JSONValue.object(fields).rendered)
        } else {
            for (key, value) in fields where key != "frames" { print("\(key): \(value.rendered)") }
            for (i, f) in frames.enumerated() {
                print("frame \(i): \(f.width)x\(f.height) at \(f.x),\(f.y) duration \(JSONValue.number(f.duration * 1000).rendered) ms"
                      + " (file: \(JSONValue.number(f.unclampedDuration * 1000).rendered) ms)"
                      + " dispose \(f.disposal.rawValue) blend \(f.blend.rawValue)")
            }
        }
        try finish(source)
    }

    /// The embedded ICC profile's description (`desc`), or null when there is no profile or
    /// it cannot be read.
    static func profileDescription(_ bytes: [UInt8]?) -> JSONValue {
        guard let bytes, let profile = try? ICCProfile(bytes: bytes), let text = profile.profileDescription else { return .null }
        return .string(text)
    }

    static func frameJSON(_ f: FrameProperties) -> JSONValue {
        .object([
            ("x", .int(f.x)), ("y", .int(f.y)), ("width", .int(f.width)), ("height", .int(f.height)),
            ("duration", .number(f.duration * 1000)), ("unclampedDuration", .number(f.unclampedDuration * 1000)),
            ("disposal", .string(f.disposal.rawValue)), ("blend", .string(f.blend.rawValue)),
            ("hasAlpha", .bool(f.hasAlpha)),
        ])
    }
}

/// The little JSON this tool prints, with keys in a fixed order.
indirect enum JSONValue {
    case string(String), int(Int), number(Double), bool(Bool), array([JSONValue]), object([(String, JSONValue)]), null

    var rendered: String {
        switch self {
        case .string(let s): return "\"" + s.unicodeScalars.map(Self.escape).joined() + "\""
        case .int(let i): return String(i)
        case .number(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case .bool(let b): return b ? "true" : "false"
        case .null: return "null"
        case .array(let a): return "[" + a.map(\.rendered).joined(separator: ", ") + "]"
        case .object(let o): return "{" + o.map { "\"\($0.0)\": \($0.1.rendered)" }.joined(separator: ", ") + "}"
        }
    }

    private static func escape(_ c: Unicode.Scalar) -> String {
        switch c {
        case "\"": "\\\""
        case "\\": "\\\\"
        case _ where c.value < 0x20: "\\u" + String(repeating: "0", count: 4 - String(c.value, radix: 16).count) + String(c.value, radix: 16)
        default: String(c)
        }
    }
}
