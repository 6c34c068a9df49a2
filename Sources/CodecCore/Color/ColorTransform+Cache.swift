extension ColorTransform {
    /// Transforms built lately, keyed by the profile's bytes: a profile is parsed and its
    /// transform built once, then shared by every source, thumbnail and player frame that
    /// carries the same profile. Failures are kept too, so a hostile profile costs one parse.
    private static let recent = Locked([(bytes: [UInt8], result: Result<ColorTransform, DecodingError>)]())
    private static let recentCapacity = 4

    /// The transform for the profile `bytes`, built on first use.
    public static func cached(profile bytes: [UInt8]) -> Result<ColorTransform, DecodingError> {
        if let hit = recent.withLock({ $0.first { $0.bytes == bytes }?.result }) { return hit }
        let result: Result<ColorTransform, DecodingError>
        do throws(DecodingError) {
            result = .success(try ColorTransform(profile: ICCProfile(bytes: bytes)))
        } catch {
            result = .failure(error)
        }
        recent.withLock { list in
            if !list.contains(where: { $0.bytes == bytes }) {
                list.insert((bytes, result), at: 0)
                if list.count > recentCapacity { list.removeLast() }
            }
        }
        return result
    }
}
