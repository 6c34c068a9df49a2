import CodecCore

/// One scan of the file: its header, the tables in force when it began, and where its
/// entropy-coded data lies.
struct JPEGScan {
    var header: JPEGScanHeader
    /// Per scan component: its DC and AC tables (T.81 B.2.4.2), as defined when the scan began;
    /// nil where the file defined none (libjpeg-turbo then uses the Annex K tables).
    var dcTables: [JPEGHuffmanSpec?]
    var acTables: [JPEGHuffmanSpec?]
    /// Ri (B.2.4.4): MCUs per restart interval, 0 for none.
    var restartInterval: Int
    /// The arithmetic coding conditioning (B.2.4.3) in force when the scan began.
    var conditioning: JPEGArithmeticConditioning
    /// The first byte of entropy-coded data, and the position of the marker that ends it
    /// (RSTn markers inside do not), once it has arrived.
    var dataStart: Int
    var dataEnd: Int?
}

/// The marker layer of a JPEG file (T.81 Annex B): a push parser that consumes a marker
/// segment only when it is whole, records each scan with the tables in force, and finds where
/// each scan's entropy-coded data ends, so that pixel decoding can follow as bytes arrive.
///
/// Error policy, after libjpeg-turbo: no SOI, a second SOF, a scan before the frame header,
/// malformed segments, and the unsupported processes (lossless, hierarchical, 12-bit) are errors
/// and sticky. Bytes between segments that are not a marker are skipped (libjpeg warns of
/// "extraneous bytes" and goes on); unknown markers with a length are skipped; APPn and COM go
/// to ``JPEGMetadata``. EOI ends the file; a file that ends without it is truncated.
package struct JPEGContainer: FrameContainer {
    enum State {
        /// The two bytes of SOI (B.2.1).
        case start
        /// Between segments: the next 0xFF and marker code.
        case marker
        /// Entropy-coded data of the last scan, up to the next marker that is not RSTn.
        case scanData
        /// EOI was read.
        case ended
    }

    private let options: DecodingOptions
    /// Where the image's SOI is: 0, or an MPO's later image (``JPEGMultiPicture``).
    let origin: Int
    /// The MP index of the first image, when it lists more than one.
    private(set) var multiPicture: JPEGMultiPicture?
    /// An APP1 segment declared an Ultra HDR gain map (``JPEGMultiPicture/declaresGainMap(_:)``).
    private(set) var declaresGainMap = false
    private(set) var frame: JPEGFrameHeader?
    private(set) var scans: [JPEGScan] = []
    private(set) var metadata = JPEGMetadata()
    /// Tables as currently defined (DQT, DHT, DRI).
    private(set) var quantizationTables: [[UInt16]?] = [nil, nil, nil, nil]
    private var dcTables: [JPEGHuffmanSpec?] = [nil, nil, nil, nil]
    private var acTables: [JPEGHuffmanSpec?] = [nil, nil, nil, nil]
    private var restartInterval = 0
    private var conditioning = JPEGArithmeticConditioning()
    /// Per frame component, the quantization table latched by its first scan (libjpeg-turbo
    /// keeps that one even if a later DQT redefines the slot).
    private(set) var latchedQuantization: [[UInt16]?] = []
    private(set) var state = State.start
    private var position = 0
    /// The blocks the scans so far walk over, together (``Limits/maxJPEGBlockPasses``).
    private var scannedBlocks = 0
    /// Counts the segments consumed; derived facts change only when it does.
    package private(set) var revision = 0

    init(options: DecodingOptions, origin: Int = 0) {
        self.options = options
        self.origin = origin
    }

    package var ended: Bool {
        if case .ended = state { return true }
        return false
    }

    /// Parses every whole segment, and scans entropy-coded data for its end, as far as the
    /// input goes.
    package mutating func parse(_ input: InputBuffer) throws(DecodingError) {
        while true {
            switch state {
            case .start:
                guard let a = input.u8(at: origin), let b = input.u8(at: origin + 1) else { return }
                guard a == 0xFF, b == JPEGMarker.soi else { throw .invalidData("JPEG does not start with SOI") }
                position = origin + 2
                state = .marker
            case .marker:
                guard let code = nextMarker(input) else { return }
                guard try segment(code, input) else { return }
                revision += 1
            case .scanData:
                guard let end = scanEnd(input) else { return }
                scans[scans.count - 1].dataEnd = end
                position = end
                state = .marker
                revision += 1
            case .ended:
                return
            }
        }
    }

    /// Skips to the next marker (0xFF, fill bytes 0xFF, then a code other than 0x00 and 0xFF)
    /// and returns its code with `position` at its 0xFF; nil when it has not arrived.
    private mutating func nextMarker(_ input: InputBuffer) -> UInt8? {
        while let byte = input.u8(at: position) {
            if byte != 0xFF { position += 1; continue }
            guard let code = input.u8(at: position + 1) else { return nil }
            if code == 0xFF || code == 0 { position += code == 0 ? 2 : 1; continue }
            return code
        }
        return nil
    }

    /// Handles the marker at `position`; returns false to wait for the rest of its segment.
    private mutating func segment(_ code: UInt8, _ input: InputBuffer) throws(DecodingError) -> Bool {
        switch code {
        case JPEGMarker.soi:
            throw .invalidData("JPEG has a second SOI")
        case JPEGMarker.eoi:
            // libjpeg-turbo: "JPEG datastream contains no image" without a frame header,
            // "missing SOS marker" with one but no scan; the file is whole, so not truncated.
            guard frame != nil else { throw .invalidData("JPEG datastream contains no image") }
            guard !scans.isEmpty else { throw .invalidData("JPEG frame has no scan before EOI (missing SOS marker)") }
            position += 2
            state = .ended
            return true
        case JPEGMarker.rst0...JPEGMarker.rst7, JPEGMarker.tem:
            position += 2   // a stray restart marker or TEM (B.1.1.3: no length): libjpeg ignores it
            return true
        default:
            break
        }
        guard let length = input.u16BE(at: position + 2).map(Int.init) else { return false }
        if length < 2 {
            // libjpeg skips an APPn, COM or unknown segment this short as just its length field.
            guard Self.isSkippable(code) else { throw .invalidData("JPEG marker segment length is below 2") }
            position += 4
            return true
        }
        guard input.has(length + 2, at: position) else { return false }
        let payload = input.copy((position + 4)..<(position + 2 + length))
        if code == JPEGMarker.app0 + 2, origin == 0, multiPicture == nil {
            multiPicture = JPEGMultiPicture(payload, payloadStart: position + 4)
        }
        if code == JPEGMarker.app0 + 1, origin == 0, !declaresGainMap {
            declaresGainMap = JPEGMultiPicture.declaresGainMap(payload)
        }
        position += 2 + length
        try handle(code, payload)
        if code == JPEGMarker.sos { state = .scanData }
        return true
    }

    private mutating func handle(_ code: UInt8, _ p: [UInt8]) throws(DecodingError) {
        switch code {
        case JPEGMarker.sof0, JPEGMarker.sof1, JPEGMarker.sof2, JPEGMarker.sof9, JPEGMarker.sof10:
            guard frame == nil else { throw .invalidData("JPEG has a second frame header") }
            let header = try JPEGFrameHeader(marker: code, p)
            guard header.height > 0 else { throw .unsupported("JPEG height given by DNL is not supported") }
            _ = try options.limits.checkedRasterBytes(width: header.width, height: header.height, bytesPerPixel: 4)
            guard JPEGCoefficients.bytes(for: header) <= options.limits.maxBytesHeld else {
                throw .limitExceeded("JPEG coefficient buffer exceeds Limits.maxBytesHeld")
            }
            frame = header
            latchedQuantization = [[UInt16]?](repeating: nil, count: header.components.count)
        case _ where JPEGMarker.isUnsupportedFrame(code):
            throw .unsupported("JPEG lossless and hierarchical processes are not supported")
        case JPEGMarker.dqt:
            for (index, table) in try readQuantizationTables(p) { quantizationTables[index] = table }
        case JPEGMarker.dht:
            for t in try readHuffmanTables(p) {
                if t.isAC { acTables[t.index] = t.spec } else { dcTables[t.index] = t.spec }
            }
        case JPEGMarker.dri:
            guard p.count >= 2 else { throw .invalidData("JPEG restart interval segment is too short") }
            restartInterval = Int(p[0]) << 8 | Int(p[1])
        case JPEGMarker.sos:
            try beginScan(p)
        case JPEGMarker.dac:
            try conditioning.define(p)
        case JPEGMarker.app0...JPEGMarker.app15:
            metadata.read(code, p, limit: options.limits.maxMetadataBytes)
        default:
            break   // COM, DNL after the frame (the height is already known), unknown markers
        }
    }

    /// Segments libjpeg reads by skipping their payload: APPn, COM and markers it does not know.
    private static func isSkippable(_ code: UInt8) -> Bool {
        (JPEGMarker.app0...JPEGMarker.app15).contains(code) || code == JPEGMarker.com
            || ![JPEGMarker.sof0, JPEGMarker.sof1, JPEGMarker.sof2, JPEGMarker.sof9, JPEGMarker.sof10, JPEGMarker.dht,
                 JPEGMarker.dac, JPEGMarker.dqt, JPEGMarker.dri, JPEGMarker.sos, JPEGMarker.dnl].contains(code)
                && !JPEGMarker.isUnsupportedFrame(code)
    }

    /// B.2.3: a scan of the frame, with the tables now in force; latches each component's
    /// quantization table at its first scan, and the colour markers at the frame's first.
    private mutating func beginScan(_ p: [UInt8]) throws(DecodingError) {
        guard let frame else { throw .invalidData("JPEG scan comes before the frame header") }
        metadata.latchColorMarkers()
        guard scans.count < options.limits.maxJPEGScans else { throw .limitExceeded("JPEG scan count exceeds Limits.maxJPEGScans") }
        let header = try JPEGScanHeader(p, frame: frame)
        try countBlockPasses(header, frame)
        for c in header.components where latchedQuantization[c.index] == nil {
            guard let table = quantizationTables[frame.components[c.index].quantizationTable] else {
                throw .invalidData("JPEG scan uses an undefined quantization table")
            }
            latchedQuantization[c.index] = table
        }
        let scan = JPEGScan(header: header, dcTables: header.components.map { $0.dcTable < 4 ? dcTables[$0.dcTable] : nil },
                            acTables: header.components.map { $0.acTable < 4 ? acTables[$0.acTable] : nil },
                            restartInterval: restartInterval, conditioning: conditioning, dataStart: position, dataEnd: nil)
        // What libjpeg-turbo refuses when a scan (or, for the first, decompression) starts is
        // refused here, at the scan's place in the file, so that the error does not depend on
        // whether pixels were decoded before later segments arrived.
        if scans.isEmpty { _ = try JPEGRenderer.upsampling(frame) }
        if frame.isArithmetic {
            _ = try JPEGHuffmanScanDecoder.procedure(frame: frame, header: header)
        } else {
            _ = try JPEGHuffmanScanDecoder(frame: frame, scan: scan)
        }
        scans.append(scan)
    }

    /// Adds the blocks scan `header` walks to those of the scans before it, and refuses the scan
    /// when they pass ``Limits/maxJPEGBlockPasses`` times the frame's blocks: an interleaved
    /// scan walks every MCU's blocks (A.2.3), a single-component scan the component's own
    /// blocks (A.2.2).
    private mutating func countBlockPasses(_ header: JPEGScanHeader, _ frame: JPEGFrameHeader) throws(DecodingError) {
        let blocks: Int
        if header.components.count == 1 {
            let c = frame.components[header.components[0].index]
            blocks = ((c.width + 7) / 8) * ((c.height + 7) / 8)
        } else {
            let perMCU = header.components.reduce(0) { $0 + frame.components[$1.index].h * frame.components[$1.index].v }
            blocks = frame.mcusPerLine * frame.mcuRows * perMCU
        }
        let frameBlocks = frame.components.reduce(0) { $0 + $1.blocksPerLine * $1.blockRows }
        let (budget, overflow) = frameBlocks.multipliedReportingOverflow(by: max(options.limits.maxJPEGBlockPasses, 0))
        scannedBlocks += blocks
        guard overflow || scannedBlocks <= budget else {
            throw .limitExceeded("JPEG scans pass over the blocks more than Limits.maxJPEGBlockPasses times")
        }
    }

    /// The position of the marker ending the current scan's data: the first 0xFF followed
    /// (after fill bytes) by a code that is neither 0x00 (stuffing) nor RSTn; nil when it has
    /// not arrived. Scanning resumes where it stopped.
    private mutating func scanEnd(_ input: InputBuffer) -> Int? {
        while position < input.count {
            let run = input.withContiguousRun(from: position, to: input.count) { run -> (Int, Bool) in
                guard let base = run.baseAddress else { return (0, false) }
                let i = ByteSearch.firstFF(base, count: run.count)
                return (i, i < run.count)
            }
            position += run.0
            guard run.1 else { continue }
            var next = position + 1
            while input.u8(at: next) == 0xFF { next += 1 }
            guard let code = input.u8(at: next) else { return nil }
            if code == 0 || JPEGMarker.isRestart(code) {
                position = next + 1
                continue
            }
            position = next - 1
            return position
        }
        return nil
    }
}

extension JPEGContainer {
    /// The frame header's size, progressive flag and the metadata read so far (8-bit, no alpha).
    package func makeProperties() -> ImageProperties? {
        guard let frame else { return nil }
        var p = ImageProperties(width: frame.width, height: frame.height, bitDepth: 8, hasAlpha: false,
                                isInterlaced: frame.isProgressive)
        metadata.resolve(into: &p)
        return p
    }

    /// One frame once the frame header is read.
    package var frameCount: Int { frame == nil ? 0 : 1 }

    package func frameProperties(at index: Int) -> FrameProperties? {
        guard index == 0, let frame else { return nil }
        return FrameProperties(x: 0, y: 0, width: frame.width, height: frame.height, unclampedDuration: 0,
                               disposal: .none, blend: .source)
    }

    package func isFrameComplete(at index: Int) -> Bool { index == 0 && ended }

    /// A JPEG is never composed.
    package var canvas: CanvasSpec? { nil }
}
