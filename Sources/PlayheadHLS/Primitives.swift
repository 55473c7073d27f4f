import Foundation

/// A sub-range of a resource, as written by `EXT-X-BYTERANGE`, `EXT-X-MAP:BYTERANGE` or `EXT-X-PART:BYTERANGE`.
///
/// `offset` is always resolved: when the playlist omits it, the parser continues from the end of the previous
/// range of the same resource (RFC 8216bis 4.4.4.2). `isOffsetExplicit` remembers whether it was written, so the
/// writer reproduces the playlist faithfully. A value type: safe to share across threads and isolation domains.
public struct ByteRange: Sendable, Hashable, Codable {
    /// Number of bytes in the range.
    public var length: Int
    /// Offset of the first byte, from the start of the resource (resolved).
    public var offset: Int
    /// Whether the playlist wrote the offset (`n@o`) or it was implied (`n`).
    public var isOffsetExplicit: Bool

    /// Creates a byte range of `length` bytes starting at `offset`.
    public init(length: Int, offset: Int, isOffsetExplicit: Bool = true) {
        self.length = length
        self.offset = offset
        self.isOffsetExplicit = isOffsetExplicit
    }

    /// One past the last byte: `offset + length`.
    public var end: Int { offset &+ length }
}

/// A video resolution, `decimal-resolution` in the RFC (`1280x720`). A value type, safe from any thread.
public struct Resolution: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Horizontal pixel count.
    public var width: Int
    /// Vertical pixel count.
    public var height: Int

    /// Creates a resolution.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The RFC form, `<width>x<height>`.
    public var description: String { "\(width)x\(height)" }
}

/// A tag the parser does not interpret (`#EXT-X-CUE-OUT:15`, `#EXT-MY-TAG`), kept so callers can read it
/// and the writer can reproduce it. A value type, safe from any thread.
public struct UnknownTag: Sendable, Hashable, Codable {
    /// The tag name without the leading `#` (`EXT-X-CUE-OUT`).
    public var name: String
    /// Everything after the first `:`, or `nil` when the tag has no value.
    public var value: String?

    /// Creates a tag.
    public init(name: String, value: String?) {
        self.name = name
        self.value = value
    }

    /// The line as written: `#NAME` or `#NAME:VALUE`.
    public var line: String { value.map { "#\(name):\($0)" } ?? "#\(name)" }

    /// The value parsed as an attribute list, when it is one.
    public var attributes: AttributeList? { value.flatMap { try? AttributeList(parsing: $0) } }
}

/// How a playlist variable got its value (`EXT-X-DEFINE`). A value type, safe from any thread.
public struct VariableDefinition: Sendable, Hashable, Codable {
    /// Where the value came from.
    public enum Source: Sendable, Hashable, Codable {
        /// `NAME="x",VALUE="y"`.
        case value
        /// `IMPORT="x"`: taken from the multivariant playlist that referenced this one.
        case `import`
        /// `QUERYPARAM="x"`: taken from the query of the playlist's URL.
        case queryParameter
    }

    /// The variable name (`[a-zA-Z0-9_-]+`).
    public var name: String
    /// The resolved value.
    public var value: String
    /// Where the value came from.
    public var source: Source

    /// Creates a definition.
    public init(name: String, value: String, source: Source = .value) {
        self.name = name
        self.value = value
        self.source = source
    }
}

/// The start point of a presentation (`EXT-X-START`). A value type, safe from any thread.
public struct StartPoint: Sendable, Hashable, Codable {
    /// Seconds from the start (positive) or from the end (negative) of the playlist.
    public var timeOffset: Double
    /// `PRECISE=YES`: start exactly at the offset rather than at the segment containing it.
    public var precise: Bool
    /// Attributes this parser does not interpret.
    public var unknownAttributes: AttributeList

    /// Creates a start point.
    public init(timeOffset: Double, precise: Bool = false, unknownAttributes: AttributeList = AttributeList()) {
        self.timeOffset = timeOffset
        self.precise = precise
        self.unknownAttributes = unknownAttributes
    }
}

/// Resolves a URI as written in a playlist against the playlist's URL. Returns `nil` if it is not a valid URI.
///
/// Resolution is done on demand (not during parsing) because Foundation's URL parsing costs about a
/// microsecond per URI, which would dominate parsing of long live playlists.
@inline(__always)
func resolve(_ uri: String, against base: URL?) -> URL? {
    if let base { return URL(string: uri, relativeTo: base)?.absoluteURL }
    return URL(string: uri)
}
