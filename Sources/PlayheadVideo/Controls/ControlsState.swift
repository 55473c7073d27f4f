import Foundation

/// What the player controls show: the play state, the time line, the buttons that apply and an open menu. The
/// app side (`PlayerWindow`) fills it from the player; the display thread paints it. A value type, safe anywhere.
public struct ControlsState: Sendable, Equatable {
    /// Playing (the button offers pause) or not (it offers play).
    public var isPlaying = false
    /// The play head, in seconds.
    public var position = 0.0
    /// The item's length in seconds; nil for a live stream or before it is known (no seek bar then).
    public var duration: Double?
    /// The parts of the item loaded, in seconds.
    public var loaded: [ClosedRange<Double>] = []
    /// Whether the seek bar takes clicks; false draws it dimmed (`requiresLinearPlayback`, nothing to seek in).
    public var canSeek = true
    /// The speed button's label ("1×").
    public var speedLabel = "1×"
    /// Whether the item has sound tracks to choose between (the audio button shows).
    public var hasAudioChoice = false
    /// Whether the item has subtitles to choose from (the subtitles button shows), and whether some show now.
    public var hasSubtitleChoice = false
    /// Whether subtitles show now (the subtitles button is lit).
    public var subtitlesOn = false
    /// Whether the Picture-in-Picture button shows.
    public var hasPictureInPicture = false
    /// Whether the window covers the screen (the fullscreen button offers to leave it).
    public var isFullscreen = false
    /// The menu open above its button, if any.
    public var menu: ControlsMenu?
    /// A Picture-in-Picture window's controls: play/pause in the middle, back to the main window (the
    /// Picture-in-Picture button) at the top left, close at the top right, over a light shade; no time line.
    public var isFloating = false

    /// Controls with nothing known yet.
    public init() {}
}

/// A menu of the controls: its kind, its entries and the one in effect. A value type, safe anywhere.
public struct ControlsMenu: Sendable, Equatable {
    /// The button a menu belongs to.
    public enum Kind: Sendable, Equatable {
        /// Playback speeds.
        case speed
        /// Sound tracks.
        case audio
        /// Subtitle tracks, and "Off".
        case subtitles
    }
    /// Which menu.
    public var kind: Kind
    /// The entries' labels, top to bottom.
    public var items: [String]
    /// The entry in effect (marked), if any.
    public var selected: Int?

    /// A menu of `kind` listing `items`, `selected` marked.
    public init(kind: Kind, items: [String], selected: Int?) {
        self.kind = kind
        self.items = items
        self.selected = selected
    }
}

/// A part of the controls a click can land on. A value type, safe anywhere.
public enum ControlElement: Sendable, Equatable {
    /// Play or pause.
    case playPause
    /// The seek bar (`ControlsLayout.seekFraction(atX:)` says where).
    case seekBar
    /// The speed menu's button.
    case speed
    /// The audio menu's button.
    case audio
    /// The subtitles menu's button.
    case subtitles
    /// Picture in Picture.
    case pictureInPicture
    /// Fullscreen in or out.
    case fullscreen
    /// Close the window (a Picture-in-Picture window's controls).
    case close
    /// An entry of the open menu, by index.
    case menuItem(Int)
    /// The controls' background: takes the click and does nothing.
    case panel
}
