/// Composites pixels over an opaque background colour, for formats without alpha (JPEG) and
/// for callers that want an opaque image: `out = (c·a + bg·(max − a)) / max`, rounded, with alpha
/// set to opaque.
package enum AlphaFlattening {
    /// Flattens `pixels` (RGBA8, straight alpha) over `background` (its alpha is ignored).
    package static func flattenRGBA8(_ pixels: UnsafeMutableBufferPointer<UInt8>, over background: RGBA8) {
        let bg = (UInt32(background.r), UInt32(background.g), UInt32(background.b))
        var i = 0
        while i &+ 3 < pixels.count {
            let a = UInt32(pixels[i &+ 3])
            if a != 255 {
                let na = 255 &- a
                pixels[i] = UInt8((UInt32(pixels[i]) &* a &+ bg.0 &* na &+ 127) / 255)
                pixels[i &+ 1] = UInt8((UInt32(pixels[i &+ 1]) &* a &+ bg.1 &* na &+ 127) / 255)
                pixels[i &+ 2] = UInt8((UInt32(pixels[i &+ 2]) &* a &+ bg.2 &* na &+ 127) / 255)
                pixels[i &+ 3] = 255
            }
            i &+= 4
        }
    }

    /// Flattens `samples` (RGBA16, straight alpha) over `background`, widened by 257.
    package static func flattenRGBA16(_ samples: UnsafeMutableBufferPointer<UInt16>, over background: RGBA8) {
        let bg = (UInt64(background.r) &* 257, UInt64(background.g) &* 257, UInt64(background.b) &* 257)
        var i = 0
        while i &+ 3 < samples.count {
            let a = UInt64(samples[i &+ 3])
            if a != 65535 {
                let na = 65535 &- a
                samples[i] = UInt16((UInt64(samples[i]) &* a &+ bg.0 &* na &+ 32767) / 65535)
                samples[i &+ 1] = UInt16((UInt64(samples[i &+ 1]) &* a &+ bg.1 &* na &+ 32767) / 65535)
                samples[i &+ 2] = UInt16((UInt64(samples[i &+ 2]) &* a &+ bg.2 &* na &+ 32767) / 65535)
                samples[i &+ 3] = 65535
            }
            i &+= 4
        }
    }
}
