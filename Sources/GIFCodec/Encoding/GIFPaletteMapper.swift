import CodecCore

/// Replaces the colours of quantized pixels by palette colours: each by its nearest entry, or
/// with Floyd–Steinberg error diffusion (Floyd and Steinberg 1976: 7/16 of a pixel's error to
/// the next pixel, 3/16, 5/16 and 1/16 to the row below), on serpentine rows so that the error
/// does not drift one way.
///
/// The diffused error is damped to ``ditherStrength`` and each channel's carried error is
/// clamped to ±``errorLimit``: full-strength error makes speckle in flat areas, which costs
/// LZW bytes and PSNR, while the damped error still breaks up banding in gradients (the
/// same trade gifski's libimagequant and ImageMagick's dithers make). Only pixels in the mask
/// are visited; error is not carried across the others.
enum GIFPaletteMapper {
    /// The share of the error diffused, in sixteenths of the Floyd–Steinberg weights' total.
    static let ditherStrength: Int32 = 13
    /// The largest error carried per channel, in sample units.
    static let errorLimit: Int32 = 24

    /// Writes into `target`, for each pixel of `rect` whose `mask` byte is nonzero, the palette
    /// colour chosen for `pixels` there (all three are canvas-sized, `width` pixels a row).
    static func map(_ pixels: [UInt32], mask: [UInt8], rect: FrameRect, width: Int, palette: [UInt32],
                    dither: Bool, into target: inout [UInt32]) {
        var search = GIFNearestColor(palette: palette)
        let w = rect.width
        // Error rows (current, next) of 3 channels, with one pixel of margin on both sides, in
        // 1/16 sample units.
        var current = [Int32](repeating: 0, count: (w + 2) * 3)
        var next = current
        for row in 0..<rect.height {
            let y = rect.y + row
            let leftToRight = row & 1 == 0
            for step in 0..<w {
                let col = leftToRight ? step : w - 1 - step
                let p = y * width + rect.x + col
                let e = (col + 1) * 3
                guard mask[p] != 0 else { continue }
                let c = pixels[p]
                var r = Int32(c & 0xFF), g = Int32((c >> 8) & 0xFF), b = Int32((c >> 16) & 0xFF)
                if dither {
                    r = clampSample(r + clampError(current[e] >> 4))
                    g = clampSample(g + clampError(current[e + 1] >> 4))
                    b = clampSample(b + clampError(current[e + 2] >> 4))
                }
                let chosen = palette[search.nearest(r, g, b)]
                target[p] = chosen
                guard dither else { continue }
                let ahead = leftToRight ? e + 3 : e - 3, behind = leftToRight ? e - 3 : e + 3
                diffuse(r - Int32(chosen & 0xFF), channel: 0)
                diffuse(g - Int32((chosen >> 8) & 0xFF), channel: 1)
                diffuse(b - Int32((chosen >> 16) & 0xFF), channel: 2)

                func diffuse(_ error: Int32, channel: Int) {
                    let err = error * ditherStrength / 16
                    current[ahead + channel] += err * 7
                    next[behind + channel] += err * 3
                    next[e + channel] += err * 5
                    next[ahead + channel] += err
                }
            }
            swap(&current, &next)
            for i in next.indices { next[i] = 0 }
        }
    }

    @inline(__always)
    private static func clampSample(_ v: Int32) -> Int32 { min(255, max(0, v)) }

    @inline(__always)
    private static func clampError(_ v: Int32) -> Int32 { min(errorLimit, max(-errorLimit, v)) }
}
