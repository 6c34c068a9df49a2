import CodecCore

/// The entropy decoder of one scan, by the frame's coding (T.81 Table B.1): Huffman (SOF0–2)
/// or arithmetic (SOF9–10). The pixel decoder drives either through these members; each case
/// decodes whole MCUs in its own hot loop, so the switch here runs once per call.
enum JPEGScanDecoder {
    case huffman(JPEGHuffmanScanDecoder)
    case arithmetic(JPEGArithmeticScanDecoder)
    /// Held only while a decoder is lent out to ``decode(_:into:until:)``, so that its buffers
    /// stay uniquely referenced and are changed in place.
    case lent

    /// The decoder for `scan` of `frame`; refuses what libjpeg-turbo refuses when a scan starts.
    init(frame: JPEGFrameHeader, scan: JPEGScan) throws(DecodingError) {
        self = frame.isArithmetic ? .arithmetic(try JPEGArithmeticScanDecoder(frame: frame, scan: scan))
            : .huffman(try JPEGHuffmanScanDecoder(frame: frame, scan: scan))
    }

    /// Decodes MCUs while their data has arrived, up to MCU `limit` (exclusive), into `store`.
    /// Returns whether any MCU was decoded.
    mutating func decode(_ input: InputBuffer, into store: JPEGBlockStore, until limit: Int) -> Bool {
        switch self {
        case .huffman(var decoder):
            self = .lent
            defer { self = .huffman(decoder) }
            return decoder.decode(input, into: store, until: limit)
        case .arithmetic(var decoder):
            self = .lent
            defer { self = .arithmetic(decoder) }
            return decoder.decode(input, into: store, until: limit)
        case .lent:
            return false
        }
    }

    /// ``decode(_:into:until:)`` into `coefficients`.
    mutating func decode(_ input: InputBuffer, into coefficients: inout JPEGCoefficients, until limit: Int) -> Bool {
        coefficients.withStore { decode(input, into: $0, until: limit) }
    }

    /// Starts over at restart interval `k`, whose data begins at `position`
    /// (``JPEGIntervalDecoding/seek(toInterval:at:)``).
    mutating func seek(toInterval k: Int, at position: Int) {
        switch self {
        case .huffman(var decoder):
            self = .lent
            decoder.seek(toInterval: k, at: position)
            self = .huffman(decoder)
        case .arithmetic(var decoder):
            self = .lent
            decoder.seek(toInterval: k, at: position)
            self = .arithmetic(decoder)
        case .lent:
            break
        }
    }

    /// MCUs per restart interval (0: none).
    var restartInterval: Int {
        switch self {
        case .huffman(let d): d.restartInterval
        case .arithmetic(let d): d.restartInterval
        case .lent: 0
        }
    }

    var isFinished: Bool {
        switch self {
        case .huffman(let d): d.isFinished
        case .arithmetic(let d): d.isFinished
        case .lent: false
        }
    }

    /// The next MCU to decode (in the scan's MCU grid).
    var nextMCU: Int {
        switch self {
        case .huffman(let d): d.nextMCU
        case .arithmetic(let d): d.nextMCU
        case .lent: 0
        }
    }

    /// MCUs in the scan.
    var mcuCount: Int {
        switch self {
        case .huffman(let d): d.mcuCount
        case .arithmetic(let d): d.mcuCount
        case .lent: 0
        }
    }

    /// The last MCU begun with data left (libjpeg's `last_good_iMCU_row`, by MCU); libjpeg's
    /// arithmetic decoder never runs out of data, so there it is the MCU reached.
    var lastGoodMCU: Int {
        switch self {
        case .huffman(let d): d.lastGoodMCU
        case .arithmetic(let d): d.nextMCU
        case .lent: 0
        }
    }

    /// MCUs per line of the scan.
    var mcusPerLine: Int {
        switch self {
        case .huffman(let d): d.mcusPerLine
        case .arithmetic(let d): d.mcusPerLine
        case .lent: 1
        }
    }
}
