#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ImageCodecs

/// A byte sink that writes to a file as the encoder goes.
struct FileSink: ByteSink {
    private let file: UnsafeMutablePointer<FILE>

    /// Opens `path` for writing, or nil.
    init?(path: String) {
        guard let file = fopen(path, "wb") else { return nil }
        self.file = file
    }

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(EncodingError) {
        guard bytes.isEmpty || fwrite(bytes.baseAddress, 1, bytes.count, file) == bytes.count else {
            throw .outputFailed("cannot write the output file")
        }
    }

    /// Closes the file; false when the last writes failed.
    func close() -> Bool { fclose(file) == 0 }
}

/// Counts the bytes of a file without keeping them (for timing encoders).
struct DiscardingSink: ByteSink {
    private(set) var count = 0

    mutating func write(_ bytes: UnsafeRawBufferPointer) throws(EncodingError) {
        count += bytes.count
    }
}
