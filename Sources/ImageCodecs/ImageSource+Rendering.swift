import CodecCore

/// The renderer: pixel work outside the parser's lock (SPEC-NOTES.md, "Threads").
extension ImageSource {
    /// Runs `body` on the renderer, brought up to date with the input as it is now.
    ///
    /// The input is copied under the parser's lock (a copy of the segment list: no byte is
    /// copied), then the parser's lock is released and the renderer's taken, so appends and
    /// readers go on while `body` decodes. A sticky error the renderer meets (a still image's
    /// pixels) is handed to the parser's side, where ``status`` and ``error`` see it. The
    /// decode counts as holding a core of the worker pool's machine (`WorkerPool.occupying`).
    func render<R>(_ body: (any ImageDecoding, InputBuffer) throws(DecodingError) -> R) throws(DecodingError) -> R {
        let (input, coder, error) = state.withLock { ($0.input, $0.coder, $0.error) }
        if let error { throw error }
        guard let coder else { throw .invalidRequest("frame index out of range") }
        let (result, sticky) = renderer.withLock { r -> (Result<R, DecodingError>, DecodingError?) in
            WorkerPool.shared.occupying {
                let decoder = r.decoder ?? coder.makeDecoder(options: rendering)
                r.decoder = decoder
                do throws(DecodingError) {
                    try Self.catchUp(&r, decoder, input)
                    return (.success(try body(decoder, input)), decoder.error)
                } catch {
                    return (.failure(error), decoder.error)
                }
            }
        }
        keep(sticky)
        catchUpIfPending()
        return try result.get()
    }

    /// With ``DecodingOptions/decodesImmediately``: lets the renderer decode the bytes that
    /// have arrived, unless another thread holds it; that thread takes them when it lets go
    /// (``catchUpIfPending()``), so the appending thread never waits on a decode.
    func decodeImmediately() {
        guard options.decodesImmediately else { return }
        catchUpIfPending()
    }

    /// Runs the renderer over bytes that arrived while it was busy, for as long as more keep
    /// arriving and no other thread holds it.
    ///
    /// An append sets ``State/immediatePending`` before it tries the renderer's lock, and a
    /// holder looks at the flag only after letting go of that lock; so either the append gets
    /// the lock, or the holder sees the flag and takes the bytes.
    func catchUpIfPending() {
        while state.withLock({ s in defer { s.immediatePending = false }; return s.immediatePending }) {
            let (input, coder, error) = state.withLock { ($0.input, $0.coder, $0.error) }
            guard let coder, error == nil else { return }
            let ran = renderer.withLockIfAvailable { r -> DecodingError? in
                WorkerPool.shared.occupying {
                    let decoder = r.decoder ?? coder.makeDecoder(options: rendering)
                    r.decoder = decoder
                    try? Self.catchUp(&r, decoder, input)
                    return decoder.error
                }
            }
            guard let sticky = ran else { return }
            keep(sticky)
        }
    }

    /// The renderer's options: the caller's, the image data's CRCs left to the parser, which
    /// has checked every byte the renderer is given (a mismatch stops the source before the
    /// renderer runs).
    var rendering: DecodingOptions {
        var rendering = options
        rendering.imageDataCRCsChecked = true
        return rendering
    }

    /// Gives the renderer the input, if it has not seen all of it yet.
    private static func catchUp(_ r: inout Renderer, _ decoder: any ImageDecoding,
                                _ input: InputBuffer) throws(DecodingError) {
        guard r.seen.count != input.count || r.seen.isFinal != input.isFinal else { return }
        r.seen = (input.count, input.isFinal)
        try decoder.advance(input)
    }

    /// Hands the renderer's sticky error, if any, to the parser's side.
    private func keep(_ error: DecodingError?) {
        guard let error else { return }
        state.withLock { s in
            if s.error == nil { s.error = error }
        }
    }
}
