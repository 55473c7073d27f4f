import Foundation
import Playhead

/// What is playing, shown by the desktop, like `MPNowPlayingInfoCenter`: GNOME and KDE media controls,
/// `playerctl`, KDE Connect, through MPRIS. Publishing the elapsed time and the rate is enough: listeners
/// extrapolate, and a jump relative to that extrapolation is announced with MPRIS `Seeked`. Main actor.
@MainActor
public final class NowPlayingInfoCenter {
    /// The typed form of what is playing; nil when nothing is. Each assignment publishes: its elapsed time holds
    /// from now, even when it equals what was published before (a clock that has not moved since).
    public var info: NowPlayingInfo? { didSet { bridge?.update(republished: true) } }

    /// The dictionary form of `info`, like `MPNowPlayingInfoCenter.nowPlayingInfo`.
    public var nowPlayingInfo: [NowPlayingInfoKey: any Sendable]? {
        get { info?.dictionary }
        set { info = newValue.map(NowPlayingInfo.init(dictionary:)) }
    }

    /// The app's playback state; `.unknown` derives it from the published rate.
    public var playbackState: NowPlayingPlaybackState = .unknown { didSet { bridge?.update() } }

    /// Called when the desktop asks the app to quit (MPRIS `Quit`); nil (the default) means the app cannot be
    /// quit that way (`CanQuit` false). Runs on the main actor; the caller is answered when it returns.
    public var quitHandler: (@MainActor () -> Void)? { didSet { bridge?.update() } }

    /// Called when the desktop asks to show the app's window (MPRIS `Raise`); nil (the default) when there is no
    /// window to raise (`CanRaise` false). Main actor.
    public var raiseHandler: (@MainActor () -> Void)? { didSet { bridge?.update() } }

    /// Called when the desktop asks for fullscreen on or off (MPRIS `Fullscreen` set); nil (the default) when the
    /// app has no window that can be (`CanSetFullscreen` false). Main actor.
    public var fullscreenHandler: (@MainActor (Bool) -> Void)? { didSet { bridge?.update() } }

    /// Whether the app's window covers the screen, published as MPRIS `Fullscreen`; the app keeps it current.
    public var isFullscreen = false { didSet { if oldValue != isFullscreen { bridge?.update() } } }
    /// Whether the desktop may not seek now (the session's player requires linear playback, or its item cannot
    /// seek): MPRIS `CanSeek` is false and `Seek`/`SetPosition` fail, whatever the commands say. Main actor.
    package var refusesSeeking = false { didSet { if oldValue != refusesSeeking { bridge?.update() } } }

    /// The commands this center's desktop presence accepts.
    public let remoteCommandCenter: RemoteCommandCenter

    /// The D-Bus name the MPRIS object took (`org.mpris.MediaPlayer2.playhead`, or `...instance<PID>` when taken);
    /// nil when no session bus is reachable (not an error: nothing is shown).
    public var mprisBusName: String? { bridge?.busName }

    var bridge: MPRISBridge?
    /// The volume published as MPRIS `Volume` (a `NowPlayingSession` keeps it to its player's).
    var volume = 1.0 { didSet { if oldValue != volume { bridge?.update() } } }
    /// Sets the volume from MPRIS; nil makes `Volume` read-only. Set by a `NowPlayingSession`.
    var volumeControl: (@MainActor (Double) -> Void)? { didSet { bridge?.update() } }
    /// Set by a `NowPlayingSession`, which knows when its player seeks: `Seeked` is then sent only through
    /// `announceSeek()`, never guessed from a jump of the elapsed time.
    var announcesSeeks = false

    /// A queue's editing and navigation for MPRIS `TrackList`; when set before the center connects, the
    /// TrackList interface is exported (`HasTrackList` true). Set by a `NowPlayingSession` on a `QueuePlayer`.
    var trackList: TrackListControl?
    /// The queue's tracks, the current one first, published as MPRIS `Tracks`; each id is an object path.
    var tracks: [NowPlayingTrack] = [] { didSet { if oldValue != tracks { bridge?.update() } } }
    /// The current item's track id (`mpris:trackid`); nil lets the bridge number the items it sees.
    var currentTrackID: String? { didSet { if oldValue != currentTrackID { bridge?.update() } } }
    /// Whether a queue has an item to go to (false hides `CanGoNext` / `CanGoPrevious`); nil: the commands decide.
    var canGoNext: Bool? { didSet { if oldValue != canGoNext { bridge?.update() } } }
    var canGoPrevious: Bool? { didSet { if oldValue != canGoPrevious { bridge?.update() } } }
    /// Opens a URI (MPRIS `OpenUri`): nil when the scheme is not supported. Set by a session; it may load the
    /// asset first (async), and its error is the caller's error reply. Main actor.
    var openURL: (@MainActor (URL) async -> MPRISError?)? { didSet { bridge?.update() } }

    /// The URI schemes and MIME types published while URIs can be opened.
    static let uriSchemes = ["file", "http", "https"]
    static let mimeTypes = [
        "audio/mpeg", "audio/mp4", "audio/aac", "audio/flac", "audio/ogg", "audio/opus", "audio/wav", "audio/x-wav",
        "video/mp4", "video/quicktime", "video/x-matroska", "video/webm", "video/mp2t", "application/vnd.apple.mpegurl",
        "application/x-mpegurl", "audio/x-mpegurl", "audio/mpegurl", "audio/x-scpls",
    ]

    /// Sends MPRIS `Seeked` with the position published now (a `NowPlayingSession` after each finished seek).
    func announceSeek() { bridge?.update(seeked: true) }
    private static var defaultCenter: NowPlayingInfoCenter?

    /// The app's center, serving `RemoteCommandCenter.shared()`. The first call connects to the session bus.
    public static func `default`() -> NowPlayingInfoCenter {
        if let defaultCenter { return defaultCenter }
        let center = NowPlayingInfoCenter(commandCenter: .shared())
        defaultCenter = center
        return center
    }

    init(commandCenter: RemoteCommandCenter, connect: Bool = true) {
        remoteCommandCenter = commandCenter
        if connect { self.connect() }
    }

    /// Exports the MPRIS object on the session bus, when it is not already; returns whether it is exported.
    @discardableResult
    func connect() -> Bool {
        if bridge == nil { bridge = MPRISBridge(center: self, trackList: trackList != nil) }
        return bridge != nil
    }

    /// Removes the MPRIS object from the bus; the center no longer shows anything. Blocks until the bus thread ended.
    public func disconnect() {
        bridge?.close()
        bridge = nil
    }
}

/// One item of a queue as the TrackList shows it: its object-path id and its information. Safe anywhere.
struct NowPlayingTrack: Sendable, Equatable {
    var id: String
    var info: NowPlayingInfo
}

/// What a queue does for MPRIS `TrackList`; each returns the error to reply, or nil. Main actor.
struct TrackListControl {
    /// Whether tracks may be added and removed (`CanEditTracks`).
    var canEdit: Bool
    /// `GoTo`: make the track current.
    var goTo: @MainActor (String) -> MPRISError?
    /// `AddTrack`: add the URL after the track (`NoTrack`: first), and make it current when asked.
    var add: @MainActor (URL, _ after: String, _ makeCurrent: Bool) -> MPRISError?
    /// `RemoveTrack`.
    var remove: @MainActor (String) -> MPRISError?
}
