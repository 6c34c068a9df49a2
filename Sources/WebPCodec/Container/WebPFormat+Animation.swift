import CodecCore

/// Composition of ANMF frames (RFC 9649 section 2.7.1.1) as libwebp's `WebPAnimDecoder` does
/// (src/demux/anim_decode.c; SPEC-NOTES.md, WebP animation), on the shared ``AnimationCanvas``:
///
/// - the canvas starts transparent black; ANIM's background colour is not used;
/// - dispose to background clears the frame's rectangle to transparent black;
/// - a key frame (libwebp's IsKeyFrame) is drawn without blending, whatever its blend bit;
/// - `over` uses libwebp's integer blend (``AnimationCompositor/OverRule/webPAnimDecoder``).
extension WebPFormat {
    /// Frame `j`'s properties as the compositor must see them: `source` for a key frame.
    package mutating func compositingProperties(at j: Int) -> FrameProperties {
        var p = container.frames[j].properties
        if isKeyFrame(j) { p.blend = .source }
        return p
    }

    /// libwebp's IsKeyFrame: the first frame; a frame covering the canvas that has no alpha
    /// or does not blend; or a frame after one disposed to background that covered the canvas
    /// or was itself a key frame. Kept per frame (frames never change once read).
    private mutating func isKeyFrame(_ j: Int) -> Bool {
        let frames = container.frames
        while keyFrames.count <= j {
            let k = keyFrames.count
            let f = frames[k]
            let canvasWidth = container.extended?.canvasWidth ?? 0, canvasHeight = container.extended?.canvasHeight ?? 0
            func full(_ p: FrameProperties) -> Bool { p.width == canvasWidth && p.height == canvasHeight }
            var key = k == 0
            if !key && (!f.bitstream.hasAlpha || f.properties.blend == .source) && full(f.properties) { key = true }
            if !key {
                let previous = frames[k - 1].properties
                key = previous.disposal == .background && (full(previous) || keyFrames[k - 1])
            }
            keyFrames.append(key)
        }
        return keyFrames[j]
    }
}
