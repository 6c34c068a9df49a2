/// Where a frame decoder puts its final pixels, after libwebp's `VP8Io`: a frame-sized raster of
/// straight RGBA (8 bits a sample, or 16 for a 16-bit PNG still), or a thumbnail's
/// ``StreamingResampler``, which shrinks the rows as they come, the frame lying at `origin` on
/// the resampler's input (as an animation's first frame lies on its canvas).
///
/// A decoder hands over whole rows (``write(rows:_:)``) or, for an interlaced pass, the sparse
/// pixels of one row (``write(row:x:count:step:_:)``), and says which rows are final
/// (``markFinal(rows:)``), without knowing which kind of sink it writes to. Conversion to the
/// caller's layout (BGRA, premultiplied, 16-bit) and orientation happen once, later, on the
/// sink's ``raster``. Animation frames that draw straight onto a canvas use a ``CanvasRegion``.
package struct RowSink: Sendable {
    /// The frame's size and bytes per pixel.
    package let width: Int
    package let height: Int
    package let bytesPerPixel: Int
    /// The image, `width × height`; empty for a thumbnail.
    package private(set) var pixels: [UInt8] = []
    /// The thumbnail's resampler.
    package private(set) var resampler: StreamingResampler?
    private let origin: (x: Int, y: Int)
    /// Rows of a thumbnail's pixels, written here and then shrunk.
    private var scratch: [UInt8] = []
    /// Rows from the top that are final.
    package private(set) var finalRows = 0
    /// Image rows from ``finalRows`` up to this one were never written or cleared (an image
    /// allocated uninitialised): ``clearUnwrittenRows()`` clears them for a partial image.
    private var unwrittenRowsEnd = 0

    /// A sink writing into a new `width × height` image; the caller has checked its size
    /// against ``Limits``. `uninitialized` leaves the bytes as the allocator gives them, for a
    /// decoder that writes every row and calls ``clearUnwrittenRows()`` before a partial image
    /// is shown.
    package init(width: Int, height: Int, bytesPerPixel: Int = 4, uninitialized: Bool = false) {
        self.width = width
        self.height = height
        self.bytesPerPixel = bytesPerPixel
        origin = (0, 0)
        let count = width * height * bytesPerPixel
        pixels = PixelStorage.make(count: count, zeroed: !uninitialized)
        if uninitialized { unwrittenRowsEnd = height }
    }

    /// A sink shrinking a `width × height` frame (RGBA8) into `thumbnail`, the frame's top-left
    /// pixel at `origin` on its input; at most `rowsAtOnce` rows are written in one call.
    package init(thumbnail: StreamingResampler, width: Int, height: Int, origin: (x: Int, y: Int) = (0, 0),
                 rowsAtOnce: Int = 1) {
        self.width = width
        self.height = height
        bytesPerPixel = 4
        self.origin = origin
        resampler = thumbnail
        scratch = [UInt8](repeating: 0, count: rowsAtOnce * width * 4)
    }

    /// A thumbnail's resampler from a `inputWidth × inputHeight` image to `width × height`, both
    /// checked against `limits`: the full-size image is never held, but its pixel count is
    /// bounded all the same.
    package static func resampler(from inputWidth: Int, _ inputHeight: Int, to width: Int, _ height: Int,
                                  limits: Limits) throws(DecodingError) -> StreamingResampler {
        _ = try limits.checkedRasterBytes(width: inputWidth, height: inputHeight, bytesPerPixel: 1)
        _ = try limits.checkedRasterBytes(width: width, height: height, bytesPerPixel: StreamingResampler.bytesPerOutputPixel)
        return StreamingResampler(inputWidth: inputWidth, inputHeight: inputHeight, outputWidth: width, outputHeight: height)
    }

    /// Whether the rows are shrunk for a thumbnail.
    package var isThumbnail: Bool { resampler != nil }

    /// Rows `rows`, whole: `body` writes them at the pointer it is given, one after the other
    /// (`width × bytesPerPixel` bytes each).
    @inline(__always)
    package mutating func write(rows: Range<Int>, _ body: (UnsafeMutablePointer<UInt8>) -> Void) {
        guard var shrink = resampler else {
            let offset = rows.lowerBound * width * bytesPerPixel
            pixels.withUnsafeMutableBufferPointer { out in
                guard let base = out.baseAddress else { return }
                body(base + offset)
            }
            return
        }
        // The resampler leaves `self` while rows go in (no copy: it stays uniquely referenced).
        resampler = nil
        defer { resampler = shrink }
        let (width, origin) = (self.width, self.origin)
        scratch.withUnsafeMutableBufferPointer { out in
            guard let base = out.baseAddress else { return }
            body(base)
            for (i, y) in rows.enumerated() {
                shrink.accumulate(base + i * width * 4, count: width, x: origin.x, y: origin.y + y)
            }
        }
    }

    /// Calls `body` with the image's first pixel, for a decoder that writes disjoint rows from
    /// several threads at once (each row whole, `width × bytesPerPixel` bytes); nil for a
    /// thumbnail, whose resampler takes rows in order only (``write(rows:_:)``).
    package mutating func withImagePixels<R>(_ body: (UnsafeMutablePointer<UInt8>) -> R) -> R? {
        guard resampler == nil else { return nil }
        return pixels.withUnsafeMutableBufferPointer { out in out.baseAddress.map(body) }
    }

    /// `count` pixels of row `y` at columns `x`, `x + step`, `x + 2·step`… (an interlaced
    /// pass): `body` writes them at the pointer it is given, the number of pixels it passes
    /// apart.
    @inline(__always)
    package mutating func write(row y: Int, x: Int, count: Int, step: Int,
                                _ body: (UnsafeMutablePointer<UInt8>, Int) -> Void) {
        guard var shrink = resampler else {
            let offset = (y * width + x) * bytesPerPixel
            pixels.withUnsafeMutableBufferPointer { out in
                guard let base = out.baseAddress else { return }
                body(base + offset, step)
            }
            return
        }
        resampler = nil
        defer { resampler = shrink }
        let origin = self.origin
        scratch.withUnsafeMutableBufferPointer { out in
            guard let base = out.baseAddress else { return }
            body(base, 1)
            shrink.accumulate(base, count: count, x: origin.x + x, step: step, y: origin.y + y)
        }
    }

    /// Declares rows `0..<rows` final (a thumbnail's final rows only ever grow).
    package mutating func markFinal(rows: Int) {
        finalRows = min(max(rows, 0), height)
        resampler?.markFinal(rows: origin.y + finalRows)
    }

    /// Every pixel has been given: all rows final, and all of a thumbnail's input (what lies
    /// outside the frame stays transparent).
    package mutating func finish() {
        finalRows = height
        if let inputHeight = resampler?.inputHeight { resampler?.markFinal(rows: inputHeight) }
    }

    /// Starts a thumbnail over, empty, for a decoder that writes every row again (a buffered
    /// JPEG reconstructed from more coefficients); an image is overwritten in place.
    package mutating func restart() {
        finalRows = 0
        guard let r = resampler else { return }
        resampler = StreamingResampler(inputWidth: r.inputWidth, inputHeight: r.inputHeight,
                                       outputWidth: r.outputWidth, outputHeight: r.outputHeight)
    }

    /// Clears the image's rows that were never written, so that a partial image shows
    /// transparent black below its final rows.
    package mutating func clearUnwrittenRows() {
        guard finalRows < unwrittenRowsEnd, !pixels.isEmpty else { return }
        let rowBytes = width * bytesPerPixel, first = finalRows, end = unwrittenRowsEnd
        pixels.withUnsafeMutableBufferPointer { p in
            guard let base = p.baseAddress else { return }
            (base + first * rowBytes).update(repeating: 0, count: (end - first) * rowBytes)
        }
        unwrittenRowsEnd = first
    }

    /// Rows of the output, from the top, that are final: the image's, or the thumbnail's.
    package var finalRowCount: Int { resampler?.finishedOutputRows ?? finalRows }

    /// The image, or the thumbnail as it stands.
    package var raster: Raster {
        resampler?.raster ?? Raster(width: width, height: height, bytesPerPixel: bytesPerPixel, pixels: pixels)
    }

    /// Bytes held: the image, or the thumbnail's rows and resampler.
    package var heldBytes: Int { pixels.count + scratch.count + (resampler?.heldBytes ?? 0) }
}
