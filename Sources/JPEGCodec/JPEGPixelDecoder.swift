import CodecCore

/// Decodes the scans of a frame into RGBA8 pixels as their data arrives, resumable between MCUs.
///
/// A file whose first scan is sequential and holds every component (libjpeg's single-scan
/// case) is reconstructed a row of MCUs at a time: coefficients for one MCU row, pixels written
/// to the image as each row completes, so the image shows the rows decoded so far. Any other
/// file (progressive, or one scan per component) collects every scan's coefficients (T.81
/// G.1.1's coefficient buffer) and is reconstructed when an image is asked for: after the last
/// scan the final image, before it the image the scans so far give.
final class JPEGPixelDecoder {
    private let frame: JPEGFrameHeader
    private let buffered: Bool
    private var coefficients: JPEGCoefficients
    private var renderer: JPEGRenderer?
    private let colorSpace: JPEGColorSpace
    /// The image, RGBA8, and the rows of it that are final.
    private(set) var pixels: [UInt8]
    private(set) var finalRows = 0
    /// The scans whose quantization tables the renderer has latched, and those tables.
    private var scansLatched = 0
    private var latchedQuantization: [[UInt16]?] = []
    /// Progressive files: the precision each scan so far gives the first coefficients, and the
    /// frame MCU row the last scan begun reached with data (libjpeg's `last_good_iMCU_row`),
    /// for block smoothing.
    private var progression: JPEGProgression
    private var lastGoodMCURow = 0
    /// The scan being decoded, by index into the container's scans.
    private var scanIndex = 0
    private var scan: JPEGScanDecoder?
    /// Sequential single-scan files: MCU rows reconstructed so far.
    private var rowsReconstructed = 0
    /// Buffered files: MCUs decoded in all scans so far, and the count the pixels show.
    private var mcusDecoded = 0
    private var renderedMCUs = -1

    /// A decoder for `frame`; the caller has checked the image and coefficient sizes against
    /// the limits.
    init(frame: JPEGFrameHeader, firstScan: JPEGScanHeader, colorSpace: JPEGColorSpace) {
        self.frame = frame
        self.colorSpace = colorSpace
        buffered = frame.isProgressive || firstScan.components.count < frame.components.count
        coefficients = JPEGCoefficients(frame: frame, mcuRowOnly: !buffered)
        progression = JPEGProgression(componentCount: frame.components.count)
        pixels = [UInt8](repeating: 0, count: frame.width * frame.height * 4)
    }

    /// Whether every scan is decoded and the image is final.
    var finished: Bool { finalRows == frame.height }

    /// Decodes as far as the input allows. `container` has the scans known so far.
    func decode(_ container: JPEGContainer, _ input: InputBuffer) throws(DecodingError) {
        if renderer == nil {
            renderer = try JPEGRenderer(frame: frame, colorSpace: colorSpace, quantization: container.latchedQuantization)
        }
        if container.scans.count != scansLatched {
            latchedQuantization = container.latchedQuantization
            renderer?.latch(latchedQuantization)
            scansLatched = container.scans.count
        }
        while scanIndex < container.scans.count {
            let info = container.scans[scanIndex]
            if scan == nil {
                scan = try JPEGScanDecoder(frame: frame, scan: info)
                if frame.isProgressive { progression.begin(info.header) }
            }
            guard var decoder = scan else { return }
            scan = nil
            if buffered {
                let before = decoder.nextMCU
                _ = decoder.decode(input, into: &coefficients, until: decoder.mcuCount)
                mcusDecoded += decoder.nextMCU - before
                lastGoodMCURow = JPEGBlockSmoothing.frameMCURow(ofScanMCU: min(decoder.lastGoodMCU, decoder.mcuCount - 1),
                                                                mcusPerLine: decoder.mcusPerLine, scan: info.header, frame: frame)
            } else {
                decodeRows(&decoder, input)
            }
            guard decoder.isFinished else { scan = decoder; return }
            scanIndex += 1
            // A sequential single-scan file is complete after its one scan; libjpeg ignores
            // any further scans of such a file (it reads them as a new frame's, and stops at EOI).
            if !buffered { return }
        }
        if buffered && container.ended { render(final: true) }
    }

    /// Sequential single scan: each MCU row is decoded, reconstructed, and its predecessor's
    /// pixels written (fancy upsampling needs the row below).
    private func decodeRows(_ decoder: inout JPEGScanDecoder, _ input: InputBuffer) {
        guard var renderer else { return }
        self.renderer = nil
        defer { self.renderer = renderer }
        // A one-component scan's MCU is one block: a frame MCU row is `v` rows of them.
        let scanRows = frame.components.count == 1 ? frame.components[0].v : 1
        while rowsReconstructed < frame.mcuRows {
            let m = rowsReconstructed
            let first = min(m * scanRows * decoder.mcusPerLine, decoder.mcuCount)
            let end = min((m + 1) * scanRows * decoder.mcusPerLine, decoder.mcuCount)
            if decoder.nextMCU == first { coefficients.clear() }
            _ = decoder.decode(input, into: &coefficients, until: end)
            guard decoder.nextMCU == end else { return }
            renderer.reconstruct(mcuRow: m, from: coefficients)
            rowsReconstructed += 1
            pixels.withUnsafeMutableBufferPointer { out in
                if m > 0 { renderer.emit(mcuRow: m - 1, into: out.baseAddress!) }
                if m == frame.mcuRows - 1 { renderer.emit(mcuRow: m, into: out.baseAddress!) }
            }
            finalRows = m == frame.mcuRows - 1 ? frame.height : renderer.outputRows(ofMCURow: m - 1).upperBound
        }
    }

    /// Buffered files: reconstructs the whole image from the coefficients so far, unless it
    /// already shows them. `final` marks the image as the finished one.
    func render(final: Bool) {
        guard buffered, renderedMCUs != mcusDecoded || (final && !finished), var renderer else { return }
        self.renderer = nil
        defer { self.renderer = renderer }
        let smoothing = JPEGBlockSmoothing(frame: frame, quantization: latchedQuantization, progression: progression,
                                           lastGoodMCURow: lastGoodMCURow)
        pixels.withUnsafeMutableBufferPointer { out in
            for m in 0..<frame.mcuRows {
                renderer.reconstruct(mcuRow: m, from: coefficients, smoothing: smoothing)
                if m > 0 { renderer.emit(mcuRow: m - 1, into: out.baseAddress!) }
            }
            renderer.emit(mcuRow: frame.mcuRows - 1, into: out.baseAddress!)
        }
        renderedMCUs = mcusDecoded
        finalRows = final ? frame.height : 0
    }
}
