import Foundation

/// `EXT-X-PLAYLIST-TYPE`. A value type, safe from any thread.
public enum PlaylistType: String, Sendable, Hashable, Codable {
    /// `EVENT`: segments are only appended.
    case event = "EVENT"
    /// `VOD`: the playlist never changes.
    case vod = "VOD"
}

/// A media playlist: the segments of one rendition, with the playlist-level tags. A value type: safe to share
/// across threads and isolation domains.
public struct MediaPlaylist: Sendable, Hashable, Codable {
    /// The URL the playlist was loaded from; URIs are resolved against it.
    public var url: URL?
    /// `EXT-X-VERSION`.
    public var version: Int?
    /// `EXT-X-TARGETDURATION` in seconds.
    public var targetDuration: Int?
    /// `EXT-X-MEDIA-SEQUENCE` (0 when absent): the sequence number of the first segment of the playlist,
    /// counting skipped segments of a delta update.
    public var mediaSequence: Int
    /// `EXT-X-DISCONTINUITY-SEQUENCE` (0 when absent).
    public var discontinuitySequence: Int
    /// `EXT-X-PLAYLIST-TYPE`.
    public var playlistType: PlaylistType?
    /// `EXT-X-ENDLIST`: no more segments will be added.
    public var hasEndList: Bool
    /// `EXT-X-I-FRAMES-ONLY`.
    public var iFramesOnly: Bool
    /// `EXT-X-INDEPENDENT-SEGMENTS`.
    public var independentSegments: Bool
    /// `EXT-X-START`.
    public var start: StartPoint?
    /// `EXT-X-SERVER-CONTROL`.
    public var serverControl: ServerControl?
    /// `EXT-X-PART-INF`.
    public var partInformation: PartInformation?
    /// `EXT-X-SKIP`: this is a delta update; see ``applyingDeltaUpdate(to:)``.
    public var skip: SkipInfo?
    /// The segments, in order (after any skipped ones).
    public var segments: [MediaSegment]
    /// Parts after the last complete segment (the segment being produced).
    public var trailingParts: [PartialSegment]
    /// The `EXT-X-MAP` in force after the last complete segment: the init section of `trailingParts` (known even
    /// when no segment is listed yet).
    public var trailingMap: MediaInitializationSection?
    /// An `EXT-X-PROGRAM-DATE-TIME` after the last complete segment: the date that segment ends and the segment in
    /// progress (`trailingParts`) begins. When no segment has a date of its own, the parser dates them back from it.
    public var trailingProgramDateTime: Date?
    /// `EXT-X-PRELOAD-HINT`s.
    public var preloadHints: [PreloadHint]
    /// `EXT-X-RENDITION-REPORT`s.
    public var renditionReports: [RenditionReport]
    /// `EXT-X-DATERANGE`s, in order.
    public var dateRanges: [DateRange]
    /// `EXT-X-DEFINE`s, in order, with their resolved values.
    public var variables: [VariableDefinition]
    /// Uninterpreted tags after the last segment.
    public var unknownTags: [UnknownTag]
    /// What the lenient parser accepted although the RFC forbids it.
    public var warnings: [PlaylistWarning]

    /// Creates an empty media playlist.
    public init(url: URL? = nil) {
        self.url = url
        version = nil
        targetDuration = nil
        mediaSequence = 0
        discontinuitySequence = 0
        playlistType = nil
        hasEndList = false
        iFramesOnly = false
        independentSegments = false
        start = nil
        serverControl = nil
        partInformation = nil
        skip = nil
        segments = []
        trailingParts = []
        trailingMap = nil
        trailingProgramDateTime = nil
        preloadHints = []
        renditionReports = []
        dateRanges = []
        variables = []
        unknownTags = []
        warnings = []
    }

    /// Whether more segments may be added (no `EXT-X-ENDLIST` and not `VOD`).
    public var isLive: Bool { !hasEndList && playlistType != .vod }

    /// Sum of the segment durations, in seconds.
    public var totalDuration: Double { segments.reduce(0) { $0 + $1.duration } }

    /// The media sequence number of the first listed segment (after skipped segments).
    public var firstListedMediaSequence: Int { mediaSequence &+ (skip?.skippedSegments ?? 0) }
}

/// `EXT-X-SERVER-CONTROL`: what the server supports for low-latency delivery. A value type, safe from any thread.
public struct ServerControl: Sendable, Hashable, Codable {
    /// `CAN-SKIP-UNTIL`: the skip boundary in seconds (delta updates are supported).
    public var canSkipUntil: Double?
    /// `CAN-SKIP-DATERANGES=YES`.
    public var canSkipDateRanges: Bool
    /// `HOLD-BACK` in seconds.
    public var holdBack: Double?
    /// `PART-HOLD-BACK` in seconds.
    public var partHoldBack: Double?
    /// `CAN-BLOCK-RELOAD=YES`: blocking playlist reload is supported.
    public var canBlockReload: Bool
    /// Attributes this parser does not interpret.
    public var unknownAttributes: AttributeList

    /// Creates server control information.
    public init(
        canSkipUntil: Double? = nil, canSkipDateRanges: Bool = false, holdBack: Double? = nil,
        partHoldBack: Double? = nil, canBlockReload: Bool = false, unknownAttributes: AttributeList = AttributeList()
    ) {
        self.canSkipUntil = canSkipUntil
        self.canSkipDateRanges = canSkipDateRanges
        self.holdBack = holdBack
        self.partHoldBack = partHoldBack
        self.canBlockReload = canBlockReload
        self.unknownAttributes = unknownAttributes
    }
}

/// `EXT-X-PART-INF`. A value type, safe from any thread.
public struct PartInformation: Sendable, Hashable, Codable {
    /// `PART-TARGET` in seconds.
    public var partTarget: Double
    /// Attributes this parser does not interpret.
    public var unknownAttributes: AttributeList

    /// Creates part information.
    public init(partTarget: Double, unknownAttributes: AttributeList = AttributeList()) {
        self.partTarget = partTarget
        self.unknownAttributes = unknownAttributes
    }
}

/// `EXT-X-SKIP`: segments omitted from a delta update. A value type, safe from any thread.
public struct SkipInfo: Sendable, Hashable, Codable {
    /// `SKIPPED-SEGMENTS`.
    public var skippedSegments: Int
    /// `RECENTLY-REMOVED-DATERANGES`: IDs of date ranges removed since the last full playlist.
    public var recentlyRemovedDateRanges: [String]
    /// Attributes this parser does not interpret.
    public var unknownAttributes: AttributeList

    /// Creates skip information.
    public init(
        skippedSegments: Int, recentlyRemovedDateRanges: [String] = [],
        unknownAttributes: AttributeList = AttributeList()
    ) {
        self.skippedSegments = skippedSegments
        self.recentlyRemovedDateRanges = recentlyRemovedDateRanges
        self.unknownAttributes = unknownAttributes
    }
}

/// `EXT-X-PRELOAD-HINT`: a resource the client may request before it is listed. A value type, safe from any
/// thread.
public struct PreloadHint: Sendable, Hashable, Codable {
    /// `TYPE` (`PART` or `MAP`; other values kept as written).
    public var type: String
    /// `URI` as written.
    public var uri: String
    /// The playlist URL the URI is relative to.
    public var baseURL: URL?
    /// `BYTERANGE-START`; absent means 0.
    public var byteRangeStart: Int?
    /// `BYTERANGE-LENGTH`; absent means "to the end of the resource".
    public var byteRangeLength: Int?
    /// Attributes this parser does not interpret.
    public var unknownAttributes: AttributeList

    /// Creates a hint.
    public init(
        type: String, uri: String, baseURL: URL? = nil, byteRangeStart: Int? = nil, byteRangeLength: Int? = nil,
        unknownAttributes: AttributeList = AttributeList()
    ) {
        self.type = type
        self.uri = uri
        self.baseURL = baseURL
        self.byteRangeStart = byteRangeStart
        self.byteRangeLength = byteRangeLength
        self.unknownAttributes = unknownAttributes
    }

    /// The URI resolved against the playlist URL.
    public var url: URL? { resolve(uri, against: baseURL) }
}

/// `EXT-X-RENDITION-REPORT`: the latest segment and part of another rendition. A value type, safe from any thread.
public struct RenditionReport: Sendable, Hashable, Codable {
    /// `URI` as written.
    public var uri: String
    /// The playlist URL the URI is relative to.
    public var baseURL: URL?
    /// `LAST-MSN`.
    public var lastMediaSequence: Int?
    /// `LAST-PART`.
    public var lastPart: Int?
    /// Attributes this parser does not interpret.
    public var unknownAttributes: AttributeList

    /// Creates a report.
    public init(
        uri: String, baseURL: URL? = nil, lastMediaSequence: Int? = nil, lastPart: Int? = nil,
        unknownAttributes: AttributeList = AttributeList()
    ) {
        self.uri = uri
        self.baseURL = baseURL
        self.lastMediaSequence = lastMediaSequence
        self.lastPart = lastPart
        self.unknownAttributes = unknownAttributes
    }

    /// The URI resolved against the playlist URL.
    public var url: URL? { resolve(uri, against: baseURL) }
}
