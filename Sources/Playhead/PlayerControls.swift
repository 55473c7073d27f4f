import Foundation
import Observation
import PlayheadCore
import PlayheadVideo

/// The controls of a `PlayerWindow`, as `AVPlayerViewController` shows them: shown when the mouse moves over the
/// window, hidden after 3 s without input while playing (never while paused, while a menu is open or while the seek
/// bar is dragged), painted by the window's display thread from a `ControlsState` built here.
///
/// Nothing polls: while shown and playing, a periodic time observer moves the play head 4 times a second; paused,
/// the controls change only when the player or the person does something.
///
/// Threads: main actor.
@MainActor
final class PlayerControls {
    /// The window the controls belong to (it owns them).
    private(set) weak var host: PlayerWindow?
    private let output: VideoWindow
    /// Whether the controls may show at all (`PlayerWindow.showsPlaybackControls`).
    var isEnabled = true {
        didSet { if !isEnabled { hide() } else { push() } }
    }
    /// Whether the controls are on screen.
    private(set) var isShown = false
    /// The menu open, if any.
    var openMenu: ControlsMenu.Kind?
    /// While the seek bar is dragged: where (0...1) it is held.
    var scrub: Double?
    /// Where the pointer was last seen over the window.
    var lastPointer: CGPoint?
    /// When the window opened.
    let createdAt = ContinuousClock.now
    /// The item's choices of sound and subtitles, once loaded.
    var groups: (item: ObjectIdentifier, audio: MediaSelectionGroup?, legible: MediaSelectionGroup?)?
    private var hideTimer: Task<Void, Never>?
    private var ticker: (player: Player, token: TimeObserverToken)?
    private var groupsLoad: Task<Void, Never>?
    /// Changes of observation generations (a player change ends the earlier one's).
    private var observation = 0
    /// The player and item observed now.
    private weak var observedPlayer: Player?
    private weak var observedItem: PlayerItem?
    private var observed: (player: Player?, item: PlayerItem?) {
        get { (observedPlayer, observedItem) }
        set { (observedPlayer, observedItem) = (newValue.player, newValue.item) }
    }

    init(host: PlayerWindow, output: VideoWindow) {
        self.host = host
        self.output = output
    }

    isolated deinit {
        hideTimer?.cancel()
        groupsLoad?.cancel()
        if let ticker { ticker.player.removeTimeObserver(ticker.token) }
    }

    /// Stops the timers and the observations (the window closes).
    func stop() {
        hide()
        hideTimer?.cancel()
        groupsLoad?.cancel()
        observation += 1
    }

    /// The player shown changed (or its current item did): follow the new one.
    func playerChanged() {
        observation += 1
        stopTicking()
        // The play head of the player shown now moves on the bar.
        if isShown { startTicking() }
        observe(observation)
        push()
    }

    /// The person did something: the controls show and their hide timer starts again.
    func poke() {
        guard isEnabled, let host, !host.isClosed else { return }
        if !isShown {
            isShown = true
            startTicking()
        }
        push()
        restartHideTimer()
    }

    /// Hides the controls (and closes their menu).
    func hide() {
        guard isShown else { return }
        isShown = false
        openMenu = nil
        scrub = nil
        stopTicking()
        hideTimer?.cancel()
        output.showControls(nil)
    }

    /// Shows the current state, when shown.
    func push() {
        guard isShown, isEnabled else { return }
        output.showControls(state())
    }

    /// The layout of the controls as painted now, for hit tests.
    var layout: ControlsLayout { ControlsLayout(size: output.displaySize, state: state()) }

    private func restartHideTimer() {
        hideTimer?.cancel()
        hideTimer = Task { @MainActor [weak self] in
            try? await Task.sleep(for: .seconds(3))
            guard !Task.isCancelled, let self else { return }
            self.hideIfIdle()
        }
    }

    /// Hides the controls after their 3 s unless the player is paused, a menu is open or the bar is held.
    private func hideIfIdle() {
        guard isShown, openMenu == nil, scrub == nil, let player = host?.player, player.rate != 0 else { return }
        hide()
    }

    private func startTicking() {
        guard ticker == nil, let player = host?.player else { return }
        let token = player.addPeriodicTimeObserver(forInterval: MediaTime(seconds: 0.25, preferredTimescale: 1000)) {
            _ in
            MainActor.assumeIsolated { [weak self] in self?.push() }
        }
        ticker = (player, token)
    }

    private func stopTicking() {
        guard let ticker else { return }
        ticker.player.removeTimeObserver(ticker.token)
        self.ticker = nil
    }

    /// Follows what the controls show of the player (rate, item, loaded parts, length, selection): pushes a change
    /// at once, and a start of playback starts the hide timer.
    private func observe(_ generation: Int) {
        guard generation == observation, let player = host?.player else { return }
        let item = player.currentItem
        if let item, groups?.item != ObjectIdentifier(item) { loadGroups(of: item) }
        let wasPlaying = player.rate != 0
        let host = self.host
        observed = (player, item)
        withObservationTracking {
            _ = host?.player
            _ = player.rate
            _ = player.defaultRate
            _ = player.currentItem
            _ = item?.duration
            _ = item?.loadedTimeRanges
            _ = item?.currentMediaSelection
            _ = item?.status
        } onChange: {
            // Nothing strong is kept here: the registrar of a player nobody else holds must not keep it, or the
            // window, alive.
            Task { @MainActor [weak self] in self?.observedChange(generation, wasPlaying: wasPlaying) }
        }
    }

    /// Something the controls show changed: a new player or item is followed anew, the rest shows at once.
    private func observedChange(_ generation: Int, wasPlaying: Bool) {
        guard generation == observation else { return }
        let player = host?.player
        if player == nil || player !== observed.player || player?.currentItem !== observed.item {
            playerChanged()
        } else {
            observe(generation)
        }
        push()
        if !wasPlaying, let player, player.rate != 0, isShown { restartHideTimer() }
    }

    private func loadGroups(of item: PlayerItem) {
        groupsLoad?.cancel()
        let id = ObjectIdentifier(item)
        groups = (id, nil, nil)
        groupsLoad = Task { @MainActor [weak self] in
            let audio = try? await item.asset.loadMediaSelectionGroup(for: .audible)
            let legible = try? await item.asset.loadMediaSelectionGroup(for: .legible)
            guard !Task.isCancelled, let self, self.groups?.item == id else { return }
            self.groups = (id, audio ?? nil, legible ?? nil)
            self.push()
        }
    }
}
