import CodecCore

extension VP8LHuffmanCode {
    /// Writes the code's lengths (RFC 9649 3.7.2.1): a simple code when at most two symbols
    /// are used and all are below 256 (the second, if any, written in 8 bits), else a normal
    /// code whose lengths are run-length coded with the code length code (symbols 16, 17, 18),
    /// trailing zeros cut by `max_symbol` when that is shorter.
    func writeHeader(to writer: inout LSBBitWriter) {
        var symbols: [Int] = []
        for s in lengths.indices where lengths[s] != 0 {
            symbols.append(s)
            if symbols.count > 2 { break }
        }
        if symbols.isEmpty { symbols = [0] }
        if symbols.count <= 2 && symbols.allSatisfy({ $0 < 256 }) {
            writer.write(1, 1)
            writer.write(UInt32(symbols.count - 1), 1)
            if symbols[0] < 2 {
                writer.write(0, 1)
                writer.write(UInt32(symbols[0]), 1)
            } else {
                writer.write(1, 1)
                writer.write(UInt32(symbols[0]), 8)
            }
            if symbols.count == 2 { writer.write(UInt32(symbols[1]), 8) }
            return
        }
        writer.write(0, 1)
        Self.writeNormalLengths(lengths, to: &writer)
    }

    /// One token of the run-length coded lengths: a code length code symbol and its extra bits.
    struct LengthToken {
        var symbol: UInt8
        var extra: UInt8
    }

    /// RFC 9649 3.7.2.1.2: the lengths as code length code symbols. A run of a non-zero length
    /// writes it once, then 16 (repeat the previous length 3–6 times); runs of zeros use 17
    /// (3–10) and 18 (11–138).
    static func lengthTokens(_ lengths: [UInt8]) -> [LengthToken] {
        var tokens: [LengthToken] = []
        var i = 0
        let n = lengths.count
        while i < n {
            let value = lengths[i]
            var run = 1
            while i + run < n && lengths[i + run] == value { run += 1 }
            i += run
            if value == 0 {
                while run >= 11 {
                    let r = min(run, 138)
                    tokens.append(LengthToken(symbol: 18, extra: UInt8(r - 11)))
                    run -= r
                }
                if run >= 3 {
                    tokens.append(LengthToken(symbol: 17, extra: UInt8(run - 3)))
                    run = 0
                }
            } else {
                tokens.append(LengthToken(symbol: value, extra: 0))
                run -= 1
                while run >= 3 {
                    let r = min(run, 6)
                    tokens.append(LengthToken(symbol: 16, extra: UInt8(r - 3)))
                    run -= r
                }
            }
            for _ in 0..<run { tokens.append(LengthToken(symbol: value, extra: 0)) }
        }
        return tokens
    }

    /// Extra bits of code length code symbols 16, 17, 18.
    static func extraBits(_ symbol: UInt8) -> Int {
        symbol < 16 ? 0 : VP8LPrefixCode.repeatExtraBits[Int(symbol) - 16]
    }

    /// Writes the normal code of `lengths`: the code length code, `max_symbol`, the tokens.
    static func writeNormalLengths(_ lengths: [UInt8], to writer: inout LSBBitWriter) {
        let tokens = lengthTokens(lengths)
        var trimmed = tokens.count
        while trimmed > 0 && (tokens[trimmed - 1].symbol == 0 || tokens[trimmed - 1].symbol >= 17) { trimmed -= 1 }
        // `max_symbol` counts tokens and is at least 2.
        let useTrim = trimmed < tokens.count && trimmed >= 2
        let count = useTrim ? trimmed : tokens.count
        var histogram = [UInt32](repeating: 0, count: 19)
        for t in tokens[0..<count] { histogram[Int(t.symbol)] += 1 }
        let code = histogram.withUnsafeBufferPointer { VP8LHuffmanCode(histogram: $0, maxLength: 7) }
        let order = VP8LPrefixCode.codeLengthCodeOrder
        var numCodes = 4
        for (i, symbol) in order.enumerated() where code.lengths[symbol] != 0 { numCodes = max(numCodes, i + 1) }
        writer.write(UInt32(numCodes - 4), 4)
        for i in 0..<numCodes { writer.write(UInt32(code.lengths[order[i]]), 3) }
        if useTrim {
            writer.write(1, 1)
            var lengthBits = 2
            while (count - 2) >= 1 << lengthBits { lengthBits += 2 }
            writer.write(UInt32((lengthBits - 2) / 2), 3)
            writer.write(UInt32(count - 2), lengthBits)
        } else {
            writer.write(0, 1)
        }
        for t in tokens[0..<count] {
            code.write(Int(t.symbol), to: &writer)
            let extra = extraBits(t.symbol)
            if extra > 0 { writer.write(UInt32(t.extra), extra) }
        }
    }
}
