/// How two RGBA8 buffers of the same size differ, pixel by pixel.
public struct PixelDifferences {
    /// Pixels whose four bytes are not all equal.
    public fileprivate(set) var count = 0
    /// Index of the first such pixel, -1 when none.
    public fileprivate(set) var first = -1
    /// True when every differing pixel has alpha 0 on both sides.
    public fileprivate(set) var onlyUnderZeroAlpha = true
    /// Differing pixels transparent in the candidate only, opaque (alpha > 0) in the candidate
    /// only, and the rest.
    public fileprivate(set) var candidateTransparent = 0
    public fileprivate(set) var candidateOpaque = 0
    public fileprivate(set) var colourOnly = 0
}

/// Byte-for-byte comparison of a decoder's RGBA8 output against the reference's.
public struct Comparison {
    /// Nil when the two agree.
    public let mismatch: String?

    /// `detail` adds to the report of differing pixels what matters to the caller.
    public init(_ candidate: [UInt8], reference: [UInt8], width: Int,
                detail: (PixelDifferences) -> String) {
        guard candidate.count == reference.count else {
            mismatch = "size \(candidate.count) bytes vs \(reference.count)"
            return
        }
        var differences = PixelDifferences()
        candidate.withUnsafeBufferPointer { a in
            reference.withUnsafeBufferPointer { b in
                var i = 0
                while i + 4 <= a.count {
                    if a[i] != b[i] || a[i + 1] != b[i + 1] || a[i + 2] != b[i + 2] || a[i + 3] != b[i + 3] {
                        differences.count += 1
                        if differences.first < 0 { differences.first = i / 4 }
                        if a[i + 3] != 0 || b[i + 3] != 0 { differences.onlyUnderZeroAlpha = false }
                        if a[i + 3] == 0 && b[i + 3] != 0 {
                            differences.candidateTransparent += 1
                        } else if a[i + 3] != 0 && b[i + 3] == 0 {
                            differences.candidateOpaque += 1
                        } else {
                            differences.colourOnly += 1
                        }
                    }
                    i += 4
                }
            }
        }
        guard differences.count > 0 else {
            mismatch = nil
            return
        }
        let first = differences.first
        let x = first % max(width, 1), y = first / max(width, 1)
        let a = Array(candidate[first * 4..<first * 4 + 4]), b = Array(reference[first * 4..<first * 4 + 4])
        mismatch = "\(differences.count) pixels differ, first at (\(x), \(y)): \(a) vs \(b)" + detail(differences)
    }
}

/// Our output against one reference decoder's, byte for byte, as notes for the report: a
/// `MISMATCH` line with the count of differing pixels, "no reference" when the reference
/// failed, nothing when they agree (or when ours failed: `measure` notes that already).
public func compareWithReference<Decoder: BenchDecoder>(_ outputs: [Decoder: [UInt8]], ours: Decoder, reference: Decoder,
                                                        width: Int, height: Int) -> [String] {
    guard let expected = outputs[reference] else { return ["no reference: \(reference.name) failed"] }
    guard let candidate = outputs[ours] else { return [] }
    let comparison = Comparison(candidate, reference: expected, width: width) { differences in
        "; \(differences.count) of \(width * height) pixels"
    }
    return comparison.mismatch.map { ["MISMATCH \(ours.name) vs \(reference.name): \($0)"] } ?? []
}
