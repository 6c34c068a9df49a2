import CodecCore

/// Writes a coded key frame: the frame tag and key-frame header (RFC 6386 9.1, 19.1), the
/// first partition (frame header 19.2, macroblock headers 19.3) and the token partitions (9.5,
/// 13), from the macroblocks' `info` and `levels` (see ``VP8MacroblockCoder``) and their
/// segments.
struct VP8FrameWriter {
    let mbWidth: Int, mbHeight: Int
    let info: [UInt8]
    let levels: [Int16]
    let segments: VP8SegmentPlan

    /// The frame's bytes.
    func frame(width: Int, height: Int, sharpness: Int) throws(EncodingError) -> [UInt8] {
        let count = mbWidth * mbHeight
        var skipped = 0
        for i in 0..<count where info[i * VP8MacroblockCoder.infoSize] & 2 != 0 { skipped += 1 }
        // mb_no_coeff_skip only when some macroblock has no coefficients (RFC 6386 9.11).
        let skipProbability = skipped == 0 ? nil : min(255, max(1, (count - skipped) * 256 / count))
        var counters = [VP8TokenCounter()]
        emitTokens(into: &counters, usesSkip: skipProbability != nil)
        let probabilities = Self.updatedProbabilities(counters[0].counts)
        let log2Parts = count >= 4096 ? 2 : 0
        var parts = [VP8TokenEncoder](repeating: VP8TokenEncoder(probabilities: probabilities.values),
                                      count: 1 << log2Parts)
        emitTokens(into: &parts, usesSkip: skipProbability != nil)
        var first = VP8BoolEncoder()
        let treeProbabilities = segmentTreeProbabilities()
        writeFrameHeader(&first, sharpness: sharpness, treeProbabilities: treeProbabilities, log2Parts: log2Parts,
                         probabilities: probabilities, skipProbability: skipProbability)
        writeMacroblockHeaders(&first, treeProbabilities: treeProbabilities, skipProbability: skipProbability)
        let firstBytes = first.finish()
        guard firstBytes.count < 1 << 19 else { throw .limitExceeded("VP8 first partition is larger than 512 KiB") }
        var out: [UInt8] = []
        let tag = (1 << 4) | (firstBytes.count << 5)  // key frame, version 0, shown
        out += [UInt8(tag & 0xFF), UInt8((tag >> 8) & 0xFF), UInt8(tag >> 16), 0x9D, 0x01, 0x2A,
                UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8)]
        out += firstBytes
        var partBytes = parts.map { var p = $0; return p.encoder.finish() }
        for p in partBytes.dropLast() {
            guard p.count < 1 << 24 else { throw .limitExceeded("VP8 token partition is larger than 16 MiB") }
            out += [UInt8(p.count & 0xFF), UInt8((p.count >> 8) & 0xFF), UInt8(p.count >> 16)]
        }
        for i in partBytes.indices { out += partBytes[i]; partBytes[i] = [] }
        return out
    }

    /// Walks the macroblocks' tokens in decoding order (RFC 6386 13.3, the mirror of
    /// ``VP8Decoder/readResiduals``), row `mbY` going to partition `mbY mod count` (9.5).
    func emitTokens<S: VP8TokenSink>(into sinks: inout [S], usesSkip: Bool) {
        var nonZero = [UInt8](repeating: 0, count: mbWidth * 9 + 9)
        levels.withUnsafeBufferPointer { lb in
        nonZero.withUnsafeMutableBufferPointer { nb in
            let nz = nb.baseAddress!
            for mbY in 0..<mbHeight {
                let left = nz + mbWidth * 9
                left.update(repeating: 0, count: 9)
                let part = mbY & (sinks.count - 1)
                for mbX in 0..<mbWidth {
                    let index = mbY * mbWidth + mbX
                    let flags = info[index * VP8MacroblockCoder.infoSize]
                    let isSubblock = flags & 1 != 0
                    let top = nz + mbX * 9
                    if usesSkip && flags & 2 != 0 {
                        top.update(repeating: 0, count: 8)
                        left.update(repeating: 0, count: 8)
                        if !isSubblock { top[8] = 0; left[8] = 0 }
                        continue
                    }
                    Self.emitMacroblock(&sinks[part], lb.baseAddress! + index * VP8MacroblockCoder.levelsSize,
                                        isSubblock: isSubblock, top: top, left: left)
                }
            }
        }}
    }

    static func emitMacroblock<S: VP8TokenSink>(_ sink: inout S, _ levels: UnsafePointer<Int16>, isSubblock: Bool,
                                                top: UnsafeMutablePointer<UInt8>, left: UnsafeMutablePointer<UInt8>) {
        var first = 0
        var yType = 3
        if !isSubblock {
            let nz = VP8TokenWriter.writeBlock(&sink, levels + 384, type: 1, context: Int(top[8]) + Int(left[8]), first: 0)
            top[8] = nz ? 1 : 0
            left[8] = nz ? 1 : 0
            first = 1
            yType = 0
        }
        for y in 0..<4 {
            var l = left[y]
            for x in 0..<4 {
                let nz = VP8TokenWriter.writeBlock(&sink, levels + 16 * (y * 4 + x), type: yType,
                                                   context: Int(l) + Int(top[x]), first: first)
                l = nz ? 1 : 0
                top[x] = l
            }
            left[y] = l
        }
        for plane in 0..<2 {
            let ctxBase = 4 + plane * 2
            for y in 0..<2 {
                var l = left[ctxBase + y]
                for x in 0..<2 {
                    let block = 16 + plane * 4 + y * 2 + x
                    let nz = VP8TokenWriter.writeBlock(&sink, levels + 16 * block, type: 2,
                                                       context: Int(l) + Int(top[ctxBase + x]), first: 0)
                    l = nz ? 1 : 0
                    top[ctxBase + x] = l
                }
                left[ctxBase + y] = l
            }
        }
    }

    /// RFC 6386 13.4: for each coefficient probability, the probability the frame's counts ask
    /// for, taken when its cost plus the update's (the flag and 8 bits) is below the default's.
    static func updatedProbabilities(_ counts: [UInt32]) -> (values: [UInt8], updates: [Bool]) {
        var values = VP8Tables.defaultCoefficientProbabilities
        var updates = [Bool](repeating: false, count: values.count)
        let updateProbabilities = VP8Tables.coefficientUpdateProbabilities
        for i in 0..<values.count {
            let zeros = Int(counts[2 * i]), ones = Int(counts[2 * i + 1])
            let total = zeros + ones
            guard total > 0 else { continue }
            let old = Int(values[i])
            let new = min(255, max(1, (zeros * 256 + total / 2) / total))
            let u = Int(updateProbabilities[i])
            let oldCost = Self.branchCost(zeros, ones, old) + VP8ModeCost.cost(false, u)
            let newCost = Self.branchCost(zeros, ones, new) + VP8ModeCost.cost(true, u) + 8
            if newCost < oldCost {
                values[i] = UInt8(new)
                updates[i] = true
            }
        }
        return (values, updates)
    }

    static func branchCost(_ zeros: Int, _ ones: Int, _ probability: Int) -> Double {
        Double(zeros) * VP8ModeCost.cost(false, probability) + Double(ones) * VP8ModeCost.cost(true, probability)
    }
}
