import CFFmpeg
import Foundation
import PlayheadCore

/// What one stream of an input holds, read when the input opens. A value type, safe on any thread.
public struct StreamInfo: Sendable, Hashable {
    /// The kind of media in a stream.
    public enum MediaType: String, Sendable, Hashable {
        /// Sound.
        case audio
        /// Pictures.
        case video
        /// Text or bitmap subtitles.
        case subtitle
        /// Anything else (data, attachments).
        case other
    }

    /// The stream's index in its input.
    public var index: Int
    /// The kind of media.
    public var mediaType: MediaType
    /// FFmpeg's short codec name, such as "aac" or "h264".
    public var codecName: String
    /// Whether a decoder for the codec exists in this FFmpeg build.
    public var isDecodable: Bool
    /// The time base of packet and frame time stamps, as (numerator, denominator).
    public var timeBase: (num: Int32, den: Int32)
    /// The stream's duration, `.invalid` when the container does not say.
    public var duration: MediaTime
    /// The first time stamp, in seconds (0 when unknown).
    public var startSeconds: Double
    /// Samples per second (audio).
    public var sampleRate: Int
    /// Channel count (audio).
    public var channels: Int
    /// Pixel size (video).
    public var width: Int, height: Int
    /// The width of a pixel over its height (video; 1 for square pixels or when unknown): a 720x576 picture at
    /// 64:45 shows 1024 wide.
    public var sampleAspectRatio: Double = 1
    /// Frames per second (video), 0 when unknown.
    public var frameRate: Double
    /// Bits per second, 0 when unknown.
    public var bitRate: Int
    /// Whether this video stream is only a cover picture (`AV_DISPOSITION_ATTACHED_PIC`).
    public var isAttachedPicture: Bool
    /// The stream's language tag, when given.
    public var language: String?
    /// The stream's own name (its `title` tag; an HLS rendition's `NAME`), when given.
    public var title: String?
    /// What the media says the stream is for, as `AVMediaCharacteristic` raw values (an HLS rendition's
    /// `CHARACTERISTICS`, "public.subtitles.forced-only" for `FORCED=YES`).
    public var characteristics: [String] = []
    /// The HLS rendition group (`GROUP-ID`) the track is a rendition of; nil for a container's own streams.
    /// Renditions of two groups with one `NAME` (or language) are the same choice in two codecs or layouts.
    public var group: String?
    /// How far the picture must be turned clockwise to be upright (0, 90, 180 or 270 degrees), from the stream's
    /// display matrix (a phone's portrait video).
    public var rotation = 0
    /// Whether this video stream carries closed captions (CEA-608 in ATSC A/53 `cc_data`) that FFmpeg's probe saw
    /// in its first pictures.
    public var hasClosedCaptions = false
    /// An ASS or SSA subtitle stream's header (its `[Script Info]` and styles: the codec's private data), which
    /// its events' styles name; nil for other streams.
    public var subtitleHeader: String?
    /// The fonts the file attaches (Matroska), for an ASS or SSA stream's styles; empty otherwise.
    public var subtitleFonts: [EmbeddedFont] = []

    /// Equality by index and codec (time bases are tuples and do not synthesise).
    public static func == (a: StreamInfo, b: StreamInfo) -> Bool {
        a.index == b.index && a.codecName == b.codecName && a.mediaType == b.mediaType
    }

    /// Hashes the index and codec.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(index)
        hasher.combine(codecName)
    }

    /// A stream known only from a description (an HLS rendition's `EXT-X-MEDIA` tag) before its media is opened:
    /// no time base (1/90000), duration or sizes yet.
    public init(
        describing mediaType: MediaType, index: Int, codecName: String, isDecodable: Bool, channels: Int = 0,
        language: String? = nil, title: String? = nil
    ) {
        self.title = title
        self.index = index
        self.mediaType = mediaType
        self.codecName = codecName
        self.isDecodable = isDecodable
        timeBase = (1, 90_000)
        duration = .invalid
        startSeconds = 0
        sampleRate = 0
        self.channels = channels
        width = 0
        height = 0
        frameRate = 0
        bitRate = 0
        isAttachedPicture = false
        self.language = language
    }

    init(_ stream: UnsafeMutablePointer<AVStream>) {
        let par = stream.pointee.codecpar!.pointee
        index = Int(stream.pointee.index)
        switch par.codec_type {
        case AVMEDIA_TYPE_AUDIO: mediaType = .audio
        case AVMEDIA_TYPE_VIDEO: mediaType = .video
        case AVMEDIA_TYPE_SUBTITLE: mediaType = .subtitle
        default: mediaType = .other
        }
        codecName = String(cString: avcodec_get_name(par.codec_id))
        isDecodable = avcodec_find_decoder(par.codec_id) != nil
        let tb = stream.pointee.time_base
        timeBase = (tb.num, tb.den)
        let d = stream.pointee.duration
        if d != ph_nopts_value(), d > 0, tb.den > 0 {
            duration = MediaTime(seconds: Double(d) * Double(tb.num) / Double(tb.den), preferredTimescale: 600)
        } else {
            duration = .invalid
        }
        let s = stream.pointee.start_time
        startSeconds = (s != ph_nopts_value() && tb.den > 0) ? Double(s) * Double(tb.num) / Double(tb.den) : 0
        sampleRate = Int(par.sample_rate)
        channels = Int(par.ch_layout.nb_channels)
        width = Int(par.width)
        height = Int(par.height)
        let sar =
            stream.pointee.sample_aspect_ratio.num > 0 ? stream.pointee.sample_aspect_ratio : par.sample_aspect_ratio
        if sar.num > 0, sar.den > 0 {
            let ratio = Double(sar.num) / Double(sar.den)
            // A ratio beyond 1:10 either way is a broken header, not a picture to stretch.
            if ratio >= 0.1 && ratio <= 10 { sampleAspectRatio = ratio }
        }
        let fr = stream.pointee.avg_frame_rate
        frameRate = fr.den > 0 ? Double(fr.num) / Double(fr.den) : 0
        bitRate = Int(par.bit_rate)
        isAttachedPicture = stream.pointee.disposition & ph_disposition_attached_pic() != 0
        language = MediaMetadata.tag("language", in: stream.pointee.metadata)
        title = MediaMetadata.tag("title", in: stream.pointee.metadata)
        rotation = mediaType == .video ? Int(ph_stream_rotation(stream)) : 0
        if mediaType == .subtitle, codecName == "ass" || codecName == "ssa", let data = par.extradata,
            par.extradata_size > 0
        {
            let bytes = UnsafeBufferPointer(start: data, count: Int(par.extradata_size))
            subtitleHeader = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
    }

    /// Seconds for a time stamp in this stream's time base.
    public func seconds(_ ts: Int64) -> Double {
        Double(ts) * Double(timeBase.num) / Double(timeBase.den)
    }
}

/// Tags of a file (title, artist, album...) and its embedded cover art. A value type, safe on any thread.
public struct MediaMetadata: Sendable, Hashable {
    /// Every tag of the container, keys in lower case.
    public var tags: [String: String] = [:]
    /// The embedded cover picture's encoded bytes (JPEG or PNG), when there is one.
    public var artwork: [UInt8]?
    /// The container's chapters, in time order (none for most files).
    public var chapters: [MediaChapter] = []
    /// The loudness correction of the first audio stream, when the file has one.
    public var replayGain: ReplayGain?

    /// An empty set of tags.
    public init() {}

    /// The title tag.
    public var title: String? { tags["title"] }
    /// The artist tag.
    public var artist: String? { tags["artist"] }
    /// The album tag.
    public var album: String? { tags["album"] }
    /// The album artist tag.
    public var albumArtist: String? { tags["album_artist"] }
    /// The genre tag.
    public var genre: String? { tags["genre"] }
    /// The track number (the part before a slash in "3/12").
    public var trackNumber: Int? { tags["track"].flatMap { Int($0.split(separator: "/").first ?? "") } }

    static func tag(_ key: String, in dict: OpaquePointer?) -> String? {
        guard let dict, let entry = av_dict_get(dict, key, nil, 0), let v = entry.pointee.value else { return nil }
        return text(v)
    }

    /// A tag's bytes as text: UTF-8, else Latin-1 (an internet radio's ICY title is often Latin-1, and FFmpeg
    /// passes it on as it came).
    static func text(_ bytes: UnsafePointer<CChar>) -> String {
        if let s = String(validatingCString: bytes) { return s }
        let raw = UnsafeRawBufferPointer(start: bytes, count: strlen(bytes))
        return String(String.UnicodeScalarView(raw.map { Unicode.Scalar($0) }))
    }

    static func all(in dict: OpaquePointer?) -> [String: String] {
        var result: [String: String] = [:]
        var entry: UnsafeMutablePointer<AVDictionaryEntry>? = nil
        while let e = av_dict_get(dict, "", entry, AV_DICT_IGNORE_SUFFIX) {
            if let k = e.pointee.key, let v = e.pointee.value {
                result[String(cString: k).lowercased()] = text(v)
            }
            entry = e
        }
        return result
    }
}
