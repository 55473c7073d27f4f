import Foundation

/// Which of an item's tracks play: its sound, its picture, its subtitles. An injected policy, as the ABR policy
/// is: set `PlayerItem.trackSelection` before the item starts playing (it applies from its next start).
///
/// Called on the engine's demux thread when the item opens, once per media type; it must be quick and must not
/// touch the main actor.
public protocol TrackSelectionPolicy: Sendable {
    /// The track of `mediaType` to play among the item's playable `tracks` (of every type, in file order: audio
    /// Playhead decodes, video that is not a cover picture, subtitles in a text format; the subtitles to show may
    /// depend on the sound heard); `suggested` is the media's own choice of that type (FFmpeg's best audio and
    /// video track, the first text subtitle track, an HLS `DEFAULT` rendition). Nil plays none of that type; a
    /// track of another type counts as `suggested`.
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
        let candidates = tracks.filter { $0.mediaType == mediaType }
        for language in preferred.map(Self.language) {
            if let match = candidates.first(where: { $0.languageCode.map(Self.language) == language }) { return match }
        }
        return mediaType == .subtitle && subtitlesOnlyInPreferredLanguages ? nil : suggested
    }

    /// The languages the user reads, most wanted first, from the environment as gettext reads it: `LANGUAGE` (a
    /// colon-separated list), then `LC_ALL`, `LC_MESSAGES`, `LANG`. "C" and "POSIX" name none. Safe anywhere.
    public static func environmentLanguages(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> [String]
    {
        var tags = (environment["LANGUAGE"] ?? "").split(separator: ":").map(String.init)
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[key], !value.isEmpty {
                tags.append(value)
                break
            }
        }
        return tags.map { String($0.prefix { $0 != "." && $0 != "@" }) }.filter {
            !$0.isEmpty && $0 != "C" && $0 != "POSIX"
        }
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

/// What an item plays unless told otherwise, like AVFoundation's automatic media selection from the user's
/// languages: the sound in the first of `languages` the media has (else the media's own choice); subtitles when
/// the media shows some, in the first of `languages` it has them in, and, when it shows none, subtitles in that
/// language if the sound is in another. With no language known (`LANG=C`), the media's own choice of both. A value
/// type, safe anywhere. Subtitles holding only forced ones (HLS `FORCED=YES`) are never chosen as subtitles; with
/// none chosen, those in the language of the sound show.
public struct AutomaticTrackSelection: TrackSelectionPolicy {
    /// The user's languages, most wanted first.
    public var languages: [String]

    /// A selection for `languages`; by default the environment's, as gettext reads it (`LANGUAGE`, then
    /// `LC_ALL`, `LC_MESSAGES`, `LANG`).
    public init(languages: [String] = LanguageTrackSelection.environmentLanguages()) { self.languages = languages }

    /// The track of `mediaType` to play among `tracks` (all the item's), `suggested` being the media's own choice.
    public func select(_ mediaType: AssetTrack.MediaType, among tracks: [AssetTrack], suggested: AssetTrack?)
        -> AssetTrack?
    {
        let wanted = languages.map(LanguageTrackSelection.language)
        let sound = tracks.filter { $0.mediaType == .audio }
        func inLanguage(_ candidates: [AssetTrack]) -> (AssetTrack, String)? {
            for language in wanted {
                if let match = candidates.first(where: {
                    $0.languageCode.map(LanguageTrackSelection.language) == language
                }) {
                    return (match, language)
                }
            }
            return nil
        }
        switch mediaType {
        case .video: return suggested
        case .audio: return inLanguage(sound)?.0 ?? suggested
        case .subtitle:
            let all = tracks.filter { $0.mediaType == .subtitle }
            let subtitles = all.filter { !Self.isForcedOnly($0) }
            let suggested = suggested.flatMap { Self.isForcedOnly($0) ? nil : $0 }
            // The sound this policy plays: the user's language, else (the media's choice is not known here) the
            // first.
            let playing = inLanguage(sound)?.0 ?? sound.first
            let heard = playing?.languageCode.map(LanguageTrackSelection.language)
            let chosen: AssetTrack?
            if let (subtitle, language) = inLanguage(subtitles) {
                // Subtitles the media shows anyway are shown in the user's language; when it shows none, the
                // user's subtitles when the sound is in another language.
                chosen =
                    suggested.map {
                        $0.languageCode.map(LanguageTrackSelection.language) == language ? $0 : subtitle
                    } ?? (heard.map { $0 != language } ?? false ? subtitle : nil)
            } else {
                chosen = suggested
            }
            // No subtitles: the forced ones in the language heard (foreign dialogue, signs), as AVFoundation does.
            return chosen ?? Self.forcedSubtitles(among: tracks, heard: playing)
        }
    }

    /// The forced-only subtitles among `tracks` in the language of `heard` (the sound playing), if any.
    static func forcedSubtitles(among tracks: [AssetTrack], heard: AssetTrack?) -> AssetTrack? {
        guard let language = heard?.languageCode.map(LanguageTrackSelection.language) else { return nil }
        return tracks.first { track in
            track.mediaType == .subtitle && isForcedOnly(track)
                && track.languageCode.map(LanguageTrackSelection.language) == language
        }
    }

    /// Whether `track` holds only forced subtitles (HLS `FORCED=YES`).
    static func isForcedOnly(_ track: AssetTrack) -> Bool {
        track.characteristics.contains(MediaCharacteristic.containsOnlyForcedSubtitles.rawValue)
    }
}
