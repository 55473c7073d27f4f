import Foundation

/// A kind of media a selection group offers, and the traits of one option, like `AVMediaCharacteristic` (the raw
/// values are Apple's). A value type, safe anywhere.
public struct MediaCharacteristic: RawRepresentable, Hashable, Sendable {
    /// The characteristic's identifier.
    public var rawValue: String
    /// A characteristic named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Sound: the audio tracks, or an HLS stream's audio renditions.
    public static let audible = MediaCharacteristic(rawValue: "public.audible")
    /// Text to read: subtitle tracks, or an HLS stream's subtitle renditions.
    public static let legible = MediaCharacteristic(rawValue: "public.legible")
    /// Pictures.
    public static let visual = MediaCharacteristic(rawValue: "public.visual")
    /// Sound that describes the picture for people who cannot see it (HLS `CHARACTERISTICS`).
    public static let describesVideoForAccessibility = MediaCharacteristic(
        rawValue: "public.accessibility.describes-video")
    /// Subtitles that transcribe the dialogue for people who cannot hear it.
    public static let transcribesSpokenDialogForAccessibility = MediaCharacteristic(
        rawValue: "public.accessibility.transcribes-spoken-dialog")
    /// Subtitles that describe music and sound.
    public static let describesMusicAndSoundForAccessibility = MediaCharacteristic(
        rawValue: "public.accessibility.describes-music-and-sound")
    /// Only the subtitles a viewer always needs (foreign dialogue, signs): HLS `FORCED=YES`.
    public static let containsOnlyForcedSubtitles = MediaCharacteristic(rawValue: "public.subtitles.forced-only")
}

/// One choice of a media selection group: a sound track or HLS audio rendition, a subtitle track, like
/// `AVMediaSelectionOption`. A value type, safe anywhere.
public struct MediaSelectionOption: Sendable, Hashable, Identifiable {
    /// The name to show: an HLS rendition's `NAME`, a track's title, else its language's name, else "Track N".
    public var displayName: String
    /// The language as a BCP 47 tag ("en", "de-CH"), when the media says.
    public var extendedLanguageTag: String?
    /// Sound or subtitles.
    public var mediaType: AssetTrack.MediaType
    /// Whether Playhead can play it here.
    public var isPlayable: Bool
    /// Its traits (accessibility, forced subtitles), besides the group's own characteristic.
    public var mediaCharacteristics: Set<MediaCharacteristic>
    /// The item track it plays (`AssetTrack.trackID` among the item's `tracks`).
    public var trackID: Int
    /// The same choice in the stream's other rendition groups (another codec or channel layout, one `NAME`): the
    /// player plays the one of the variant's group.
    var equivalentTrackIDs: Set<Int> = []

    /// The track ID.
    public var id: Int { trackID }

    /// The language, when the media says.
    public var locale: Locale? { extendedLanguageTag.map { Locale(identifier: $0) } }

    /// Whether the option has `characteristic`.
    public func hasMediaCharacteristic(_ characteristic: MediaCharacteristic) -> Bool {
        mediaCharacteristics.contains(characteristic)
    }

    init(_ track: AssetTrack, number: Int) {
        let language = track.languageCode.flatMap { code in
            Locale(identifier: "en").localizedString(forLanguageCode: LanguageTrackSelection.language(code))
        }
        displayName = track.name ?? language ?? "Track \(number)"
        // BCP 47: a bare ISO 639-2 code ("fre", "ger") in its two-letter form; a tag with a region as it is.
        extendedLanguageTag = track.languageCode.map { code in
            code.contains("-") || code.contains("_") ? code : LanguageTrackSelection.language(code)
        }
        mediaType = track.mediaType
        isPlayable = track.isPlayable
        mediaCharacteristics = Set(track.characteristics.map(MediaCharacteristic.init(rawValue:)))
        trackID = track.trackID
    }
}

/// The choices for one characteristic of an item (its sound, its subtitles), like `AVMediaSelectionGroup`. A
/// value type, safe anywhere.
public struct MediaSelectionGroup: Sendable, Hashable {
    /// `.audible` or `.legible`.
    public var characteristic: MediaCharacteristic
    /// The options, in the media's order.
    public var options: [MediaSelectionOption]
    /// What plays when nobody chooses (an HLS rendition marked `DEFAULT`, the user's language, the container's
    /// default track).
    public var defaultOption: MediaSelectionOption?
    /// Whether nothing may be chosen: true for subtitles, false for sound.
    public var allowsEmptySelection: Bool

    /// The option playing `trackID` (or its equivalent in another HLS rendition group), if any.
    public func option(forTrack trackID: Int) -> MediaSelectionOption? {
        options.first { $0.trackID == trackID || $0.equivalentTrackIDs.contains(trackID) }
    }
}

/// What an item plays in each group, like `AVMediaSelection`. A value type, safe anywhere.
public struct MediaSelection: Sendable, Hashable {
    /// The tracks playing, by media type (nil: none of that type).
    var playing: [AssetTrack.MediaType: Int]

    /// The option of `group` that plays, nil when none does.
    public func selectedMediaOption(in group: MediaSelectionGroup) -> MediaSelectionOption? {
        guard let id = playing[group.options.first?.mediaType ?? .audio] else { return nil }
        return group.option(forTrack: id)
    }
}
