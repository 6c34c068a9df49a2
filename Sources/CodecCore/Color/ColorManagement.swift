/// The colour space decoded pixels are given in (``DecodingOptions/colorSpace``).
public enum ColorSpace: Sendable, Equatable {
    /// The file's own values, untouched (the default; the canonical hash uses it).
    case original
    /// Converted to sRGB through the file's ICC profile or colour chunks.
    case sRGB
}

/// Which description of an image's colour applies, and how (SPEC-NOTES.md, "Colour
/// management"): PNG 3rd edition 4.3's order, `cICP` before an ICC profile before `sRGB`
/// before `cHRM`/`gAMA`; JPEG and WebP carry only ICC profiles. A description that cannot be
/// used is skipped with a warning and the next one is tried.
package struct ColorConversion: Sendable {
    /// The transform to apply to the rendered RGBA rows, if any.
    package var transform: ColorTransform?
    /// Why a description was ignored.
    package var warnings: [String] = []

    /// Resolves `properties`. `decoderAppliesProfiles`: the format's decoder applies the ICC
    /// profile in its row sink (JPEG: CMYK ones need its ink samples); for other formats a
    /// CMYK profile is ignored with a warning.
    package init(_ properties: ImageProperties, decoderAppliesProfiles: Bool) {
        if let cicp = properties.color.cicp {
            switch ColorTransform.fromCICP(cicp) {
            case .success(let t):
                transform = t
                return
            case .failure(let error):
                warnings.append("cICP ignored: \(error)")
            }
        }
        if let profile = properties.iccProfile {
            switch ColorTransform.cached(profile: profile) {
            case .success where decoderAppliesProfiles:
                return
            case .success(let t) where t.inputChannelCount == 4:
                warnings.append("CMYK ICC profile on an image without CMYK samples ignored")
                return
            case .success(let t):
                transform = t
                return
            case .failure(let error):
                warnings.append("ICC profile ignored: \(error)")
            }
        }
        if properties.color.sRGBIntent != nil { return }
        guard properties.color.gamma != nil || properties.color.chromaticities != nil else { return }
        switch ColorTransform.fromChromaticities(properties.color.chromaticities, gamma: properties.color.gamma) {
        case .success(let t): transform = t
        case .failure(let error): warnings.append("cHRM/gAMA ignored: \(error)")
        }
    }
}
