import CodecCore

/// Decodes WebP files (RFC 9649) on the shared ``FrameDriver``: simple and extended (VP8X)
/// stills whose image is lossless (VP8L) or lossy (VP8, with or without an ALPH chunk), and
/// animations (ANIM, ANMF) of such frames, composed as libwebp's `WebPAnimDecoder` shows them
/// (WebPFormat+Animation.swift).
package typealias WebPDecoder = FrameDriver<WebPFormat>

/// WebP's part of a decoder: the chunk parser (``WebPContainerParser``) and each bitstream's
/// decoding, resumed where it stopped (``WebPJob``).
package struct WebPFormat: FrameFormat {
    package typealias Job = WebPJob

    let options: DecodingOptions
    package var container: WebPContainerParser
    /// Per animation frame, whether libwebp's WebPAnimDecoder treats it as a key frame.
    var keyFrames: [Bool] = []

    /// "RIFF" at 0 and "WEBP" at 8 (RFC 9649 section 2.5); bytes 4–7 are the size.
    package static func sniff(_ prefix: UnsafeBufferPointer<UInt8>) -> Bool? {
        let riff: [UInt8] = Array("RIFF".utf8), webp: [UInt8] = Array("WEBP".utf8)
        for i in 0..<12 {
            guard i < prefix.count else { return nil }
            if i < 4 && prefix[i] != riff[i] { return false }
            if i >= 8 && prefix[i] != webp[i - 8] { return false }
        }
        return true
    }

    package init(options: DecodingOptions) {
        self.options = options
        container = WebPContainerParser(limits: options.limits)
    }

    /// A lossy still's last partition runs to the end of the input, whose bytes past the chunk
    /// the bool decoder may still read ahead: it is complete once its rows are all decoded.
    package func isFrameComplete(at index: Int, still: Job?) -> Bool {
        guard container.isFrameComplete(at: index) else { return false }
        if !container.isAnimated && container.frames[index].bitstream.kind == .lossy {
            return still?.image.isFinished == true || container.ended
        }
        return true
    }

    /// Stills shrink as their rows come out: of the VP8 decoder (which holds a band of rows,
    /// never the planes or the full-size RGBA) or of the VP8L decoder (which holds a window of
    /// the coded image and a batch of rows).
    package var shrinksWhileDecoding: Bool { !container.isAnimated && !container.frames.isEmpty }

    package func makeJob(for purpose: FrameJobPurpose, input: InputBuffer, limits: Limits) throws(DecodingError) -> Job? {
        let frames = container.frames
        let threads = options.maxThreads
        switch purpose {
        case .still:
            return frames.first.map {
                WebPJob(image: WebPImageJob($0.bitstream, end: nil, maxThreads: threads), limits: limits)
            }
        case .frame(let j):
            guard frames.indices.contains(j) else { return nil }
            let bitstream = frames[j].bitstream
            let job = WebPImageJob(bitstream, end: bitstream.dataEnd, maxThreads: threads)
            return WebPJob(image: job, limits: limits)
        case .thumbnail(let width, let height):
            guard let bitstream = frames.first?.bitstream else { return nil }
            let job = WebPImageJob(bitstream, end: nil, output: .thumbnail(width: width, height: height),
                                   maxThreads: threads)
            return WebPJob(image: job, limits: limits)
        }
    }

    /// Decodes as far as the input goes. Running out of bytes in a cut file (final input, chunk
    /// or file incomplete) keeps the rows decoded, and the source reports `unexpectedEOF`; any
    /// other error is the frame's (or, for a still, the file's).
    package func advance(_ job: inout Job, for purpose: FrameJobPurpose, input: InputBuffer,
                         region: CanvasRegion?) throws(DecodingError) {
        let index = purpose.frameIndex
        let bitstream = container.frames[index].bitstream
        let cut = if case .frame = purpose { bitstream.dataEnd > input.count } else { !container.ended }
        do throws(DecodingError) {
            try job.image.advance(input, limits: job.limits)
        } catch where error.kind == .truncated && input.isFinal && cut {
            // What was decoded is the answer.
        }
        let isFrame = if case .frame = purpose { true } else { false }
        if !isFrame && !input.isFinal && bitstream.payload.upperBound <= input.count {
            job.finishEarly(input)
        }
    }

}
