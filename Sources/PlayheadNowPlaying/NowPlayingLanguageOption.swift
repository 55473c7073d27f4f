import Foundation
import Playhead

/// Sound or subtitles, like `MPNowPlayingInfoLanguageOptionType`. Safe anywhere.
public enum NowPlayingInfoLanguageOptionType: Sendable, Hashable {
    /// A sound track or audio rendition.
    case audible
    /// A subtitle track or subtitle rendition.
    case legible
}

/// One sound or subtitle choice shown with what is playing, like `MPNowPlayingInfoLanguageOption`. The MPRIS
/// bridge publishes the current ones as `playhead:audioTrack`, `playhead:audioLanguage`, `playhead:subtitleTrack`
/// and `playhead:subtitleLanguage`. A value type, safe anywhere.
public struct NowPlayingInfoLanguageOption: Sendable, Hashable {
    /// Sound or subtitles.
    public var languageOptionType: NowPlayingInfoLanguageOptionType
    /// The language as a BCP 47 tag ("en", "de-CH"), when known.
    public var languageTag: String?
    /// Its traits (`MediaCharacteristic` raw values, such as `public.accessibility.describes-video`).
    public var languageOptionCharacteristics: [String]
    /// The name to show.
    public var displayName: String?
    /// The app's identifier for the option.
    public var identifier: String?

    /// An option of `type`.
    public init(
        type: NowPlayingInfoLanguageOptionType, languageTag: String?, characteristics: [String] = [],
        displayName: String?, identifier: String?
    ) {
        languageOptionType = type
        self.languageTag = languageTag
        languageOptionCharacteristics = characteristics
        self.displayName = displayName
        self.identifier = identifier
    }
}

/// The choices of one kind offered with what is playing, like `MPNowPlayingInfoLanguageOptionGroup`. A value
/// type, safe anywhere.
public struct NowPlayingInfoLanguageOptionGroup: Sendable, Hashable {
    /// The options, in the media's order.
    public var languageOptions: [NowPlayingInfoLanguageOption]
    /// What plays when nobody chooses.
    public var defaultLanguageOption: NowPlayingInfoLanguageOption?
    /// Whether nothing may be chosen (subtitles).
    public var allowEmptySelection: Bool

    /// A group of `languageOptions`.
    public init(
        languageOptions: [NowPlayingInfoLanguageOption], defaultLanguageOption: NowPlayingInfoLanguageOption?,
        allowEmptySelection: Bool
    ) {
        self.languageOptions = languageOptions
        self.defaultLanguageOption = defaultLanguageOption
        self.allowEmptySelection = allowEmptySelection
    }
}

extension MediaSelectionOption {
    /// The option as Now Playing shows it, like MediaPlayer's
    /// `AVMediaSelectionOption.makeNowPlayingInfoLanguageOption()`: its identifier is the track ID. Any thread.
    public func makeNowPlayingInfoLanguageOption() -> NowPlayingInfoLanguageOption {
        NowPlayingInfoLanguageOption(
            type: mediaType == .subtitle ? .legible : .audible, languageTag: extendedLanguageTag,
            characteristics: mediaCharacteristics.map(\.rawValue).sorted(), displayName: displayName,
            identifier: String(trackID))
    }
}

extension MediaSelectionGroup {
    /// The group as Now Playing shows it, like MediaPlayer's
    /// `AVMediaSelectionGroup.makeNowPlayingInfoLanguageOptionGroup()`. Any thread.
    public func makeNowPlayingInfoLanguageOptionGroup() -> NowPlayingInfoLanguageOptionGroup {
        NowPlayingInfoLanguageOptionGroup(
            languageOptions: options.map { $0.makeNowPlayingInfoLanguageOption() },
            defaultLanguageOption: defaultOption?.makeNowPlayingInfoLanguageOption(),
            allowEmptySelection: allowsEmptySelection)
    }
}
