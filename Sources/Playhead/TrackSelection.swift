import Foundation

/// Which of an item's tracks play: its sound, its picture, its subtitles. An injected policy, as the ABR policy
/// is: set `PlayerItem.trackSelection` before the item starts playing (it applies from its next start).
///
/// Called on the engine's demux thread when the item opens, once per media type; it must be quick and must not
/// touch the main actor.
public protocol TrackSelectionPolicy: Sendable {
    /// The track of `mediaType` to play among the item's playable `tracks` of that type (in file order: audio
    /// Playhead decodes, video that is not a cover picture, subtitles in a text format); `suggested` is the media's
    /// own choice (FFmpeg's best audio and video track, the first text subtitle track). Nil plays none of that
    /// type.
    func select(_ mediaType: AssetTrack.MediaType, among tracks: [AssetTrack], suggested: AssetTrack?) -> AssetTrack?
}

/// The media's own choice of tracks: what plays when an item sets no policy. A value type, safe anywhere.
public struct DefaultTrackSelection: TrackSelectionPolicy {
    /// The default selection.
    public init() {}

    /// `suggested`.
    public func select(_ mediaType: AssetTrack.MediaType, among tracks: [AssetTrack], suggested: AssetTrack?)
        -> AssetTrack?
    { suggested }
}

/// Tracks by language, like `AVPlayerMediaSelectionCriteria`'s preferred languages: the sound and the subtitles
/// in the first language of each list that the media has (tags compared by language, so "fr", "fra", "fre" and
/// "fr-CA" are all French). Without a match the sound is the media's own choice, and the subtitles too unless
/// `subtitlesOnlyInPreferredLanguages`. A value type, safe anywhere.
public struct LanguageTrackSelection: TrackSelectionPolicy {
    /// Languages for the sound, most wanted first (BCP 47 or ISO 639 tags).
    public var audioLanguages: [String]
    /// Languages for the subtitles, most wanted first.
    public var subtitleLanguages: [String]
    /// Whether subtitles show only in one of `subtitleLanguages` (none otherwise).
    public var subtitlesOnlyInPreferredLanguages: Bool

    /// A selection by language.
    public init(
        audioLanguages: [String] = [], subtitleLanguages: [String] = [],
        subtitlesOnlyInPreferredLanguages: Bool = false
    ) {
        self.audioLanguages = audioLanguages
        self.subtitleLanguages = subtitleLanguages
        self.subtitlesOnlyInPreferredLanguages = subtitlesOnlyInPreferredLanguages
    }

    /// The first track in the first preferred language the media has.
    public func select(_ mediaType: AssetTrack.MediaType, among tracks: [AssetTrack], suggested: AssetTrack?)
        -> AssetTrack?
    {
        let preferred: [String]
        switch mediaType {
        case .audio: preferred = audioLanguages
        case .subtitle: preferred = subtitleLanguages
        case .video: return suggested
        }
        for language in preferred.map(Self.language) {
            if let match = tracks.first(where: { $0.languageCode.map(Self.language) == language }) { return match }
        }
        return mediaType == .subtitle && subtitlesOnlyInPreferredLanguages ? nil : suggested
    }

    /// ISO 639-2 bibliographic codes (Matroska's) and the terminology codes Foundation knows.
    private static let bibliographic = [
        "alb": "sqi", "arm": "hye", "baq": "eus", "bur": "mya", "chi": "zho", "cze": "ces", "dut": "nld",
        "fre": "fra", "geo": "kat", "ger": "deu", "gre": "ell", "ice": "isl", "mac": "mkd", "mao": "mri",
        "may": "msa", "per": "fas", "rum": "ron", "slo": "slk", "tib": "bod", "wel": "cym",
    ]

    /// A language tag reduced to its language, in two letters where there are two ("fre", "fra", "fr-CA": "fr").
    /// Safe anywhere.
    public static func language(_ tag: String) -> String {
        let base = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init)?.lowercased() ?? ""
        let code = bibliographic[base] ?? base
        return Locale.LanguageCode(code).identifier(.alpha2) ?? code
    }
}
