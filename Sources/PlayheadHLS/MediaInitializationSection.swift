import Foundation

/// The media initialization section (`EXT-X-MAP`) that applies to a segment. A value type, safe from any thread.
///
/// Every segment of an fMP4 playlist carries the same map, so the fields live in one shared immutable box: copying
/// a segment retains one object instead of five (a fifth of the parse time of a long live playlist). Setting a
/// property replaces the box, so value semantics are unchanged.
public struct MediaInitializationSection: Sendable, Hashable, Codable {
    private final class Storage: Sendable {
        let uri: String
        let baseURL: URL?
        let byteRange: ByteRange?
        let keys: [SegmentKey]
        let unknownAttributes: AttributeList

        init(uri: String, baseURL: URL?, byteRange: ByteRange?, keys: [SegmentKey], unknownAttributes: AttributeList) {
            self.uri = uri
            self.baseURL = baseURL
            self.byteRange = byteRange
            self.keys = keys
            self.unknownAttributes = unknownAttributes
        }
    }

    private var storage: Storage

    /// Creates a map.
    public init(
        uri: String, baseURL: URL? = nil, byteRange: ByteRange? = nil, keys: [SegmentKey] = [],
        unknownAttributes: AttributeList = AttributeList()
    ) {
        storage = Storage(
            uri: uri, baseURL: baseURL, byteRange: byteRange, keys: keys, unknownAttributes: unknownAttributes)
    }

    /// `URI` as written.
    public var uri: String {
        get { storage.uri }
        set { update(uri: newValue) }
    }

    /// The playlist URL the URI is relative to.
    public var baseURL: URL? {
        get { storage.baseURL }
        set { update(baseURL: .some(newValue)) }
    }

    /// `BYTERANGE`, if any (the offset defaults to 0, as the RFC says).
    public var byteRange: ByteRange? {
        get { storage.byteRange }
        set { update(byteRange: .some(newValue)) }
    }

    /// The `EXT-X-KEY`s in effect where the `EXT-X-MAP` tag appears: they encrypt the initialization section
    /// (RFC 8216bis 4.4.4.4), and may differ from the keys of the segments that use the map.
    public var keys: [SegmentKey] {
        get { storage.keys }
        set { update(keys: newValue) }
    }

    /// Attributes this parser does not interpret.
    public var unknownAttributes: AttributeList {
        get { storage.unknownAttributes }
        set { update(unknownAttributes: newValue) }
    }

    /// The URI resolved against the playlist URL.
    public var url: URL? { resolve(uri, against: baseURL) }

    private mutating func update(
        uri: String? = nil, baseURL: URL?? = nil, byteRange: ByteRange?? = nil, keys: [SegmentKey]? = nil,
        unknownAttributes: AttributeList? = nil
    ) {
        storage = Storage(
            uri: uri ?? storage.uri, baseURL: baseURL ?? storage.baseURL, byteRange: byteRange ?? storage.byteRange,
            keys: keys ?? storage.keys, unknownAttributes: unknownAttributes ?? storage.unknownAttributes)
    }

    /// Equal when every field is equal.
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage === rhs.storage
            || (lhs.uri == rhs.uri && lhs.baseURL == rhs.baseURL && lhs.byteRange == rhs.byteRange
                && lhs.keys == rhs.keys && lhs.unknownAttributes == rhs.unknownAttributes)
    }

    /// Hashes every field.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(uri)
        hasher.combine(baseURL)
        hasher.combine(byteRange)
        hasher.combine(keys)
        hasher.combine(unknownAttributes)
    }

    private enum CodingKeys: String, CodingKey {
        case uri, baseURL, byteRange, keys, unknownAttributes
    }

    /// Decodes the fields.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            uri: try container.decode(String.self, forKey: .uri),
            baseURL: try container.decodeIfPresent(URL.self, forKey: .baseURL),
            byteRange: try container.decodeIfPresent(ByteRange.self, forKey: .byteRange),
            keys: try container.decode([SegmentKey].self, forKey: .keys),
            unknownAttributes: try container.decode(AttributeList.self, forKey: .unknownAttributes))
    }

    /// Encodes the fields.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(uri, forKey: .uri)
        try container.encodeIfPresent(baseURL, forKey: .baseURL)
        try container.encodeIfPresent(byteRange, forKey: .byteRange)
        try container.encode(keys, forKey: .keys)
        try container.encode(unknownAttributes, forKey: .unknownAttributes)
    }
}
