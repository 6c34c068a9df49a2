/// Byte-for-byte comparison of RGBA8 outputs against libspng's.
struct Comparison {
    /// Nil when the two agree.
    let mismatch: String?

    init(_ candidate: [UInt8], reference: [UInt8], width: Int) {
        guard candidate.count == reference.count else {
            mismatch = "size \(candidate.count) bytes vs \(reference.count)"
            return
        }
        var differing = 0
        var first = -1
        var onlyUnderZeroAlpha = true
        candidate.withUnsafeBufferPointer { a in
            reference.withUnsafeBufferPointer { b in
                var i = 0
                while i + 4 <= a.count {
                    if a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2] || a[i + 3] != b[i + 3] {
                        differing += 1
                        if first < 0 { first = i / 4 }
                        if a[i + 3] != 0 || b[i + 3] != 0 { onlyUnderZeroAlpha = false }
                    }
                    i += 4
                }
            }
        }
        guard differing > 0 else {
            mismatch = nil
            return
        }
        let x = first % max(width, 1), y = first / max(width, 1)
        let a = Array(candidate[first * 4..<first * 4 + 4]), b = Array(reference[first * 4..<first * 4 + 4])
        mismatch = "\(differing) pixels differ, first at (\(x), \(y)): \(a) vs \(b)"
            + (onlyUnderZeroAlpha ? " (only colour under alpha 0)" : "")
    }
}
