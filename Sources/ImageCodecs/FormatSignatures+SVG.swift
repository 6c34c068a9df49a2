extension FormatSignatures {
    /// An SVG document (SVG 1.1 §5.1, XML 1.0 §2.8): an optional UTF-8 byte order mark, then
    /// only white space, the XML declaration and processing instructions, comments and a
    /// document type declaration before an `svg` root element. Reads no further than the bytes
    /// given (at most ``CoderRegistry/sniffLength``); an XML file whose root is not `svg`, or
    /// whose prolog does not end within them, is not named.
    static func svg(_ p: UnsafeBufferPointer<UInt8>) -> SniffResult {
        var i = 0
        if p.count >= 1, p[0] == 0xEF {
            let bom = SniffResult.comparing(p, with: [0xEF, 0xBB, 0xBF])
            guard bom == .match else { return bom }
            i = 3
        }
        while true {
            while i < p.count, [0x20, 0x09, 0x0D, 0x0A].contains(p[i]) { i += 1 }
            guard i < p.count else { return .needMoreData }
            guard p[i] == UInt8(ascii: "<") else { return .noMatch }
            switch startsWith(p, i, "<svg") {
            case .match:
                guard i + 4 < p.count else { return .needMoreData }
                return [0x20, 0x09, 0x0D, 0x0A, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(p[i + 4]) ? .match : .noMatch
            case .needMoreData:
                return .needMoreData
            case .noMatch:
                break
            }
            let end: Int?
            if startsWith(p, i, "<?") == .match {
                end = find(p, from: i + 2, "?>")
            } else if startsWith(p, i, "<!--") == .match {
                end = find(p, from: i + 4, "-->")
            } else if startsWith(p, i, "<!DOCTYPE") == .match {
                end = doctypeEnd(p, from: i + 9)
            } else {
                let open = ["<?", "<!--", "<!DOCTYPE"].contains { startsWith(p, i, $0) == .needMoreData }
                return open ? .needMoreData : .noMatch
            }
            guard let end else { return .needMoreData }
            i = end
        }
    }

    /// Past the `>` that ends a document type declaration, skipping an internal subset in `[ ]`.
    private static func doctypeEnd(_ p: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var i = start, inSubset = false
        while i < p.count {
            switch p[i] {
            case UInt8(ascii: "["): inSubset = true
            case UInt8(ascii: "]"): inSubset = false
            case UInt8(ascii: ">") where !inSubset: return i + 1
            default: break
            }
            i += 1
        }
        return nil
    }

    /// Past the first `text` at or after `start`, or nil.
    private static func find(_ p: UnsafeBufferPointer<UInt8>, from start: Int, _ text: String) -> Int? {
        var i = start
        while i < p.count {
            if startsWith(p, i, text) == .match { return i + text.utf8.count }
            i += 1
        }
        return nil
    }

    private static func startsWith(_ p: UnsafeBufferPointer<UInt8>, _ offset: Int, _ text: String) -> SniffResult {
        var i = offset
        for byte in text.utf8 {
            guard i < p.count else { return .needMoreData }
            guard p[i] == byte else { return .noMatch }
            i += 1
        }
        return .match
    }
}
