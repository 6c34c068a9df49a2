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
    /// The share of the error diffused, in sixteenths.
    static let ditherStrength: Int32 = 13
    /// The largest error carried per channel, in sample units.
    static let errorLimit: Int32 = 24

    /// Writes into `target`, for each pixel of `rect` whose `mask` byte is nonzero, the palette
    /// colour chosen for `pixels` there (all three are canvas-sized, `width` pixels a row).
    static func map(_ pixels: [UInt32], mask: [UInt8], rect: FrameRect, width: Int, palette: [UInt32],
                    dither: Bool, into target: inout [UInt32]) {
        guard !palette.isEmpty, rect.width > 0,
              pixels.count >= width * (rect.y + rect.height), mask.count >= pixels.count,
              target.count >= pixels.count else { return }
        var search = GIFNearestColor(palette: palette)
        let w = rect.width
        // Error rows (current, next) of 3 channels, one pixel of margin each side, in 1/16 units.
        var errors = [Int32](repeating: 0, count: (w + 2) * 6)
        pixels.withUnsafeBufferPointer { src in
            mask.withUnsafeBufferPointer { m in
                target.withUnsafeMutableBufferPointer { dst in
                    errors.withUnsafeMutableBufferPointer { e in
                        guard let rows = e.baseAddress else { return }
                        var current = rows, next = rows + (w + 2) * 3
                        for row in 0..<rect.height {
                            let base = (rect.y + row) * width + rect.x
                            let leftToRight = row & 1 == 0
                            for step in 0..<w {
                                let col = leftToRight ? step : w &- 1 &- step
                                let p = base &+ col
                                guard m[p] != 0 else { continue }
                                let c = src[p]
                                var r = Int32(c & 0xFF), g = Int32((c >> 8) & 0xFF), b = Int32((c >> 16) & 0xFF)
                                let e0 = (col &+ 1) &* 3
                                if dither {
                                    r = clampSample(r &+ clampError(current[e0] >> 4))
                                    g = clampSample(g &+ clampError(current[e0 &+ 1] >> 4))
                                    b = clampSample(b &+ clampError(current[e0 &+ 2] >> 4))
                                }
                                let chosen = palette[search.nearest(r, g, b)]
                                dst[p] = chosen
                                guard dither else { continue }
                                let ahead = leftToRight ? e0 &+ 3 : e0 &- 3, behind = leftToRight ? e0 &- 3 : e0 &+ 3
                                diffuse(r &- Int32(chosen & 0xFF), at: 0)
                                diffuse(g &- Int32((chosen >> 8) & 0xFF), at: 1)
                                diffuse(b &- Int32((chosen >> 16) & 0xFF), at: 2)

                                @inline(__always) func diffuse(_ difference: Int32, at channel: Int) {
                                    let err = difference &* ditherStrength / 16
                                    current[ahead &+ channel] &+= err &* 7
                                    next[behind &+ channel] &+= err &* 3
                                    next[e0 &+ channel] &+= err &* 5
                                    next[ahead &+ channel] &+= err
                                }
                            }
                            swap(&current, &next)
                            next.update(repeating: 0, count: (w + 2) * 3)
                        }
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func clampSample(_ v: Int32) -> Int32 { min(255, max(0, v)) }

    @inline(__always)
    private static func clampError(_ v: Int32) -> Int32 { min(errorLimit, max(-errorLimit, v)) }
}
