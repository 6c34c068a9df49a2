/// The size of the output and of each component's samples at one of libjpeg's scales
/// (`scale_num/scale_denom` of 1, 1/2, 1/4 or 1/8; `jdmaster.c` `jpeg_calc_output_dimensions`):
/// every block is inverse-transformed into `idctSize × idctSize` samples instead of 8 × 8.
struct JPEGOutputGeometry: Equatable {
    /// libjpeg's `min_DCT_scaled_size`: 8 at full size, 4, 2 or 1 for the scales 1/2, 1/4, 1/8.
    let scaledSize: Int
    /// The output image: `ceil(width · scaledSize / 8)` by `ceil(height · scaledSize / 8)`.
    let width: Int
    let height: Int
    /// Output rows per MCU row: `maxV · scaledSize`.
    let mcuRowHeight: Int
    /// Per component: the size of its scaled IDCT (``JPEGIDCT/componentScaledSize(minScaledSize:h:v:maxH:maxV:)``)
    /// and its sample rows' width and height (libjpeg's `downsampled_width`/`height` at the scale:
    /// `ceil(width · h · idctSize / (maxH · 8))`).
    let idctSizes: [Int]
    let sampleWidths: [Int]
    let sampleHeights: [Int]

    init(frame: JPEGFrameHeader, scaledSize: Int = 8) {
        self.scaledSize = scaledSize
        width = (frame.width * scaledSize + 7) / 8
        height = (frame.height * scaledSize + 7) / 8
        mcuRowHeight = frame.maxV * scaledSize
        idctSizes = frame.components.map {
            JPEGIDCT.componentScaledSize(minScaledSize: scaledSize, h: $0.h, v: $0.v, maxH: frame.maxH, maxV: frame.maxV)
        }
        sampleWidths = frame.components.indices.map { [idctSizes] c in
            let h = frame.components[c].h * idctSizes[c], d = frame.maxH * 8
            return (frame.width * h + d - 1) / d
        }
        sampleHeights = frame.components.indices.map { [idctSizes] c in
            let v = frame.components[c].v * idctSizes[c], d = frame.maxV * 8
            return (frame.height * v + d - 1) / d
        }
    }

    /// The bytes of one MCU row of every component's samples (``JPEGSampleRows``).
    func mcuRowSampleBytes(_ frame: JPEGFrameHeader) -> Int {
        frame.components.indices.reduce(0) { $0 + frame.components[$1].blocksPerLine * frame.components[$1].v * idctSizes[$1] * idctSizes[$1] }
    }

    /// The smallest scale whose output is at least `width × height` (so that only shrinking
    /// remains for the resampler); full size when none of the smaller ones is.
    static func scaledSize(for frame: JPEGFrameHeader, fitting width: Int, _ height: Int) -> Int {
        for size in [1, 2, 4] where (frame.width * size + 7) / 8 >= width && (frame.height * size + 7) / 8 >= height {
            return size
        }
        return 8
    }
}
