import Foundation

/// The encryption method of an `EXT-X-KEY` / `EXT-X-SESSION-KEY` (`METHOD`). Unknown methods are kept as
/// written. A value type, safe from any thread.
public struct KeyMethod: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The method as written (`AES-128`).
    public var rawValue: String
    /// Creates a method from its written form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `NONE`: segments are not encrypted.
    public static let none = KeyMethod(rawValue: "NONE")
    /// `AES-128`: whole segments encrypted with AES-128 CBC and PKCS7 padding.
    public static let aes128 = KeyMethod(rawValue: "AES-128")
    /// `SAMPLE-AES`: individual samples encrypted.
    public static let sampleAES = KeyMethod(rawValue: "SAMPLE-AES")
    /// `SAMPLE-AES-CTR`: samples encrypted in CTR mode (CENC `cenc`).
    public static let sampleAESCTR = KeyMethod(rawValue: "SAMPLE-AES-CTR")
    /// The written form.
    public var description: String { rawValue }
}

/// A decryption key (`EXT-X-KEY`, or `EXT-X-SESSION-KEY` in a multivariant playlist). A value type, safe from any
/// thread.
public struct SegmentKey: Sendable, Hashable, Codable {
    /// `METHOD`.
    public var method: KeyMethod
    /// `URI` as written (after variable substitution); `nil` for `METHOD=NONE`.
    public var uri: String?
    /// The playlist URL the URI is relative to.
    public var baseURL: URL?
    /// `IV` as written (usually 16 bytes), or `nil` when the playlist gives none or `unreadableIV`.
    public var iv: [UInt8]?
    /// `IV` as written when it is not a hexadecimal-sequence (`IV=zzzz`), for a lenient parse; `iv` is then nil. No
    /// IV can be had from it, so the key cannot decrypt (a default IV would give noise): a player refuses it.
    public var unreadableIV: String?
    /// `KEYFORMAT`; `nil` means the default `identity`.
    public var keyFormat: String?
    /// `KEYFORMATVERSIONS` as written (`1/2/5`).
    public var keyFormatVersions: String?
    /// Attributes this parser does not interpret.
    public var unknownAttributes: AttributeList

    /// Creates a key.
    public init(
        method: KeyMethod, uri: String? = nil, baseURL: URL? = nil, iv: [UInt8]? = nil, keyFormat: String? = nil,
        keyFormatVersions: String? = nil, unknownAttributes: AttributeList = AttributeList(),
        unreadableIV: String? = nil
    ) {
        self.method = method
        self.uri = uri
        self.baseURL = baseURL
        self.iv = iv
        self.unreadableIV = unreadableIV
        self.keyFormat = keyFormat
        self.keyFormatVersions = keyFormatVersions
        self.unknownAttributes = unknownAttributes
    }

    /// The key URI resolved against the playlist URL.
    public var url: URL? { uri.flatMap { resolve($0, against: baseURL) } }

    /// `KEYFORMAT`, defaulting to `identity`.
    public var effectiveKeyFormat: String { keyFormat ?? "identity" }

    /// The 16-byte IV for a segment with media sequence number `mediaSequence`: the explicit `IV` (left-padded
    /// to 16 bytes), or else the sequence number as a 128-bit big-endian integer (RFC 8216bis 5.2).
    public func initializationVector(mediaSequence: Int) -> [UInt8] {
        if let iv {
            if iv.count >= 16 { return Array(iv.suffix(16)) }
            return [UInt8](repeating: 0, count: 16 - iv.count) + iv
        }
        var bytes = [UInt8](repeating: 0, count: 16)
        var value = UInt64(bitPattern: Int64(mediaSequence))
        for index in stride(from: 15, through: 8, by: -1) {
            bytes[index] = UInt8(truncatingIfNeeded: value)
            value >>= 8
        }
        return bytes
    }
}

/// A partial segment (`EXT-X-PART`, low-latency HLS). A value type, safe from any thread.
public struct PartialSegment: Sendable, Hashable, Codable {
    /// `URI` as written.
    public var uri: String
    /// The playlist URL the URI is relative to.
    public var baseURL: URL?
    /// `DURATION` in seconds.
    public var duration: Double
    /// `INDEPENDENT=YES`: the part starts with an independent frame.
    public var independent: Bool
    /// `BYTERANGE`, with the offset resolved from the previous part of the same resource when implied.
    public var byteRange: ByteRange?
    /// `GAP=YES`: the part is not available.
    public var gap: Bool
    /// Attributes this parser does not interpret.
    public var unknownAttributes: AttributeList

    /// Creates a part.
    public init(
        uri: String, baseURL: URL? = nil, duration: Double, independent: Bool = false, byteRange: ByteRange? = nil,
        gap: Bool = false, unknownAttributes: AttributeList = AttributeList()
    ) {
        self.uri = uri
        self.baseURL = baseURL
        self.duration = duration
        self.independent = independent
        self.byteRange = byteRange
        self.gap = gap
        self.unknownAttributes = unknownAttributes
    }

    /// The URI resolved against the playlist URL.
    public var url: URL? { resolve(uri, against: baseURL) }
}

/// One media segment of a media playlist, with every tag that applies to it already folded in: the key and map
/// in effect, the carried-forward program date-time, the resolved byte-range offset, its media sequence and
/// discontinuity sequence numbers. A value type, safe from any thread.
public struct MediaSegment: Sendable, Hashable, Codable {
    /// The URI line as written (after variable substitution).
    public var uri: String
    /// The playlist URL the URI is relative to.
    public var baseURL: URL?
    /// `EXTINF` duration in seconds (the target duration when a lenient parse found no `EXTINF`).
    public var duration: Double
    /// `EXTINF` title (text after the comma), empty if none.
    public var title: String
    /// The media sequence number of this segment.
    public var mediaSequence: Int
    /// The discontinuity sequence number of this segment.
    public var discontinuitySequence: Int
    /// `EXT-X-DISCONTINUITY` precedes this segment.
    public var discontinuity: Bool
    /// `EXT-X-BYTERANGE`, with the offset resolved.
    public var byteRange: ByteRange?
    /// The `EXT-X-KEY`s in effect (one per `KEYFORMAT`); empty when unencrypted.
    public var keys: [SegmentKey]
    /// The `EXT-X-MAP` in effect.
    public var map: MediaInitializationSection?
    /// The program date-time of the segment's first sample: from its own `EXT-X-PROGRAM-DATE-TIME` tag, or
    /// carried forward from an earlier one by adding durations (or back from a later one, for leading segments).
    public var programDateTime: Date?
    /// Whether the segment has its own `EXT-X-PROGRAM-DATE-TIME` tag.
    public var hasProgramDateTimeTag: Bool
    /// `EXT-X-GAP`: the segment is missing.
    public var gap: Bool
    /// `EXT-X-BITRATE` in effect, in kilobits per second.
    public var bitrate: Int?
    /// The `EXT-X-PART`s of this segment.
    public var parts: [PartialSegment]
    /// Tags before this segment that the parser does not interpret, in order.
    public var unknownTags: [UnknownTag]

    /// Creates a segment.
    public init(
        uri: String, baseURL: URL? = nil, duration: Double, title: String = "", mediaSequence: Int = 0,
        discontinuitySequence: Int = 0, discontinuity: Bool = false, byteRange: ByteRange? = nil,
        keys: [SegmentKey] = [], map: MediaInitializationSection? = nil, programDateTime: Date? = nil,
        hasProgramDateTimeTag: Bool = false, gap: Bool = false, bitrate: Int? = nil, parts: [PartialSegment] = [],
        unknownTags: [UnknownTag] = []
    ) {
        self.uri = uri
        self.baseURL = baseURL
        self.duration = duration
        self.title = title
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.discontinuity = discontinuity
        self.byteRange = byteRange
        self.keys = keys
        self.map = map
        self.programDateTime = programDateTime
        self.hasProgramDateTimeTag = hasProgramDateTimeTag
        self.gap = gap
        self.bitrate = bitrate
        self.parts = parts
        self.unknownTags = unknownTags
    }

    /// The URI resolved against the playlist URL.
    public var url: URL? { resolve(uri, against: baseURL) }

    /// The key with the default `identity` format if any, else the first key; `nil` when unencrypted.
    public var key: SegmentKey? { keys.first { $0.keyFormat == nil || $0.keyFormat == "identity" } ?? keys.first }

    /// The IV to decrypt this segment with `key` (explicit IV, or the media sequence number).
    public func initializationVector(for key: SegmentKey) -> [UInt8] {
        key.initializationVector(mediaSequence: mediaSequence)
    }
}
