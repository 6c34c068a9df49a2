#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ImageCodecs

/// Exit statuses of DESIGN.md's command-line contract.
enum ExitStatus {
    static let complete: Int32 = 0
    static let invalid: Int32 = 1
    static let truncated: Int32 = 3
}

func printError(_ kind: String, _ detail: String) {
    writeStandardError("error: \(kind): \(detail)\n")
}

/// Writes `text` to the standard error (file descriptor 2).
func writeStandardError(_ text: String) {
    var text = text
    text.withUTF8 { utf8 in _ = write(2, utf8.baseAddress, utf8.count) }
}

/// Reads a whole file into one buffer (no intermediate `Data`), or leaves with status 1.
func readFile(_ path: String) throws -> [UInt8] {
    let fd = open(path, O_RDONLY)
    var info = stat()
    guard fd >= 0, fstat(fd, &info) == 0, let bytes = readAll(fd, size: Int(info.st_size)) else {
        if fd >= 0 { close(fd) }
        printError("io", "cannot read \(path)")
        throw CLIExit(status: ExitStatus.invalid)
    }
    close(fd)
    return bytes
}

/// A file read a piece at a time, as a download arrives: `feed` holds no copy of the whole
/// file beside the source's. Pieces of 64 KiB or more are read straight into arrays of their
/// own (which the source keeps without copying); smaller ones come from a 64 KiB buffer.
final class FilePieces {
    let size: Int
    private(set) var offset = 0
    private let fd: Int32
    private var buffer: [UInt8] = []
    private var bufferStart = 0

    /// Opens `path`, or leaves with status 1.
    init(_ path: String) throws {
        fd = open(path, O_RDONLY)
        var info = stat()
        guard fd >= 0, fstat(fd, &info) == 0 else {
            if fd >= 0 { close(fd) }
            printError("io", "cannot read \(path)")
            throw CLIExit(status: ExitStatus.invalid)
        }
        size = Int(info.st_size)
    }

    deinit { close(fd) }

    /// The next piece of at most `count` bytes; empty at the end or on a read error.
    func next(_ count: Int) -> [UInt8] {
        let n = min(count, size - offset)
        guard n > 0 else { return [] }
        if n >= 1 << 16 {
            let piece = readAll(fd, size: n) ?? []
            offset += piece.count
            return piece
        }
        if bufferStart + n > buffer.count {
            let rest = buffer[bufferStart...]
            buffer = Array(rest) + (readAll(fd, size: min(1 << 16, size - offset - rest.count)) ?? [])
            bufferStart = 0
        }
        let piece = Array(buffer[bufferStart..<min(buffer.count, bufferStart + n)])
        bufferStart += piece.count
        offset += piece.count
        return piece
    }
}

/// The `size` bytes of an open file, or nil on a read error or if the file changed size.
private func readAll(_ fd: Int32, size: Int) -> [UInt8]? {
    var failed = false
    let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
        while initialized < size {
            let n = read(fd, buffer.baseAddress! + initialized, size - initialized)
            guard n > 0 else { failed = n < 0; break }
            initialized += n
        }
    }
    return failed || bytes.count != size ? nil : bytes
}

/// Ends for a source that failed or is truncated, after its output: status 1 with the error,
/// status 3 for truncation, nothing for a complete source.
func finish(_ source: ImageSource) throws {
    switch source.status {
    case .complete:
        return
    case .unknownType:
        printError("unknownType", "no coder recognises the data")
        throw CLIExit(status: ExitStatus.invalid)
    case .invalidData:
        fail(source.error)
    default:
        printError("truncated", "the input ends before the image does")
        throw CLIExit(status: ExitStatus.truncated)
    }
}

/// Leaves with the status for `error`.
func fail(_ error: DecodingError?) -> Never {
    guard let error else {
        printError("invalidData", "decoding failed")
        exit(ExitStatus.invalid)
    }
    printError(error.kind.rawValue, error.detail.description)
    exit(error.kind == .truncated ? ExitStatus.truncated : ExitStatus.invalid)
}

/// Leaves with status 1 if the source was refused before anything could be shown.
func requireRecognised(_ source: ImageSource) throws {
    if source.status == .unknownType || (source.status == .invalidData && source.count == 0) {
        try finish(source)
    }
}

/// "INDEX WxH SHA256" for every frame, as `hash` and `feed` print them; `known` holds the
/// lines of the first frames, already hashed (those past the source's count, which can drop
/// while a file arrives, are not printed).
func printFrameHashes(_ source: ImageSource, known: [String] = []) {
    let count = source.count
    let known = known.prefix(count)
    known.forEach { print($0) }
    for index in known.count..<count {
        do {
            print(try frameHashLine(source, index))
        } catch {
            fail(error)
        }
    }
}

/// The hash line of frame `index`.
func frameHashLine(_ source: ImageSource, _ index: Int) throws(DecodingError) -> String {
    let image = try source.image(at: index)
    return "\(index) \(image.width)x\(image.height) \(CanonicalHash.hex(image))"
}
