import ImageCodecs

/// Our decoder as a user calls it on a still image: `ImageSource` over the whole data (with
/// `options`: the defaults a user gets unless a benchmark says otherwise), then frame 0, which
/// must be complete RGBA8 rows without padding.
public func decodeOurs(_ bytes: [UInt8], options: DecodingOptions = .init()) throws(BenchError) -> [UInt8] {
    let source = ImageSource(bytes: bytes, options: options)
    guard source.count > 0 else {
        throw BenchError("no image: status \(source.status)" + (source.error.map { ", \($0)" } ?? ""))
    }
    let image: DecodedImage
    do {
        image = try source.image(at: 0)
    } catch {
        throw BenchError("\(error)")
    }
    guard image.pixelFormat == .rgba8, image.bytesPerRow == image.width * 4 else {
        throw BenchError("unexpected output layout \(image.pixelFormat)")
    }
    guard image.isComplete else { throw BenchError("incomplete image") }
    return image.pixels
}

/// Our options with `maxThreads` 1: the one-core tables.
public let oneThread: DecodingOptions = {
    var options = DecodingOptions()
    options.maxThreads = 1
    return options
}()
