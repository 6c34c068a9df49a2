/// The bytes of one image as they arrive: append-only, addressed by absolute position.
///
/// Decoders remember positions into this buffer and resume from them, so every byte is
/// parsed once however the input is split. Reads return `nil` when the bytes are not there
/// yet; whether that is a suspension or a truncation depends on ``isFinal``.
///
/// The bytes are held as segments, never re-copied when more arrive (as `CFData` grown by
/// appends would be): an append of at least ``segmentCapacity`` bytes becomes a segment of its
/// own (an `Array` is shared, not copied), and smaller appends are gathered into a tail segment
/// of that capacity. Small reads (headers, chunk lengths) see one address space; the bulk
/// readers (inflate, the LZW staging, bit readers) walk the segments run by run with
/// ``withContiguousRun(from:to:_:)``.
public struct InputBuffer: Sendable {
    /// The held bytes, in order; `starts[i]` is the absolute position of `segments[i][0]`.
    private var segments: [[UInt8]] = []
    private var starts: [Int] = []
    /// The last segment was made here to gather small appends, so appending to it in place
    /// copies nothing that the caller still holds.
    private var tailGathers = false
    /// Bytes held.
    public private(set) var count = 0
    /// No more bytes will come.
    public private(set) var isFinal = false

    /// Appends smaller than this are gathered into a tail segment of this capacity.
    public static let segmentCapacity = 1 << 16

    /// An empty buffer, not final.
    public init() {}

    /// A buffer holding `bytes`, final or not.
    public init(_ bytes: some Collection<UInt8>, isFinal: Bool) {
        append(bytes)
        self.isFinal = isFinal
    }

    /// The number of segments the bytes are held in.
    public var segmentCount: Int { segments.count }

    /// Adds bytes after those held, copying each byte at most once.
    public mutating func append(_ more: some Collection<UInt8>) {
        let n = more.count
        guard n > 0 else { return }
        if tailGathers, let last = segments.indices.last, segments[last].capacity - segments[last].count >= n {
            segments[last].append(contentsOf: more)
        } else if n >= Self.segmentCapacity {
            segments.append(Array(more))
            starts.append(count)
            tailGathers = false
        } else {
            var tail = [UInt8]()
            tail.reserveCapacity(Self.segmentCapacity)
            tail.append(contentsOf: more)
            segments.append(tail)
            starts.append(count)
            tailGathers = true
        }
        count += n
    }

    /// Declares that no more bytes will come: short reads are truncation from now on.
    public mutating func markFinal() { isFinal = true }

    /// The segment holding `position`, which lies in `0..<count`.
    func segment(holding position: Int) -> Int {
        var low = 0, high = starts.count - 1
        if position >= starts[high] { return high }
        while low < high {
            let mid = (low + high + 1) / 2
            if starts[mid] <= position { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The byte at `position`, or nil if it has not arrived.
    public func u8(at position: Int) -> UInt8? {
        guard position >= 0 && position < count else { return nil }
        let s = segment(holding: position)
        return segments[s][position - starts[s]]
    }

    /// A big-endian 32-bit value at `position`, or nil if short.
    public func u32BE(at position: Int) -> UInt32? {
        guard has(4, at: position) else { return nil }
        var value: UInt32 = 0
        for i in 0..<4 { value = value << 8 | UInt32(self[position + i]) }
        return value
    }

    /// A big-endian 16-bit value at `position`, or nil if short.
    public func u16BE(at position: Int) -> UInt16? {
        guard has(2, at: position) else { return nil }
        return UInt16(self[position]) << 8 | UInt16(self[position + 1])
    }

    /// A little-endian 32-bit value at `position`, or nil if short.
    public func u32LE(at position: Int) -> UInt32? {
        guard has(4, at: position) else { return nil }
        var value: UInt32 = 0
        for i in (0..<4).reversed() { value = value << 8 | UInt32(self[position + i]) }
        return value
    }

    /// A little-endian 16-bit value at `position`, or nil if short.
    public func u16LE(at position: Int) -> UInt16? {
        guard has(2, at: position) else { return nil }
        return UInt16(self[position]) | UInt16(self[position + 1]) << 8
    }

    /// The byte at `position`, which the caller has checked with ``has(_:at:)``.
    private subscript(position: Int) -> UInt8 {
        let s = segment(holding: position)
        return segments[s][position - starts[s]]
    }

    /// Whether `count` bytes from `position` have arrived.
    public func has(_ count: Int, at position: Int) -> Bool {
        position >= 0 && count >= 0 && count <= self.count - position
    }

    /// A copy of `range` (clamped to what has arrived).
    public func copy(_ range: Range<Int>) -> [UInt8] {
        let range = clamped(range)
        var out = [UInt8]()
        out.reserveCapacity(range.count)
        forEachRun(range) { out.append(contentsOf: $0) }
        return out
    }

    /// Calls `body` with the bytes in `range` (clamped to what has arrived) in one buffer,
    /// copied when they span segments: for headers, colour tables and metadata, not for bulk data.
    public func withBytes<R, E: Error>(_ range: Range<Int>,
                                       _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        let range = clamped(range)
        if range.isEmpty { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        let s = segment(holding: range.lowerBound)
        if range.upperBound <= starts[s] + segments[s].count {
            return try withRun(s, range, body)
        }
        return try copy(range).withUnsafeBufferPointer { (p) throws(E) -> R in try body(p) }
    }

    /// Calls `body` with the bytes from `position` up to `end` (clamped to what has arrived)
    /// that lie in one segment: the longest run from `position` that needs no copy. Empty when
    /// `position` has not arrived.
    public func withContiguousRun<R, E: Error>(from position: Int, to end: Int,
                                               _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        let range = clamped(position..<max(position, end))
        if range.isEmpty { return try body(UnsafeBufferPointer(start: nil, count: 0)) }
        let s = segment(holding: range.lowerBound)
        return try withRun(s, range.lowerBound..<min(range.upperBound, starts[s] + segments[s].count), body)
    }

    /// Calls `body` with the bytes of `range` (clamped to what has arrived), one segment's run at
    /// a time, in order: for checksums over data that may span segments.
    public func forEachRun(_ range: Range<Int>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        var position = clamped(range).lowerBound
        let end = clamped(range).upperBound
        while position < end {
            position += withContiguousRun(from: position, to: end) { run in
                body(run)
                return run.count
            }
        }
    }

    private func withRun<R, E: Error>(_ s: Int, _ range: Range<Int>,
                                      _ body: (UnsafeBufferPointer<UInt8>) throws(E) -> R) throws(E) -> R {
        let offset = range.lowerBound - starts[s]
        return try segments[s].withUnsafeBufferPointer { (all) throws(E) -> R in
            try body(UnsafeBufferPointer(rebasing: all[offset..<(offset + range.count)]))
        }
    }

    private func clamped(_ range: Range<Int>) -> Range<Int> {
        let lower = min(max(range.lowerBound, 0), count)
        return lower..<min(max(range.upperBound, lower), count)
    }
}
