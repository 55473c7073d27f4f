import Foundation

/// The `TYPE` of an `EXT-X-MEDIA` rendition. Unknown values are kept as written. A value type, safe from any
/// thread.
public struct MediaType: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The type as written.
    public var rawValue: String
    /// Creates a type from its written form.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `AUDIO`.
    public static let audio = MediaType(rawValue: "AUDIO")
    /// `VIDEO`.
    public static let video = MediaType(rawValue: "VIDEO")
    /// `SUBTITLES`.
    public static let subtitles = MediaType(rawValue: "SUBTITLES")
    /// `CLOSED-CAPTIONS`.
    public static let closedCaptions = MediaType(rawValue: "CLOSED-CAPTIONS")
    /// The written form.
    public var description: String { rawValue }
}

/// An alternative rendition (`EXT-X-MEDIA`). A value type, safe from any thread.
public struct Rendition: Sendable, Hashable, Codable {
    /// `TYPE`.
    public var type: MediaType
    /// `URI` as written; `nil` when the rendition is muxed into the variant (or for closed captions).
    public var uri: String?
    /// The playlist URL the URI is relative to.
    public var baseURL: URL?
    /// `GROUP-ID`.
    public var groupID: String
    /// `LANGUAGE` (RFC 5646 tag).
    public var language: String?
    /// `ASSOC-LANGUAGE`.
    public var associatedLanguage: String?
    /// `NAME`.
    public var name: String
    /// `STABLE-RENDITION-ID`.
    public var stableRenditionID: String?
    /// `DEFAULT=YES`.
    public var isDefault: Bool
    /// `AUTOSELECT=YES`.
    public var autoselect: Bool
    /// `FORCED=YES` (subtitles).
    public var forced: Bool
    /// `INSTREAM-ID` (closed captions: `CC1`...`CC4`, `SERVICE1`...`SERVICE63`).
    public var instreamID: String?
    /// `BIT-DEPTH` (audio).
    public var bitDepth: Int?
    /// `SAMPLE-RATE` in Hz (audio).
    public var sampleRate: Int?
    /// `CHARACTERISTICS` as written (comma-separated UTIs).
    public var characteristics: String?
    /// `CHANNELS` as written (`6`, `16/JOC`, `2/-/BINAURAL`).
    public var channels: String?
    /// Attributes this parser does not interpret.
    public var unknownAttributes: AttributeList

    /// Creates a rendition.
    public init(type: MediaType, groupID: String, name: String, uri: String? = nil, baseURL: URL? = nil) {
        self.type = type
        self.groupID = groupID
        self.name = name
        self.uri = uri
        self.baseURL = baseURL
        isDefault = false
        autoselect = false
        forced = false
        unknownAttributes = AttributeList()
    }

    /// The URI resolved against the playlist URL.
    public var url: URL? { uri.flatMap { resolve($0, against: baseURL) } }
}

/// `EXT-X-SESSION-DATA`. A value type, safe from any thread.
public struct SessionData: Sendable, Hashable, Codable {
    /// `DATA-ID` (reverse-DNS name).
    public var dataID: String
    /// `VALUE`.
    public var value: String?
    /// `URI` as written.
    public var uri: String?
    /// The playlist URL the URI is relative to.
    public var baseURL: URL?
    /// `FORMAT` (`JSON` or `RAW`).
    public var format: String?
    /// `LANGUAGE`.
    public var language: String?
    /// Attributes this parser does not interpret.
    public var unknownAttributes: AttributeList

    /// Creates session data.
    public init(
        dataID: String, value: String? = nil, uri: String? = nil, baseURL: URL? = nil, format: String? = nil,
        language: String? = nil, unknownAttributes: AttributeList = AttributeList()
    ) {
        self.dataID = dataID
        self.value = value
        self.uri = uri
        self.baseURL = baseURL
        self.format = format
        self.language = language
        self.unknownAttributes = unknownAttributes
    }

    /// The URI resolved against the playlist URL.
    public var url: URL? { uri.flatMap { resolve($0, against: baseURL) } }
}

/// `EXT-X-CONTENT-STEERING`. A value type, safe from any thread.
public struct ContentSteering: Sendable, Hashable, Codable {
    /// `SERVER-URI` as written.
    public var serverURI: String
    /// The playlist URL the URI is relative to.
    public var baseURL: URL?
    /// `PATHWAY-ID`: the pathway to start with.
    public var pathwayID: String?
    /// Attributes this parser does not interpret.
    public var unknownAttributes: AttributeList

    /// Creates content steering information.
    public init(
        serverURI: String, baseURL: URL? = nil, pathwayID: String? = nil,
        unknownAttributes: AttributeList = AttributeList()
    ) {
        self.serverURI = serverURI
        self.baseURL = baseURL
        self.pathwayID = pathwayID
        self.unknownAttributes = unknownAttributes
    }

    /// The server URI resolved against the playlist URL.
    public var serverURL: URL? { resolve(serverURI, against: baseURL) }
}

/// A parsed playlist: multivariant or media. A value type, safe from any thread.
public enum Playlist: Sendable, Hashable, Codable {
    /// A multivariant playlist.
    case multivariant(MultivariantPlaylist)
    /// A media playlist.
    case media(MediaPlaylist)

    /// The warnings of the lenient parse.
    public var warnings: [PlaylistWarning] {
        switch self {
        case .multivariant(let playlist): return playlist.warnings
        case .media(let playlist): return playlist.warnings
        }
    }

    /// The media playlist, if this is one.
    public var media: MediaPlaylist? {
        if case .media(let playlist) = self { return playlist }
        return nil
    }

    /// The multivariant playlist, if this is one.
    public var multivariant: MultivariantPlaylist? {
        if case .multivariant(let playlist) = self { return playlist }
        return nil
    }
}
