import GIFCodec
import JPEGCodec
import PNGCodec
import WebPCodec

/// A plug-in that decodes, and may encode, one format (SDWebImage's `SDImageCoder`).
///
/// Register one with ``CoderRegistry/register(_:)``; a coder registered later wins over
/// earlier ones, built-ins included, for the files both recognise and for encoding its format.
/// A coder that only decodes implements neither ``canEncode`` nor ``makeEncoder(options:)``.
public protocol ImageCoder: Sendable {
    /// The format this coder decodes.
    var format: ImageFormat { get }
    /// Whether `prefix` (the first bytes of a file: fewer than a signature while they arrive,
    /// at most ``CoderRegistry/sniffLength``) starts
    /// this format: ``SniffResult/match``, ``SniffResult/needMoreData`` while the bytes so
    /// far agree with the signature, ``SniffResult/noMatch`` otherwise.
    func sniff(_ prefix: UnsafeBufferPointer<UInt8>) -> SniffResult
    /// A fresh decoder for one file.
    func makeDecoder(options: DecodingOptions) -> any ImageDecoding
    /// Whether ``makeEncoder(options:)`` gives an encoder; false by default.
    var canEncode: Bool { get }
    /// A fresh encoder for one file; `options` are already validated. By default: unsupported.
    func makeEncoder(options: EncodingOptions) throws(EncodingError) -> any ImageEncoding
}

extension ImageCoder {
    /// False: a coder decodes only, unless it says otherwise.
    public var canEncode: Bool { false }

    /// Throws ``EncodingError/Kind/unsupported``: a coder decodes only, unless it says otherwise.
    public func makeEncoder(options: EncodingOptions) throws(EncodingError) -> any ImageEncoding {
        throw .unsupported("this coder does not encode")
    }
}

/// The answer of ``ImageCoder/sniff(_:)``.
public enum SniffResult: Sendable, Equatable {
    /// `match`: the bytes start this format. `needMoreData`: the bytes so far agree with the
    /// signature but are too few to decide; ask again when more arrive. `noMatch`: not this format.
    case match, needMoreData, noMatch

    /// Compares `prefix` with a fixed signature.
    public static func comparing(_ prefix: UnsafeBufferPointer<UInt8>, with signature: [UInt8]) -> SniffResult {
        for (i, b) in signature.enumerated() {
            guard i < prefix.count else { return .needMoreData }
            guard prefix[i] == b else { return .noMatch }
        }
        return .match
    }
}

/// The built-in PNG and APNG coder.
public struct PNGCoder: ImageCoder {
    /// The PNG coder.
    public init() {}
    /// ``ImageFormat/png``, which covers APNG.
    public var format: ImageFormat { .png }

    /// Matches the eight-byte PNG signature (PNG §5.2).
    public func sniff(_ prefix: UnsafeBufferPointer<UInt8>) -> SniffResult {
        .comparing(prefix, with: PNGFormat.signature)
    }

    /// A PNG and APNG decoder for one file.
    public func makeDecoder(options: DecodingOptions) -> any ImageDecoding {
        PNGDecoder(options: options)
    }
}

/// The built-in GIF coder (GIF87a and GIF89a).
public struct GIFCoder: ImageCoder {
    /// The GIF coder.
    public init() {}
    /// ``ImageFormat/gif``.
    public var format: ImageFormat { .gif }

    /// Matches `GIF87a` or `GIF89a`.
    public func sniff(_ prefix: UnsafeBufferPointer<UInt8>) -> SniffResult {
        let results = GIFFormat.signatures.map { SniffResult.comparing(prefix, with: $0) }
        if results.contains(.match) { return .match }
        return results.contains(.needMoreData) ? .needMoreData : .noMatch
    }

    /// A GIF decoder for one file.
    public func makeDecoder(options: DecodingOptions) -> any ImageDecoding {
        GIFDecoder(options: options)
    }

    /// True: GIF files are written (``makeEncoder(options:)``).
    public var canEncode: Bool { true }

    /// A GIF encoder: stills and animations, colours reduced to 256 a frame where needed (Wu's
    /// quantizer, Floyd–Steinberg dithering unless ``EncodingOptions/dithering`` is off), frames
    /// cropped to what changed.
    public func makeEncoder(options: EncodingOptions) throws(EncodingError) -> any ImageEncoding {
        GIFEncoder(options: options)
    }
}

/// JPEG (ITU T.81): baseline, extended and progressive frames, Huffman or arithmetic coded.
public struct JPEGCoder: ImageCoder {
    /// The JPEG coder.
    public init() {}
    /// ``ImageFormat/jpeg``.
    public var format: ImageFormat { .jpeg }

    /// Matches a start-of-image marker followed by another marker (`FF D8 FF`).
    public func sniff(_ prefix: UnsafeBufferPointer<UInt8>) -> SniffResult {
        .comparing(prefix, with: JPEGFormat.signature)
    }

    /// A JPEG decoder for one file (MPO files give one frame per image).
    public func makeDecoder(options: DecodingOptions) -> any ImageDecoding {
        JPEGDecoder(options: options)
    }
}

/// WebP (RFC 9649): lossless (VP8L) and lossy (VP8, with or without ALPH) stills and animations.
public struct WebPCoder: ImageCoder {
    /// The WebP coder.
    public init() {}
    /// ``ImageFormat/webp``.
    public var format: ImageFormat { .webp }

    /// Matches a RIFF header whose form type is `WEBP`.
    public func sniff(_ prefix: UnsafeBufferPointer<UInt8>) -> SniffResult {
        switch WebPFormat.sniff(prefix) {
        case true?: .match
        case false?: .noMatch
        case nil: .needMoreData
        }
    }

    /// A WebP decoder for one file.
    public func makeDecoder(options: DecodingOptions) -> any ImageDecoding {
        WebPDecoder(options: options)
    }

    /// True: lossless WebP files are written (``makeEncoder(options:)``).
    public var canEncode: Bool { true }

    /// Lossless (VP8L) stills and animations; lossy WebP is refused with `unsupported`.
    public func makeEncoder(options: EncodingOptions) throws(EncodingError) -> any ImageEncoding {
        WebPEncoder(options: options)
    }
}
