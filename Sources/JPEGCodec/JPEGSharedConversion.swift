import CodecCore

/// The ICC conversion of a ``JPEGRowPipeline``'s output shared between its two threads
/// (SPEC-NOTES.md, "Colour management", Speed): the output thread writes an MCU row's pixels,
/// then converts them in parts of ``partPixels``, while the decoding thread, when it would
/// otherwise wait for a free job (the output thread is behind), takes parts too
/// (``help()``). CMYK rows come to it as ink amounts. Each pixel is converted once by the same kernel, so the output is the same
/// whoever converts it. The rows stay the output thread's: it returns only when every part,
/// its own and the helper's, is done.
final class JPEGSharedConversion: @unchecked Sendable {
    let transform: ColorTransform
    /// Tells the decoding thread there are parts to take (the pipeline stage's `wake()`); set
    /// before the first row is handed over.
    var announce: (@Sendable () -> Void)?
    private let lock = ConditionLock()
    private var pixels: UnsafeMutablePointer<UInt8>?
    private var count = 0
    private var parts = 0
    private var claimed = 0
    private var done = 0

    /// Pixels in a part: a few microseconds of work, so the helper's share is fine-grained.
    static let partPixels = 8192

    init(_ transform: ColorTransform) {
        self.transform = transform
    }

    /// Converts `count` RGBA8 pixels at `p` in place, with the decoding thread's help when it
    /// is idle; returns when all are converted (output thread).
    func convert(_ p: UnsafeMutablePointer<UInt8>, count: Int) {
        lock.lock()
        pixels = p
        self.count = count
        parts = (count + Self.partPixels - 1) / Self.partPixels
        claimed = 0
        done = 0
        lock.unlock()
        announce?()
        while help() {}
        lock.lock()
        while done < parts { lock.wait() }
        pixels = nil
        lock.unlock()
    }

    /// Converts one part of the pixels being converted, if one is left; whether it did.
    func help() -> Bool {
        lock.lock()
        guard let p = pixels, claimed < parts else {
            lock.unlock()
            return false
        }
        let first = claimed * Self.partPixels, n = min(Self.partPixels, count - first)
        claimed += 1
        lock.unlock()
        if transform.inputChannelCount == 4 {
            transform.convertInk(p + 4 * first, count: n)
        } else {
            transform.convertRow(p + 4 * first, count: n)
        }
        lock.lock()
        done += 1
        if done == parts { lock.broadcast() }
        lock.unlock()
        return true
    }
}
