import CodecCore

/// Decodes the scans of a frame into RGBA8 pixels as their data arrives, resumable between MCUs.
///
/// A file whose first scan is sequential and holds every component (libjpeg's single-scan
/// case) is reconstructed a row of MCUs at a time: coefficients for one MCU row, pixels written
/// to the image as each row completes, so the image shows the rows decoded so far. Any other
/// file (progressive, or one scan per component) collects every scan's coefficients (T.81
/// G.1.1's coefficient buffer) and is reconstructed when an image is asked for: after the last
/// scan the final image, before it the image the scans so far give.
///
/// A thumbnail decoder renders at the smallest of libjpeg's scales (1/8, 1/4, 1/2, 1) that is
/// no smaller than the thumbnail, keeps only the coefficients that scale's inverse DCT reads
/// (``JPEGCoefficientSubset``), and passes its rows to a ``StreamingResampler`` instead of
/// keeping an image.
package final class JPEGPixelDecoder: FrameJob {
    let frame: JPEGFrameHeader
    let buffered: Bool
    let geometry: JPEGOutputGeometry
    /// Every block of the frame (buffered files), or one MCU row of them (a sequential file's
    /// row being decoded, kept between calls).
    var coefficients: JPEGCoefficients
    /// Sequential files: the samples the row being decoded will be transformed into.
    var rowSamples: JPEGSampleRows?
    private let colorSpace: JPEGColorSpace
    /// The ICC profile's transform to sRGB, when asked for (``JPEGColorManagement``).
    var colorTransform: ColorTransform?
    /// The renderer and where the rows go: the RGBA8 image, allocated uninitialised (rows not
    /// written yet are cleared only when a partial image is asked for), or a thumbnail's
    /// resampler, which takes an MCU row's rows at a time at the scale rendered.
    let writer: JPEGRowWriter
    /// The most threads one call may use, the caller's included (``DecodingOptions/maxThreads``).
    let maxThreads: Int
    /// The scans whose quantization tables the renderer has latched, and those tables.
    private var scansLatched = 0
    private(set) var latchedQuantization: [[UInt16]?] = []
    /// Progressive files: the precision each scan so far gives the first coefficients, and the
    /// frame MCU row the last scan begun reached with data (libjpeg's `last_good_iMCU_row`),
    /// for block smoothing.
    var progression: JPEGProgression
    var lastGoodMCURow = 0
    /// The scan being decoded, by index into the container's scans.
    var scanIndex = 0
    var scan: JPEGScanDecoder?
    /// Sequential single-scan files: MCU rows reconstructed so far.
    var rowsReconstructed = 0
    /// Buffered files: MCUs decoded in all scans so far, and the count the pixels show.
    var mcusDecoded = 0
    private var renderedMCUs = -1
    /// Thumbnails of buffered files: the scans finished that first gave coefficients the scale
    /// reads (not successive-approximation refinements of them), and how many of them the
    /// thumbnail last reconstructed.
    var firstScansFinished = 0
    private var scansRendered = 0

    /// A decoder for `frame` at libjpeg's scale `scaledSize`/8 (8, 4, 2 or 1), of the image or
    /// (`thumbnail`) of a thumbnail of that size, which the scaled image is no smaller than, on
    /// up to `maxThreads` threads; the caller has checked the image, thumbnail and coefficient
    /// sizes against the limits.
    init(frame: JPEGFrameHeader, firstScan: JPEGScanHeader, colorSpace: JPEGColorSpace,
         scaledSize: Int = 8, thumbnail: (width: Int, height: Int)? = nil, maxThreads: Int = 1) {
        self.frame = frame
        self.colorSpace = colorSpace
        self.maxThreads = max(maxThreads, 1)
        buffered = Self.isBuffered(frame, firstScan: firstScan)
        progression = JPEGProgression(componentCount: frame.components.count)
        geometry = JPEGOutputGeometry(frame: frame, scaledSize: scaledSize)
        coefficients = JPEGCoefficients(frame: frame, mcuRowOnly: !buffered, idctSizes: buffered ? geometry.idctSizes : nil)
        if let thumbnail {
            let resampler = StreamingResampler(inputWidth: geometry.width, inputHeight: geometry.height,
                                               outputWidth: thumbnail.width, outputHeight: thumbnail.height)
            writer = JPEGRowWriter(sink: RowSink(thumbnail: resampler, width: geometry.width, height: geometry.height,
                                                 rowsAtOnce: geometry.mcuRowHeight))
        } else {
            writer = JPEGRowWriter(sink: RowSink(width: geometry.width, height: geometry.height, uninitialized: true))
        }
    }

    /// Whether the file's scans must be collected before pixels come out (T.81 G.1.1).
    static func isBuffered(_ frame: JPEGFrameHeader, firstScan: JPEGScanHeader) -> Bool {
        frame.isProgressive || firstScan.components.count < frame.components.count
    }

    /// The bytes a decoder made with these arguments holds, checked before it is made: the
    /// output, the coefficients, and (sequential files) the MCU rows that a pipeline's jobs hold
    /// while a call runs on two threads.
    static func bytes(frame: JPEGFrameHeader, firstScan: JPEGScanHeader, scaledSize: Int, thumbnail: Bool) -> Int {
        let buffered = isBuffered(frame, firstScan: firstScan)
        let geometry = JPEGOutputGeometry(frame: frame, scaledSize: scaledSize)
        let output = thumbnail ? geometry.mcuRowHeight * geometry.width * 4 : geometry.width * geometry.height * 4
        let coefficients = JPEGCoefficients.bytes(frame: frame, mcuRowOnly: !buffered, idctSizes: buffered ? geometry.idctSizes : nil)
        let rowJobs = buffered ? 0 : (JPEGRowPipeline.jobsInFlight + 1) * (coefficients + geometry.mcuRowSampleBytes(frame))
        return output + coefficients + rowJobs
    }

    /// Bytes held: the sink (the image, or a thumbnail's MCU row and resampler) and the coefficients.
    package var heldBytes: Int { sink.heldBytes + coefficients.heldBytes }

    package var isFinished: Bool { finished }

    package var rowSink: RowSink? { sink }

    /// Where the rows go (``writer``).
    var sink: RowSink { writer.sink }

    /// MCU rows written to the image or the resampler so far: the output changed when this did.
    var mcuRowsWritten: Int { writer.rowsWritten }

    /// The output size at the scale decoded.
    var width: Int { geometry.width }
    var height: Int { geometry.height }

    /// Whether every scan is decoded and the image is final.
    var finished: Bool { sink.finalRows == geometry.height }

    /// Decodes as far as the input allows. `container` has the scans known so far. With more
    /// than one thread, a buffered file whose scans have all arrived decodes them at once
    /// (``decodeScansAtOnce(_:_:)``).
    func decode(_ container: JPEGContainer, _ input: InputBuffer) throws(DecodingError) {
        if writer.renderer == nil {
            writer.renderer = try JPEGRenderer(frame: frame, colorSpace: colorSpace, quantization: container.latchedQuantization,
                                               geometry: geometry)
            writer.renderer?.colorTransform = colorTransform
        }
        if container.scans.count != scansLatched {
            latchedQuantization = container.latchedQuantization
            writer.renderer?.latch(latchedQuantization)
            scansLatched = container.scans.count
        }
        if buffered && maxThreads > 1 && (container.ended || input.isFinal) && container.scans.count - scanIndex > 1 {
            try decodeScansAtOnce(container, input)
        }
        while scanIndex < container.scans.count {
            let info = container.scans[scanIndex]
            if scan == nil {
                if frame.isProgressive { progression.begin(info.header) }
                // The container has checked the scan when its header arrived.
                if readsNoCoefficient(of: info.header) {
                    scanIndex += 1
                    continue
                }
                scan = try JPEGScanDecoder(frame: frame, scan: info)
            }
            guard var decoder = scan else { return }
            scan = nil
            if buffered {
                let before = decoder.nextMCU
                _ = decoder.decode(input, into: &coefficients, until: decoder.mcuCount)
                mcusDecoded += decoder.nextMCU - before
                noteLastGood(decoder, info.header)
            } else {
                decodeRows(&decoder, info, input)
            }
            guard decoder.isFinished else { scan = decoder; return }
            scanIndex += 1
            if info.header.ah == 0 { firstScansFinished += 1 }
            // A sequential single-scan file is complete after its one scan; libjpeg ignores
            // any further scans of such a file (it reads them as a new frame's, and stops at EOI).
            if !buffered { return }
        }
        if buffered && container.ended { render(final: true) }
    }

    /// Records the frame MCU row that `decoder`, of a scan with `header`, last began with data
    /// left (for block smoothing).
    func noteLastGood(_ decoder: JPEGScanDecoder, _ header: JPEGScanHeader) {
        lastGoodMCURow = JPEGBlockSmoothing.frameMCURow(ofScanMCU: min(decoder.lastGoodMCU, decoder.mcuCount - 1),
                                                        mcusPerLine: decoder.mcusPerLine, scan: header, frame: frame)
    }

    /// Whether the scaled inverse DCTs read nothing `scan` codes: a progressive AC scan (one
    /// component, G.1.1.1) of a component rendered 1×1, which reads the DC alone. Scans are coded
    /// independently (each restarts its entropy decoder and, for refinement, reads only its own
    /// component's earlier bits), so such a scan is skipped whole; a thumbnail of a progressive
    /// file then decodes little more than its DC scans for the luma.
    func readsNoCoefficient(of scan: JPEGScanHeader) -> Bool {
        frame.isProgressive && scan.ss > 0 && scan.components.allSatisfy { geometry.idctSizes[$0.index] == 1 }
    }

    /// Makes the image show what has been decoded: buffered files are reconstructed from the
    /// coefficients so far; the rows a sequential file has not reached yet are cleared.
    func prepareImage() {
        if buffered {
            render(final: false)
        } else {
            writer.sink.clearUnwrittenRows()
        }
    }

    /// A thumbnail's partial image: for a buffered file, reconstructed when a scan that first
    /// gives coefficients the thumbnail's scale reads has completed since the last time, as
    /// browsers refresh a progressive JPEG when a scan completes, rather than on every call: a
    /// thumbnail asked for after every append of a download then costs a reconstruction per such
    /// scan (a 4:2:0 file in libjpeg's default script has three: the DC scan and each chroma's
    /// first AC scan), not one per append. Before the first scan completes it is empty.
    func prepareThumbnail() {
        guard buffered else { return prepareImage() }
        guard firstScansFinished != scansRendered else { return }
        render(final: false)
        scansRendered = firstScansFinished
    }

    /// Buffered files: reconstructs the whole image from the coefficients so far, unless it
    /// already shows them. `final` marks the image as the finished one. An image is rendered in
    /// bands on several threads (``renderBands(_:final:)``), a thumbnail's rows in order.
    private func render(final: Bool) {
        guard buffered, renderedMCUs != mcusDecoded || (final && !finished), writer.renderer != nil else { return }
        // Smoothing reads whole neighbouring blocks, which a thumbnail's subsets do not keep.
        let smoothing = coefficients.isSubset ? nil
            : JPEGBlockSmoothing(frame: frame, quantization: latchedQuantization, progression: progression, lastGoodMCURow: lastGoodMCURow)
        writer.sink.restart()
        renderedMCUs = mcusDecoded
        if renderBands(smoothing, final: final) { return }
        for m in 0..<frame.mcuRows {
            writer.renderer?.reconstruct(mcuRow: m, from: coefficients, smoothing: smoothing)
            if m > 0 { writer.write(mcuRow: m - 1, final: final) }
        }
        writer.write(mcuRow: frame.mcuRows - 1, final: final)
    }
}
