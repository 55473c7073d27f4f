import Foundation
import Observation
import PlayheadCore
import PlayheadSubtitles
import PlayheadVideo

/// Shows a player's pictures, like `AVPlayerLayer`: whatever the player plays, item after item, in a rectangle
/// (`bounds`) of the window that hosts it (`PlayerWindow`), filled as `videoGravity` says.
///
/// Changing `player`, or showing one player in two layers, never reloads or reopens anything: the layer shows
/// the player's current picture at once. Before the first picture of the current item is on screen the layer
/// shows its host's background, and `isReadyForDisplay` is false.
///
/// Threads: main actor.
@MainActor
@Observable
public final class PlayerLayer {
    /// The player whose pictures the layer shows; nil shows nothing (the background).
    public var player: Player? {
        didSet {
            guard oldValue !== player else { return }
            reattach(from: oldValue)
        }
    }
    /// How pictures fill `bounds`.
    public var videoGravity: VideoGravity = .resizeAspect {
        didSet { display?.gravity = videoGravity }
    }
    /// True once the first picture of the player's current item is on screen; false again after an item change or
    /// a player change until the first picture of the new one is.
    public private(set) var isReadyForDisplay = false
    /// The layer's rectangle in its host, in pixels: its `frame` within the window's drawable area, all of it
    /// without one.
    public private(set) var bounds: CGRect = .zero
    /// The part of the hosting window the layer covers, in the window's drawable pixels; nil (the default) for the
    /// whole window. Pictures and subtitles go inside it with `videoGravity`; the rest of the window shows its
    /// background, the app's overlay (`PlayerWindow.contentOverlay`) and the controls. Setting it moves the
    /// picture at the next draw, nothing else: a layout change, never a reload.
    public var frame: CGRect? {
        didSet {
            display?.videoArea = frame
            updateBounds()
        }
    }
    /// The host window's drawable size.
    @ObservationIgnored private var hostSize = CGSize.zero
    /// Whether the current item's subtitles are drawn over the picture (as `AVPlayerLayer` draws the legible
    /// media selection).
    public var showsSubtitles = true {
        didSet { subtitleOutput.setShown(showsSubtitles) }
    }
    /// The size of the picture shown (its presentation size, in square pixels); `.zero` before the first.
    public private(set) var pictureSize: CGSize = .zero

    /// Where the picture is drawn in `bounds`: all of it for `.resize`, the letterboxed or cropped rectangle for
    /// the others (it may extend past `bounds` with `.resizeAspectFill`); `.zero` before the first picture.
    public var videoRect: CGRect { VideoGeometry.rect(for: pictureSize, in: bounds, gravity: videoGravity) }

    /// The window drawing the layer, set by its host.
    @ObservationIgnored private(set) var display: VideoWindow?
    /// Looks at pictures shown by the display thread only while a readiness or size change is pending.
    @ObservationIgnored private let watch = Locked(PictureWatch())
    @ObservationIgnored private var itemObservation = 0
    /// Hands the current item's cues to the display.
    @ObservationIgnored private let subtitleOutput = LayerSubtitles()

    /// The subtitle cues the layer shows now (none while `showsSubtitles` is false), as its window draws them:
    /// for a screenshot of what is on screen (`VideoFrame.pngData(subtitles:)`).
    public var displayedSubtitles: [SubtitleCue] { subtitleOutput.displayed }
    /// The item whose cues the layer shows.
    @ObservationIgnored private weak var subtitledItem: PlayerItem?

    private struct PictureWatch {
        var awaitingItem: ObjectIdentifier??
        var lastSize = CGSize.zero
    }

    /// A layer showing `player`.
    public init(player: Player? = nil) {
        self.player = player
        reattach(from: nil)
    }

    /// Puts the layer in `window` (nil takes it out). Called by the host.
    func host(in window: VideoWindow?) {
        if let display, let player { player.remove(display) }
        display?.setPictureShownHandler(nil)
        display = window
        subtitleOutput.setWindow(window)
        guard let window else { return }
        window.gravity = videoGravity
        window.videoArea = frame
        hostSize = window.displaySize
        updateBounds()
        window.setPictureShownHandler { [weak self, watch] frame in
            let notice = watch.withLock { w -> Bool in
                let waiting = w.awaitingItem.map { $0 == frame.item || $0 == nil } ?? false
                let resized = frame.presentationSize != w.lastSize
                w.lastSize = frame.presentationSize
                return waiting || resized
            }
            guard notice else { return }
            Task { @MainActor in self?.pictureShown(frame) }
        }
        reattach(from: nil)
    }

    /// The host's drawable area changed.
    func hostResized(to size: CGSize) {
        hostSize = size
        updateBounds()
    }

    private func updateBounds() {
        let whole = CGRect(origin: .zero, size: hostSize)
        let inside = frame.map { $0.intersection(whole) }
        bounds = inside.flatMap { $0.isEmpty ? nil : $0 } ?? whole
    }

    private func reattach(from old: Player?) {
        if let old, let display { old.remove(display) }
        awaitFirstPicture()
        observeCurrentItem()
        followSubtitles()
        guard let display else { return }
        // The new player's picture replaces the old one at once (attaching presents it); none shows the background.
        guard let player, player.currentVideoFrame != nil else {
            display.clear()
            player?.add(display)
            return
        }
        player.add(display)
    }

    /// Marks the layer not ready until a picture of the player's current item is on screen, unless the one on
    /// screen already is.
    private func awaitFirstPicture() {
        let item = player?.currentItem.map(ObjectIdentifier.init)
        if let shown = display?.shownPicture, player != nil, shown.item == item, item != nil,
            player?.currentVideoFrame?.item == item
        {
            isReadyForDisplay = true
            watch.withLock { $0.awaitingItem = .none }
            return
        }
        if isReadyForDisplay { isReadyForDisplay = false }
        watch.withLock { $0.awaitingItem = player == nil ? .none : .some(item) }
        // Until then the background shows, never the last picture of another item.
        display?.clear(unlessFrom: item)
    }

    private func pictureShown(_ frame: VideoFrame) {
        if frame.presentationSize != pictureSize { pictureSize = frame.presentationSize }
        guard let player, !isReadyForDisplay else { return }
        let item = player.currentItem.map(ObjectIdentifier.init)
        guard frame.item == item || item == nil else { return }
        isReadyForDisplay = true
        watch.withLock { $0.awaitingItem = .none }
    }

    /// Follows the player's current item: a new one makes the layer wait for its first picture.
    private func observeCurrentItem() {
        itemObservation += 1
        let generation = itemObservation
        guard let player else { return }
        withObservationTracking {
            _ = player.currentItem
        } onChange: { [weak self] in
            Task { @MainActor in
                guard let self, self.itemObservation == generation else { return }
                self.awaitFirstPicture()
                self.observeCurrentItem()
                self.followSubtitles()
            }
        }
    }

    /// Shows the cues of the player's current item, and no other's.
    private func followSubtitles() {
        let item = player?.currentItem
        guard item !== subtitledItem else { return }
        subtitledItem?.remove(subtitleOutput)
        subtitleOutput.itemChanged()
        item?.add(subtitleOutput)
        subtitledItem = item
    }
}

/// A layer's subtitle output: the item's active cues, handed to the window drawing the layer with their time and
/// the subtitle delay (an animated ASS event is drawn at each picture's time). Any thread.
final class LayerSubtitles: ClockedLegibleOutput, Sendable {
    private struct State {
        var window: VideoWindow?
        var shown = true
        var cues: [SubtitleCue] = []
        /// The cues' time when they last changed, and the subtitle delay then.
        var clock: (at: Double, delay: Double) = (.nan, 0)
    }
    private let state = Locked(State())

    func show(_ cues: [SubtitleCue], at time: MediaTime) {
        show(cues, at: time, delay: 0)
    }

    func show(_ cues: [SubtitleCue], at time: MediaTime, delay: Double) {
        let (window, visible) = state.withLock { s -> (VideoWindow?, Bool) in
            s.cues = cues
            s.clock = (time.seconds, delay)
            return (s.window, s.shown)
        }
        window?.showSubtitles(visible ? cues : [], at: time.seconds, delay: delay)
    }

    /// The window to draw in (nil: none); it shows the cues active now at once.
    func setWindow(_ window: VideoWindow?) {
        let (cues, clock) = state.withLock { s -> ([SubtitleCue], (at: Double, delay: Double)) in
            s.window?.showSubtitles([])
            s.window = window
            return (s.shown ? s.cues : [], s.clock)
        }
        window?.showSubtitles(cues, at: clock.at, delay: clock.delay)
    }

    /// The cues shown now (none while hidden).
    var displayed: [SubtitleCue] { state.withLock { $0.shown ? $0.cues : [] } }

    /// Shows or hides the cues.
    func setShown(_ shown: Bool) {
        let (window, cues, clock) = state.withLock { s -> (VideoWindow?, [SubtitleCue], (at: Double, delay: Double)) in
            s.shown = shown
            return (s.window, shown ? s.cues : [], s.clock)
        }
        window?.showSubtitles(cues, at: clock.at, delay: clock.delay)
    }

    /// The item changed: the old item's cues leave the screen.
    func itemChanged() {
        let window = state.withLock { s -> VideoWindow? in
            s.cues = []
            s.clock = (.nan, 0)
            return s.window
        }
        window?.showSubtitles([])
    }
}
