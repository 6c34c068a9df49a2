@_exported import CodecCore
