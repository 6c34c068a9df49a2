/// The marker codes of ITU T.81 Table B.1 that the decoder reads: the byte after 0xFF.
enum JPEGMarker {
    /// Start of frame, Huffman coding: baseline (SOF0), extended sequential (SOF1), progressive (SOF2).
    static let sof0: UInt8 = 0xC0
    static let sof1: UInt8 = 0xC1
    static let sof2: UInt8 = 0xC2
    /// Start of frame, arithmetic coding: extended sequential (SOF9), progressive (SOF10).
    static let sof9: UInt8 = 0xC9
    static let sof10: UInt8 = 0xCA
    /// Define Huffman tables (B.2.4.2).
    static let dht: UInt8 = 0xC4
    /// Define arithmetic coding conditioning (B.2.4.3).
    static let dac: UInt8 = 0xCC
    /// For temporary private use in arithmetic coding (TEM, B.1.1.3): a marker without a length.
    static let tem: UInt8 = 0x01
    /// Restart with modulo 8 count m: RST0…RST7 (B.2.1).
    static let rst0: UInt8 = 0xD0
    static let rst7: UInt8 = 0xD7
    /// Start of image, end of image, start of scan.
    static let soi: UInt8 = 0xD8
    static let eoi: UInt8 = 0xD9
    static let sos: UInt8 = 0xDA
    /// Define quantization tables (B.2.4.1), define number of lines (B.2.5), define restart interval (B.2.4.4).
    static let dqt: UInt8 = 0xDB
    static let dnl: UInt8 = 0xDC
    static let dri: UInt8 = 0xDD
    /// Application segments APP0…APP15 and comment.
    static let app0: UInt8 = 0xE0
    static let app15: UInt8 = 0xEF
    static let com: UInt8 = 0xFE

    /// Whether `code` starts a frame of a process this decoder does not implement: lossless
    /// (SOF3, SOF7, SOF11, SOF15) and hierarchical (SOF5–7, SOF13–15) frames.
    static func isUnsupportedFrame(_ code: UInt8) -> Bool {
        [0xC3, 0xC5, 0xC6, 0xC7, 0xCB, 0xCD, 0xCE, 0xCF].contains(code)
    }

    /// Whether `code` is RST0…RST7.
    static func isRestart(_ code: UInt8) -> Bool { code >= rst0 && code <= rst7 }
}
