import Foundation
import PlayheadCore
import PlayheadVideo

/// A desktop window that shows a player, the way `AVPlayerViewController` presents one: a `PlayerLayer` filling an
/// SDL window, the picture letterboxed on black, the player controls (`showsPlaybackControls`: play/pause, a seek
/// bar with the loaded parts, elapsed and remaining time, speed, audio and subtitle menus, fullscreen; shown when the
/// mouse moves, hidden after 3 s without input while playing), and the player's keys (space or `p` play and
/// pause, arrows seek 5 s and 60 s, `m` mute, `9` and `0` volume, `f` or a double click fullscreen, Esc closes a
/// menu or leaves fullscreen, `q` closes).
///
/// The window's display thread draws; input reaches the player here, on the main actor. A window nobody holds
/// closes; closing it does not stop the player.
///
/// Threads: main actor.
@MainActor
public final class PlayerWindow {
    /// The layer filling the window.
    public let playerLayer: PlayerLayer
    /// Called with each key before the window's own handling; return true when the key was handled (the window
    /// then does nothing more with it).
    public var keyHandler: ((WindowKey) -> Bool)?
    /// Called when the person asks to close the window (its close button, `q`). Without one, the window closes.
    public var closeHandler: (() -> Void)?
    /// Called with a one-line message when the window cannot draw something (no libass: no subtitles; no SDL2_ttf
    /// or font: controls without text), once per process for each cause.
    public var problemHandler: ((String) -> Void)?
    /// Called once when the display went away (the X server or the Wayland compositor ended): the window is gone,
    /// the player plays on.
    public var displayLostHandler: (() -> Void)?
    /// True once `close()` was called.
    public private(set) var isClosed = false

    /// Whether the player controls show (on mouse movement); false keeps them off, like
    /// `AVPlayerViewController.showsPlaybackControls`.
    public var showsPlaybackControls = true {
        didSet { controls?.isEnabled = showsPlaybackControls }
    }
    /// The speeds of the speed menu, like `AVPlayerViewController.speeds`; `PlaybackSpeed.systemDefaultSpeeds`
    /// unless set. An empty list keeps the defaults.
    public var speeds: [PlaybackSpeed] = PlaybackSpeed.systemDefaultSpeeds {
        didSet {
            if speeds.isEmpty { speeds = PlaybackSpeed.systemDefaultSpeeds }
            controls?.push()
        }
    }
    /// Whether the person may only watch on: the seek bar and the window's seek keys refuse, like
    /// `AVPlayerViewController.requiresLinearPlayback`. Setting it sets the player's (`Player.requiresLinearPlayback`),
    /// so that the desktop's media controls refuse too. They refuse as well while the player is in an ad that
    /// requires linear playback.
    public var requiresLinearPlayback = false {
        didSet {
            playerLayer.player?.requiresLinearPlayback = requiresLinearPlayback
            controls?.push()
        }
    }
    /// Called when the Picture-in-Picture button is clicked; the button shows only while one is set.
    public var pictureInPictureButtonHandler: (() -> Void)? {
        didSet { controls?.push() }
    }
    /// What the app draws over the video, below the controls, like `AVPlayerViewController.contentOverlayView`:
    /// shown from the next draw on; nil for nothing.
    public var contentOverlay: OverlayImage? {
        didSet { window.showContent(contentOverlay) }
    }
    /// Whether the player controls are on screen now.
    public var controlsAreShown: Bool { controls?.isShown ?? false }

    let window: VideoWindow
    /// Told when the window is hidden or minimized (false) and shown again (true); Picture in Picture listens.
    var visibilityObservers: [UUID: (Bool) -> Void] = [:]
    /// Told the window's new size (window coordinates) after each resize; Picture in Picture keeps its aspect.
    var sizeObservers: [UUID: (Int, Int) -> Void] = [:]
    /// Whether the window is a Picture-in-Picture window (its controls are the floating ones).
    var isFloating = false {
        didSet { controls?.push() }
    }
    /// What fullscreen (the key f, a double click) does in a Picture-in-Picture window: it does not cover the screen
    /// itself (floating and on top, out of the desktop's fullscreen state); Picture in Picture ends into a
    /// fullscreen main window.
    var fullscreenWhileFloating: (() -> Void)?
    private var inputs: Task<Void, Never>?
    private var controls: PlayerControls?

    private init(window: VideoWindow, layer: PlayerLayer, title: String) {
        self.window = window
        self.playerLayer = layer
        self.title = title
    }

    deinit {
        inputs?.cancel()
        window.close()
        // The player must not keep the closed window as an output (a window nobody holds closes, and lets go).
        let layer = playerLayer
        Task { @MainActor in layer.host(in: nil) }
    }

    /// Opens a window showing `player`, titled `title`, sized `width` x `height` (nil: the current item's picture
    /// size, else 640 x 360; scaled down to fit the screen), at `position` (nil: where the window manager puts it),
    /// fullscreen or above other windows when asked, without decorations from the start when `floating` (moved by
    /// a drag anywhere, resized from its edges: Picture in Picture's window). Throws when no window can be opened
    /// (no display).
    public static func open(
        player: Player?, title: String = "Playhead", width: Int? = nil, height: Int? = nil,
        position: (x: Int, y: Int)? = nil, fullscreen: Bool = false, onTop: Bool = false, floating: Bool = false
    ) async throws(DisplayError) -> PlayerWindow {
        let size = player?.currentItem?.presentationSize ?? .zero
        let hasSize = size.width >= 1 && size.height >= 1
        let w = width ?? (hasSize ? Int(size.width.rounded()) : 640)
        let h = height ?? (hasSize ? Int(size.height.rounded()) : 360)
        let window = try await VideoWindow.open(
            title: title, width: w, height: h, position: position, fullscreen: fullscreen, onTop: onTop,
            floating: floating)
        let made = PlayerWindow(window: window, layer: PlayerLayer(player: player), title: title)
        made.start()
        return made
    }

    /// The player shown; setting it shows the new player's current picture at once (nothing is reloaded).
    public var player: Player? {
        get { playerLayer.player }
        set {
            playerLayer.player = newValue
            controls?.playerChanged()
        }
    }

    /// Whether the window covers the screen.
    public var isFullscreen: Bool {
        get { window.isFullscreen }
        set {
            guard newValue != window.isFullscreen else { return }
            window.setFullscreen(newValue)
            controls?.push()
            fullscreenChanged?(newValue)
        }
    }

    /// Called with the window's drawable size after each resize (the person, the window manager, `resize`,
    /// fullscreen): for an app that lays the window out anew (`PlayerLayer.frame`, `contentOverlay`).
    public var sizeChanged: ((CGSize) -> Void)?

    /// Called after `isFullscreen` changed (a key, a double click, the app, the desktop's media controls).
    public var fullscreenChanged: ((Bool) -> Void)?

    /// The window's title (a Picture in Picture window showing this window's player follows it).
    public var title: String {
        didSet {
            window.setTitle(title)
            pictureInPictureCopy?.title = PictureInPictureController.title(for: title)
        }
    }

    /// The Picture in Picture window showing this window's player while it is active.
    weak var pictureInPictureCopy: PlayerWindow?

    /// The window's drawable size in pixels.
    public var size: CGSize { window.displaySize }

    /// Pictures put on screen so far, and pictures a newer one replaced before they could be drawn.
    public var pictureCounts: (shown: Int, replaced: Int) { window.counts }

    /// The video driver and the renderer drawing the window ("x11" and "opengl", "wayland" and "software"...).
    public var drawnBy: (driver: String, renderer: String) { window.drawnBy }

    /// Brings the window to the front, restoring it when minimized (MPRIS's Raise). Main actor.
    public func raise() { window.raise() }

    /// Closes the window at once; the player goes on playing.
    public func close() {
        guard !isClosed else { return }
        isClosed = true
        inputs?.cancel()
        controls?.stop()
        playerLayer.host(in: nil)
        window.close()
    }

    private func start() {
        playerLayer.host(in: window)
        let controls = PlayerControls(host: self, output: window)
        self.controls = controls
        controls.playerChanged()
        let (stream, continuation) = AsyncStream<WindowEvent>.makeStream(bufferingPolicy: .bufferingNewest(256))
        window.setEventHandler { continuation.yield($0) }
        inputs = Task { @MainActor [weak self] in
            for await event in stream { self?.handle(event) }
        }
    }

    private func handle(_ event: WindowEvent) {
        guard !isClosed else { return }
        switch event {
        case .closeRequested: requestClose()
        case .resized(let w, let h):
            playerLayer.hostResized(to: CGSize(width: w, height: h))
            for observer in sizeObservers.values { observer(w, h) }
            sizeChanged?(size)
        case .key(let key):
            if keyHandler?(key) == true { return }
            handleKey(key)
            controls?.push()
        case .buttonDown(let x, let y, 1, let clicks):
            let onControls = controls?.press(at: CGPoint(x: x, y: y)) ?? false
            if clicks == 2, !onControls { toggleFullscreen() }
        case .buttonUp(let x, let y, 1): controls?.release(at: CGPoint(x: x, y: y))
        case .mouseMoved(let x, let y): controls?.moved(to: CGPoint(x: x, y: y))
        case .mouseLeft: controls?.mouseLeft()
        case .displayLost:
            close()
            displayLostHandler?()
        case .problem(let message): problemHandler?(message)
        case .hidden: for observer in visibilityObservers.values { observer(false) }
        case .shown: for observer in visibilityObservers.values { observer(true) }
        default: break
        }
    }

    func requestClose() {
        if let closeHandler { closeHandler() } else { close() }
    }

    private func handleKey(_ key: WindowKey) {
        let player = self.player
        let now = player?.currentTime().seconds ?? 0
        switch key {
        case .character(" "), .character("p"): player.map { $0.rate == 0 ? $0.play() : $0.pause() }
        case .left: seek(player, to: now - 5)
        case .right: seek(player, to: now + 5)
        case .up: seek(player, to: now + 60)
        case .down: seek(player, to: now - 60)
        case .character("f"): toggleFullscreen()
        case .escape: if controls?.closeMenu() != true, isFullscreen { isFullscreen = false }
        case .character("m"): player?.isMuted.toggle()
        case .character("9"): player.map { $0.volume = max(0, $0.volume - 0.05) }
        case .character("0"): player.map { $0.volume = min(1, $0.volume + 0.05) }
        case .character("q"), .character("Q"): requestClose()
        default: break
        }
    }

    /// The key f and a double click: fullscreen on or off; in Picture in Picture, `fullscreenWhileFloating`.
    private func toggleFullscreen() {
        if isFloating {
            fullscreenWhileFloating?()
        } else {
            isFullscreen.toggle()
        }
    }

    /// Seeks exactly: on the keyframe before the target, +5 s went back where keyframes are far apart.
    private func seek(_ player: Player?, to seconds: Double) {
        guard controls?.seekingIsRefused != true else { return }
        player?.seek(
            to: MediaTime(seconds: max(0, seconds), preferredTimescale: 1000), toleranceBefore: .zero,
            toleranceAfter: .zero)
    }
}

extension PlayerWindow {
    /// Whether a display is named (`DISPLAY` or `WAYLAND_DISPLAY`): where a window could open. Does not connect.
    public nonisolated static var displayIsNamed: Bool { VideoWindow.displayIsNamed }

    /// True once the display went away (the X server or the Wayland compositor ended) while a window was open: no
    /// window opens again in this process, and a program should leave with `_exit` (the GL library's exit-time
    /// destructor blocks on the dead connection). Any thread.
    public nonisolated static var displayWasLost: Bool { VideoWindow.displayWasLost }

    /// Waits, at most `seconds`, until the display connection is closed after the last window closed (before an
    /// app ends its X server or leaves); true when it is. Any thread or actor.
    public nonisolated static func waitUntilDisplayClosed(upTo seconds: Double) async -> Bool {
        await VideoWindow.waitUntilDisplayClosed(upTo: seconds)
    }
}
