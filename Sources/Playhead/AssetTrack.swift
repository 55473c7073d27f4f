import PlayheadCore
import PlayheadFFmpeg

/// One track of an asset, like `AVAssetTrack`. A value type, safe anywhere.
public struct AssetTrack: Sendable, Hashable, Identifiable {
    /// The kind of media, like `AVMediaType`.
    public enum MediaType: String, Sendable, Hashable {
        /// Sound.
        case audio
        /// Pictures.
        case video
        /// Subtitles.
        case subtitle
    }

    /// The track's number in the file (its stream index).
    public var trackID: Int
    /// The kind of media.
    public var mediaType: MediaType
    /// The codec's short name ("aac", "h264").
    public var codecName: String
    /// Whether Playhead can play it here: decode its sound or pictures, read its subtitles (text formats).
    public var isPlayable: Bool
    /// Pixel size of video, zero otherwise.
    public var naturalSize: Size
    /// Frames per second of video, 0 otherwise or when unknown.
    public var nominalFrameRate: Float
    /// Bits per second, 0 when unknown.
    public var estimatedDataRate: Float
    /// Samples per second of audio.
    public var sampleRate: Int
    /// Channels of audio.
    public var channelCount: Int
    /// The language tag, when the media names one: ISO 639-2 `und` (undetermined, what MP4 and Matroska write
    /// for a track whose language nobody set) counts as none, as `AVAssetTrack.languageCode` is nil for it.
    public var languageCode: String?
    /// The track's duration, `.invalid` when the container does not say.
    public var duration: MediaTime
    /// The track's own name (a Matroska track title, an HLS rendition's `NAME`), when given.
    public var name: String?
    /// What the media says the track is for, as `MediaCharacteristic` raw values (accessibility, forced
    /// subtitles).
    public var characteristics: [String]

    /// The track ID.
    public var id: Int { trackID }
    /// The HLS rendition group it is a rendition of (renditions with one `NAME` in two groups are one choice).
    var group: String?

    init(_ s: StreamInfo) {
        trackID = s.index
        mediaType = s.mediaType == .audio ? .audio : (s.mediaType == .video ? .video : .subtitle)
        codecName = s.codecName
        // Subtitles play (reach legible outputs) in the text formats Playhead reads, and CC1 closed captions.
        isPlayable = s.mediaType == .subtitle ? ClosedCaptions.plays(s) : s.isDecodable
        naturalSize = Size(width: Double(s.width), height: Double(s.height))
        nominalFrameRate = Float(s.frameRate)
        estimatedDataRate = Float(s.bitRate)
        sampleRate = s.sampleRate
        channelCount = s.channels
        languageCode = s.language == "und" ? nil : s.language
        duration = s.duration
        name = s.title
        group = s.group
        characteristics = s.characteristics
    }
}

/// A width and height, like `CGSize`. A value type, safe anywhere.
public struct Size: Sendable, Hashable, CustomStringConvertible {
    /// The width.
    public var width: Double
    /// The height.
    public var height: Double
    /// A size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    /// No size.
    public static let zero = Size(width: 0, height: 0)
    /// `"1920x1080"`.
    public var description: String { "\(Int(width))x\(Int(height))" }
}

/// One metadata entry of an asset, like `AVMetadataItem` with a common key. A value type, safe anywhere.
public struct MetadataItem: Sendable, Hashable {
    /// Which common field this is, like `AVMetadataKey.common*`.
    public enum Key: Sendable, Hashable {
        /// `commonKeyTitle`.
        case title
        /// `commonKeyArtist`.
        case artist
        /// `commonKeyAlbumName`.
        case albumName
        /// The album artist.
        case albumArtist
        /// The genre.
        case genre
        /// The track number.
        case trackNumber
        /// `commonKeyArtwork`: encoded picture bytes in `dataValue`.
        case artwork
        /// Any other tag, by its container name.
        case other(String)
    }

    /// The field.
    public var key: Key
    /// The text value, for textual fields.
    public var stringValue: String?
    /// The bytes, for artwork.
    public var dataValue: [UInt8]?

    static func items(from m: MediaMetadata) -> [MetadataItem] {
        var items: [MetadataItem] = []
        var tags = m.tags
        // An internet radio's ICY tags: the song playing is the title, the station its album (and the title until
        // a song's title comes, or while it is empty).
        if tags["title"] == nil, let song = tags["streamtitle"]?.trimmingCharacters(in: .whitespaces), !song.isEmpty {
            tags["title"] = song
        }
        if let station = tags["icy-name"]?.trimmingCharacters(in: .whitespaces), !station.isEmpty {
            if tags["title"] == nil { tags["title"] = station } else if tags["album"] == nil { tags["album"] = station }
        }
        let known: [(String, Key)] = [
            ("title", .title), ("artist", .artist), ("album", .albumName), ("album_artist", .albumArtist),
            ("genre", .genre), ("track", .trackNumber),
        ]
        for (tag, key) in known { if let v = tags[tag] { items.append(MetadataItem(key: key, stringValue: v)) } }
        for (tag, v) in m.tags.sorted(by: { $0.key < $1.key }) where !known.contains(where: { $0.0 == tag }) {
            items.append(MetadataItem(key: .other(tag), stringValue: v))
        }
        if let art = m.artwork { items.append(MetadataItem(key: .artwork, dataValue: art)) }
        return items
    }
}

extension Array where Element == MetadataItem {
    /// The first string value for `key`.
    public func string(for key: MetadataItem.Key) -> String? { first { $0.key == key }?.stringValue }
}
