import Foundation

/// A multivariant (master) playlist: the variant streams, I-frame streams and renditions of a presentation.
/// A value type: safe to share across threads and isolation domains.
public struct MultivariantPlaylist: Sendable, Hashable, Codable {
    /// The URL the playlist was loaded from; URIs are resolved against it.
    public var url: URL?
    /// `EXT-X-VERSION`.
    public var version: Int?
    /// `EXT-X-INDEPENDENT-SEGMENTS`.
    public var independentSegments: Bool
    /// `EXT-X-START`.
    public var start: StartPoint?
    /// `EXT-X-STREAM-INF` variants, in order.
    public var variants: [Variant]
    /// `EXT-X-I-FRAME-STREAM-INF` variants, in order.
    public var iFrameVariants: [IFrameVariant]
    /// `EXT-X-MEDIA` renditions, in order.
    public var renditions: [Rendition]
    /// `EXT-X-SESSION-DATA`.
    public var sessionData: [SessionData]
    /// `EXT-X-SESSION-KEY`s.
    public var sessionKeys: [SegmentKey]
    /// `EXT-X-CONTENT-STEERING`.
    public var contentSteering: ContentSteering?
    /// `EXT-X-DEFINE`s, in order, with their resolved values. Pass ``variableValues`` to the media playlists'
    /// parser for `IMPORT`.
    public var variables: [VariableDefinition]
    /// Tags the parser does not interpret, in order.
    public var unknownTags: [UnknownTag]
    /// What the lenient parser accepted although the RFC forbids it.
    public var warnings: [PlaylistWarning]

    /// Creates an empty multivariant playlist.
    public init(url: URL? = nil) {
        self.url = url
        version = nil
        independentSegments = false
        start = nil
        variants = []
        iFrameVariants = []
        renditions = []
        sessionData = []
        sessionKeys = []
        contentSteering = nil
        variables = []
        unknownTags = []
        warnings = []
    }

    /// The variables as a dictionary, for ``PlaylistParserOptions/importedVariables``.
    public var variableValues: [String: String] {
        var values: [String: String] = [:]
        for definition in variables { values[definition.name] = definition.value }
        return values
    }

    /// The renditions of `type`, grouped by `GROUP-ID`, in order of first appearance.
    public func renditionGroups(of type: MediaType) -> [(groupID: String, renditions: [Rendition])] {
        var order: [String] = []
        var groups: [String: [Rendition]] = [:]
        for rendition in renditions where rendition.type == type {
            if groups[rendition.groupID] == nil { order.append(rendition.groupID) }
            groups[rendition.groupID, default: []].append(rendition)
        }
        return order.map { ($0, groups[$0] ?? []) }
    }
}

/// The attributes shared by `EXT-X-STREAM-INF` and `EXT-X-I-FRAME-STREAM-INF`. A value type, safe from any thread.
public struct StreamAttributes: Sendable, Hashable, Codable {
    /// `BANDWIDTH`: peak bits per second (required by the RFC; `nil` only in a lenient parse).
    public var bandwidth: Int?
    /// `AVERAGE-BANDWIDTH` in bits per second.
    public var averageBandwidth: Int?
    /// `SCORE`.
    public var score: Double?
    /// `CODECS` as written (comma-separated).
    public var codecs: String?
    /// `SUPPLEMENTAL-CODECS` as written.
    public var supplementalCodecs: String?
    /// `RESOLUTION`.
    public var resolution: Resolution?
    /// `FRAME-RATE` (`EXT-X-STREAM-INF` only).
    public var frameRate: Double?
    /// `HDCP-LEVEL` (`TYPE-0`, `TYPE-1`, `NONE`).
    public var hdcpLevel: String?
    /// `ALLOWED-CPC` as written.
    public var allowedCPC: String?
    /// `VIDEO-RANGE` (`SDR`, `HLG`, `PQ`).
    public var videoRange: String?
    /// `REQ-VIDEO-LAYOUT` as written.
    public var requiredVideoLayout: String?
    /// `STABLE-VARIANT-ID`.
    public var stableVariantID: String?
    /// `AUDIO` group ID (`EXT-X-STREAM-INF` only).
    public var audio: String?
    /// `VIDEO` group ID.
    public var video: String?
    /// `SUBTITLES` group ID (`EXT-X-STREAM-INF` only).
    public var subtitles: String?
    /// `CLOSED-CAPTIONS`: a group ID, or `NONE` written unquoted (`closedCaptionsNone`).
    public var closedCaptions: String?
    /// `CLOSED-CAPTIONS=NONE`.
    public var closedCaptionsNone: Bool
    /// `PATHWAY-ID` (content steering).
    public var pathwayID: String?
    /// Attributes this parser does not interpret (`PROGRAM-ID`, vendor attributes), in order.
    public var unknownAttributes: AttributeList

    /// Creates stream attributes.
    public init(bandwidth: Int? = nil) {
        self.bandwidth = bandwidth
        closedCaptionsNone = false
        unknownAttributes = AttributeList()
    }

    /// `CODECS` split on commas, trimmed.
    public var codecList: [String] {
        (codecs ?? "").split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}

/// A variant stream (`EXT-X-STREAM-INF` and its URI). Stream attributes are reachable directly
/// (`variant.bandwidth`). A value type, safe from any thread.
public struct Variant: StreamReference, Sendable, Hashable, Codable {
    /// The URI line as written.
    public var uri: String
    /// The playlist URL the URI is relative to.
    public var baseURL: URL?
    /// The attributes.
    public var stream: StreamAttributes

    /// Creates a variant.
    public init(uri: String, baseURL: URL? = nil, stream: StreamAttributes) {
        self.uri = uri
        self.baseURL = baseURL
        self.stream = stream
    }
}

/// An I-frame stream (`EXT-X-I-FRAME-STREAM-INF`). A value type, safe from any thread.
public struct IFrameVariant: StreamReference, Sendable, Hashable, Codable {
    /// `URI` as written.
    public var uri: String
    /// The playlist URL the URI is relative to.
    public var baseURL: URL?
    /// The attributes.
    public var stream: StreamAttributes

    /// Creates an I-frame variant.
    public init(uri: String, baseURL: URL? = nil, stream: StreamAttributes) {
        self.uri = uri
        self.baseURL = baseURL
        self.stream = stream
    }
}

/// What `Variant` and `IFrameVariant` share: a URI relative to a playlist and the stream's attributes, reachable
/// directly (`variant.bandwidth`). Implemented by value types, safe from any thread.
@dynamicMemberLookup
public protocol StreamReference {
    /// The URI as written.
    var uri: String { get }
    /// The playlist URL the URI is relative to.
    var baseURL: URL? { get }
    /// The attributes.
    var stream: StreamAttributes { get set }
}

extension StreamReference {
    /// The URI resolved against the playlist URL.
    public var url: URL? { resolve(uri, against: baseURL) }

    /// Reads and writes stream attributes directly.
    public subscript<T>(dynamicMember keyPath: WritableKeyPath<StreamAttributes, T>) -> T {
        get { stream[keyPath: keyPath] }
        set { stream[keyPath: keyPath] = newValue }
    }

    /// Reads computed stream attributes directly (`codecList`).
    public subscript<T>(dynamicMember keyPath: KeyPath<StreamAttributes, T>) -> T {
        stream[keyPath: keyPath]
    }
}
