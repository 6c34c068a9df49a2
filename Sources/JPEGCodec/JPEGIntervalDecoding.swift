import CodecCore

/// What the Huffman and arithmetic scan decoders share: walking a scan's MCUs through its
/// restart intervals (T.81 B.1.1.5, E.1.4), a run of MCUs at a time, each run ending at the
/// interval's end, at `limit`, or where the staged data no longer covers ``margin``. Each coding
/// supplies how a run is decoded, what a restart resets, and when an interval has no data left.
protocol JPEGIntervalDecoding {
    var stream: JPEGEntropyStream { get set }
    /// MCUs per restart interval (0: none), and those left in the current one.
    var restartInterval: Int { get }
    var restartsToGo: Int { get set }
    var nextMCU: Int { get set }
    var mcuCount: Int { get }
    /// The most staged bytes one MCU can read.
    var margin: Int { get }
    /// The current interval has no data left: its remaining MCUs stay as they are.
    var intervalExhausted: Bool { get }
    /// Resets what a restart resets (predictions, statistics, end-of-band run).
    mutating func restartEntropyCoding()
    /// Decodes MCUs from ``nextMCU`` (at least one, whose margin the caller has checked) up to
    /// `runEnd` into `store`; returns how many.
    mutating func decodeRun(upTo runEnd: Int, dataEnded: Bool, _ store: JPEGBlockStore) -> Int
}

extension JPEGIntervalDecoding {
    /// Starts over at the beginning of restart interval `k`, whose data begins at `position`
    /// (just after the RSTn marker that ends interval k − 1): the state a restart leaves, the
    /// next marker expected that after interval k.
    mutating func seek(toInterval k: Int, at position: Int) {
        stream.seek(toInterval: k, at: position)
        restartEntropyCoding()
        restartsToGo = restartInterval
        nextMCU = k * restartInterval
    }

    /// Decodes MCUs while their data has arrived, up to MCU `limit` (exclusive), into `store`.
    /// Returns whether any MCU was decoded.
    mutating func decode(_ input: InputBuffer, into store: JPEGBlockStore, until limit: Int) -> Bool {
        let start = nextMCU
        let end = min(limit, mcuCount)
        stream.stage(input)
        while nextMCU < end {
            if restartInterval > 0 && restartsToGo == 0 {
                guard stream.restart(input) else { break }
                restartEntropyCoding()
                restartsToGo = restartInterval
            }
            let runEnd = restartInterval > 0 ? min(end, nextMCU + restartsToGo) : end
            let count: Int
            if intervalExhausted {
                count = runEnd - nextMCU
            } else {
                if !stream.canDecode(margin: margin, inputFinal: false, inputCount: input.count) { stream.stage(input) }
                guard stream.canDecode(margin: margin, inputFinal: input.isFinal, inputCount: input.count) else { break }
                let ended = stream.isDataEnded(inputFinal: input.isFinal, inputCount: input.count)
                count = decodeRun(upTo: runEnd, dataEnded: ended, store)
            }
            restartsToGo -= count
            nextMCU += count
        }
        return nextMCU > start
    }
}
