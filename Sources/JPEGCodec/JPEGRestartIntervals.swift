import CodecCore

/// Where each restart interval's entropy-coded data begins (T.81 B.1.1.5 and E.1.4: an RSTn
/// marker ends every interval but the last, n counting 0 to 7 and round again), so that
/// intervals can be decoded apart, each from its own start, as libjpeg decodes them in turn.
enum JPEGRestartIntervals {
    /// The first byte of each of `count` intervals of the data from `start` to `end` (where
    /// the marker that ends the scan lies): `start`, then the byte after each RSTn. Nil unless
    /// the data holds RST0, RST1, … in order, at least `count − 1` of them: any other sequence
    /// makes libjpeg resynchronise (``JPEGEntropyStream/restart(_:)``), which only a decoder
    /// walking the intervals in turn follows.
    static func starts(in input: InputBuffer, from start: Int, to end: Int, count: Int) -> [Int]? {
        var starts = [start]
        starts.reserveCapacity(count)
        var position = start
        while starts.count < count && position < end {
            let found = input.withContiguousRun(from: position, to: end) { run -> Int in
                guard let base = run.baseAddress else { return 0 }
                return ByteSearch.firstFF(base, count: run.count)
            }
            position += found
            guard position < end, input.u8(at: position) == 0xFF else { continue }
            var next = position + 1
            while input.u8(at: next) == 0xFF { next += 1 }
            guard let code = input.u8(at: next) else { return nil }
            position = next + 1
            if code == 0 { continue }
            guard code == JPEGMarker.rst0 + UInt8((starts.count - 1) & 7) else { return nil }
            starts.append(position)
        }
        return starts.count == count ? starts : nil
    }
}
