import CodecCore

/// Colour management at the single conversion point (SPEC-NOTES.md, "Colour management").
extension ImageSource {
    /// How the source's colour description applies, with ``DecodingOptions/colorSpace`` set to
    /// sRGB; nil with ``ColorSpace/original`` or before the header is read. The profile's
    /// transform is built once and cached by ``ColorTransform/cached(profile:)``.
    func colorConversion(_ properties: ImageProperties) -> ColorConversion? {
        guard options.colorSpace == .sRGB else { return nil }
        return ColorConversion(properties, decoderAppliesProfiles: format == .jpeg)
    }

    /// Whether the pixels this source gives were converted to sRGB, so that the file's ICC
    /// profile no longer describes them (a profile the JPEG decoder applies itself counts).
    func convertsToSRGB(_ properties: ImageProperties) -> Bool {
        guard let conversion = colorConversion(properties) else { return false }
        if conversion.transform != nil { return true }
        guard format == .jpeg, let profile = properties.iccProfile,
              case .success = ColorTransform.cached(profile: profile) else { return false }
        return true
    }

    /// `properties` with the warnings of the colour conversion added.
    func withColorWarnings(_ properties: ImageProperties?) -> ImageProperties? {
        guard var p = properties, let conversion = colorConversion(p) else { return properties }
        p.warnings += conversion.warnings
        return p
    }

    /// A rendered image in the caller's layout: the colour transform is applied to the
    /// straight RGBA rows first (before premultiplying and reordering).
    func converted(_ rendered: RenderedImage) -> DecodedImage {
        guard let props = state.withLock({ $0.parser?.properties }),
              let transform = colorConversion(props)?.transform else { return rendered.converted(options) }
        return RenderedImage(raster: transform.converted(rendered.raster, maxThreads: options.maxThreads),
                             finalRowCount: rendered.finalRowCount)
            .converted(options)
    }
}
