import Foundation
import Playhead

/// A key of the Now Playing dictionary, like `MPMediaItemProperty*` and `MPNowPlayingInfoProperty*`. A value type,
/// safe anywhere.
public struct NowPlayingInfoKey: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    /// The key's name.
    public var rawValue: String
    /// The key named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }
    /// The key named `value`.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// `String`: the title.
    public static let title: NowPlayingInfoKey = "title"
    /// `String`: the artist.
    public static let artist: NowPlayingInfoKey = "artist"
    /// `String`: the album's title.
    public static let albumTitle: NowPlayingInfoKey = "albumTitle"
    /// `String`: the album's artist.
    public static let albumArtist: NowPlayingInfoKey = "albumArtist"
    /// `Int`: the track's number on its album.
    public static let albumTrackNumber: NowPlayingInfoKey = "albumTrackNumber"
    /// `String`: the genre.
    public static let genre: NowPlayingInfoKey = "genre"
    /// `Double`: the duration in seconds.
    public static let playbackDuration: NowPlayingInfoKey = "playbackDuration"
    /// `Double`: the elapsed time in seconds when this dictionary was published.
    public static let elapsedPlaybackTime: NowPlayingInfoKey = "elapsedPlaybackTime"
    /// `Double`: the rate (0 when paused).
    public static let playbackRate: NowPlayingInfoKey = "playbackRate"
    /// `Double`: the rate play resumes at.
    public static let defaultPlaybackRate: NowPlayingInfoKey = "defaultPlaybackRate"
    /// `NowPlayingMediaType`: audio or video.
    public static let mediaType: NowPlayingInfoKey = "mediaType"
    /// `NowPlayingArtwork`: the cover picture.
    public static let artwork: NowPlayingInfoKey = "artwork"
    /// `URL`: the media's location.
    public static let assetURL: NowPlayingInfoKey = "assetURL"
    /// `Bool`: a live stream (no duration, no seeking).
    public static let isLiveStream: NowPlayingInfoKey = "isLiveStream"
    /// `Int`: the current chapter, from 0.
    public static let chapterNumber: NowPlayingInfoKey = "chapterNumber"
    /// `Int`: the number of chapters.
    public static let chapterCount: NowPlayingInfoKey = "chapterCount"
    /// `Int`: the item's index in the playback queue.
    public static let playbackQueueIndex: NowPlayingInfoKey = "playbackQueueIndex"
    /// `Int`: the number of items in the playback queue.
    public static let playbackQueueCount: NowPlayingInfoKey = "playbackQueueCount"
    /// `[AdTimeRange]`: the ads on the item's time line (`MPNowPlayingInfoPropertyAdTimeRanges`). The desktop is
    /// shown the duration and elapsed time without them, and cannot seek while one plays.
    public static let adTimeRanges: NowPlayingInfoKey = "adTimeRanges"
    /// `[NowPlayingInfoLanguageOption]`: the sound and subtitles playing
    /// (`MPNowPlayingInfoPropertyCurrentLanguageOptions`).
    public static let currentLanguageOptions: NowPlayingInfoKey = "currentLanguageOptions"
    /// `[NowPlayingInfoLanguageOptionGroup]`: the sound and subtitle choices
    /// (`MPNowPlayingInfoPropertyAvailableLanguageOptions`).
    public static let availableLanguageOptions: NowPlayingInfoKey = "availableLanguageOptions"
}

/// An ad on the item's time line, like `MPAdTimeRange`. A value type, safe anywhere.
public struct AdTimeRange: Sendable, Hashable {
    /// Where the ad lies on the item's time line (the time line `elapsedPlaybackTime` and `playbackDuration`
    /// use).
    public var timeRange: TimeRange
    /// The app's name for the ad.
    public var adIdentifier: String?
    /// An ad at `timeRange`.
    public init(timeRange: TimeRange, adIdentifier: String? = nil) {
        self.timeRange = timeRange
        self.adIdentifier = adIdentifier
    }
}

/// Audio or video, like `MPNowPlayingInfoMediaType`. Safe anywhere.
public enum NowPlayingMediaType: Sendable, Hashable {
    /// Sound only.
    case audio
    /// Pictures.
    case video
}

/// A cover picture, like `MPMediaItemArtwork`: the encoded image file's bytes (PNG or JPEG). Safe anywhere.
public struct NowPlayingArtwork: Sendable, Hashable {
    /// The encoded picture.
    public var data: [UInt8]
    /// Artwork from encoded picture bytes.
    public init(data: [UInt8]) { self.data = data }
}

/// What is playing, in typed form: the same content as the dictionary form of
/// `NowPlayingInfoCenter.nowPlayingInfo`. A value type, safe anywhere.
public struct NowPlayingInfo: Sendable, Hashable {
    /// The title.
    public var title: String?
    /// The artist.
    public var artist: String?
    /// The album's title.
    public var albumTitle: String?
    /// The album's artist.
    public var albumArtist: String?
    /// The track's number on its album.
    public var albumTrackNumber: Int?
    /// The genre.
    public var genre: String?
    /// The duration in seconds.
    public var playbackDuration: Double?
    /// The elapsed time in seconds at the moment of publishing; listeners extrapolate with `playbackRate`.
    public var elapsedPlaybackTime: Double?
    /// The rate: 0 when paused.
    public var playbackRate: Double?
    /// The rate play resumes at.
    public var defaultPlaybackRate: Double?
    /// Audio or video.
    public var mediaType: NowPlayingMediaType?
    /// The cover picture.
    public var artwork: NowPlayingArtwork?
    /// The media's location.
    public var assetURL: URL?
    /// Whether this is a live stream (no duration, no seeking).
    public var isLiveStream: Bool?
    /// The current chapter, from 0.
    public var chapterNumber: Int?
    /// The number of chapters.
    public var chapterCount: Int?
    /// The item's index in the playback queue.
    public var playbackQueueIndex: Int?
    /// The number of items in the playback queue.
    public var playbackQueueCount: Int?
    /// The ads on the item's time line: `playbackDuration` and `elapsedPlaybackTime` include them, the desktop
    /// sees both without them.
    public var adTimeRanges: [AdTimeRange]?
    /// The sound and subtitles playing.
    public var currentLanguageOptions: [NowPlayingInfoLanguageOption]?
    /// The sound and subtitle choices.
    public var availableLanguageOptions: [NowPlayingInfoLanguageOptionGroup]?

    /// Empty information.
    public init() {}

    /// Reads the dictionary form; values of the wrong type are ignored. Numbers may be any of `Double`, `Float`,
    /// `Int`.
    public init(dictionary d: [NowPlayingInfoKey: any Sendable]) {
        title = d[.title] as? String
        artist = d[.artist] as? String
        albumTitle = d[.albumTitle] as? String
        albumArtist = d[.albumArtist] as? String
        albumTrackNumber = Self.int(d[.albumTrackNumber])
        genre = d[.genre] as? String
        playbackDuration = Self.double(d[.playbackDuration])
        elapsedPlaybackTime = Self.double(d[.elapsedPlaybackTime])
        playbackRate = Self.double(d[.playbackRate])
        defaultPlaybackRate = Self.double(d[.defaultPlaybackRate])
        mediaType = d[.mediaType] as? NowPlayingMediaType
        artwork = d[.artwork] as? NowPlayingArtwork
        assetURL = d[.assetURL] as? URL
        isLiveStream = d[.isLiveStream] as? Bool
        chapterNumber = Self.int(d[.chapterNumber])
        chapterCount = Self.int(d[.chapterCount])
        playbackQueueIndex = Self.int(d[.playbackQueueIndex])
        playbackQueueCount = Self.int(d[.playbackQueueCount])
        adTimeRanges = d[.adTimeRanges] as? [AdTimeRange]
        currentLanguageOptions = d[.currentLanguageOptions] as? [NowPlayingInfoLanguageOption]
        availableLanguageOptions = d[.availableLanguageOptions] as? [NowPlayingInfoLanguageOptionGroup]
    }

    /// The dictionary form, holding only the fields that are set.
    public var dictionary: [NowPlayingInfoKey: any Sendable] {
        var d: [NowPlayingInfoKey: any Sendable] = [:]
        let fields: [(NowPlayingInfoKey, (any Sendable)?)] = [
            (.title, title), (.artist, artist), (.albumTitle, albumTitle), (.albumArtist, albumArtist),
            (.albumTrackNumber, albumTrackNumber), (.genre, genre), (.playbackDuration, playbackDuration),
            (.elapsedPlaybackTime, elapsedPlaybackTime), (.playbackRate, playbackRate),
            (.defaultPlaybackRate, defaultPlaybackRate), (.mediaType, mediaType), (.artwork, artwork),
            (.assetURL, assetURL), (.isLiveStream, isLiveStream), (.chapterNumber, chapterNumber),
            (.chapterCount, chapterCount), (.playbackQueueIndex, playbackQueueIndex),
            (.playbackQueueCount, playbackQueueCount), (.adTimeRanges, adTimeRanges),
            (.currentLanguageOptions, currentLanguageOptions), (.availableLanguageOptions, availableLanguageOptions),
        ]
        for (key, value) in fields { if let value { d[key] = value } }
        return d
    }

    private static func double(_ v: (any Sendable)?) -> Double? {
        switch v {
        case let x as Double: return x
        case let x as Float: return Double(x)
        case let x as Int: return Double(x)
        default: return nil
        }
    }

    private static func int(_ v: (any Sendable)?) -> Int? {
        switch v {
        case let x as Int: return x
        case let x as Double where x.isFinite: return Int(x)
        default: return nil
        }
    }
}

/// The app's playback state, like `MPNowPlayingPlaybackState`. Safe anywhere.
public enum NowPlayingPlaybackState: Sendable, Hashable {
    /// Not said: derived from the published rate.
    case unknown
    /// Playing.
    case playing
    /// Paused.
    case paused
    /// Stopped.
    case stopped
    /// Interrupted (by another app's sound); shown as paused.
    case interrupted
}
