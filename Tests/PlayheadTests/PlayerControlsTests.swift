import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// The player controls of a `PlayerWindow` on the tests' X server: the mouse moves and clicks with xdotool, what the
/// window shows is read back from the server, what the player does is asked of it.
@MainActor @Suite(.serialized) struct PlayerControlsTests {
    /// A 640x360 window titled `title` at (20, 20) showing `player`, once its picture is on screen.
    func open(_ player: Player, _ title: String, size: (Int, Int) = (640, 360)) async throws -> (
        PlayerWindow, TestDisplay.Geometry
    ) {
        let window = try await PlayerWindow.open(
            player: player, title: title, width: size.0, height: size.1, position: (20, 20))
        #expect(await eventually { window.playerLayer.isReadyForDisplay }, "no picture")
        let geometry = try #require(try TestDisplay.waitForWindow(titled: title))
        return (window, geometry)
    }

    /// A silent player on the controls clip.
    func player() throws -> Player {
        let player = Player()
        player.audioOutputChoice = .disabled
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.controlsVideo()))
        return player
    }

    /// Moves the pointer to a point of the window, and clicks there when asked.
    nonisolated func pointer(_ g: TestDisplay.Geometry, _ x: Double, _ y: Double, click: Bool = false) throws {
        let to = ["mousemove", "\(g.x + Int(x.rounded()))", "\(g.y + Int(y.rounded()))"]
        try TestDisplay.xdotool(click ? to + ["click", "1"] : to)
    }

    /// Moves the pointer over the window in two steps (the window takes a first report of the pointer just after
    /// it opens as where it rests, not as a move).
    nonisolated func hover(_ g: TestDisplay.Geometry, _ x: Double, _ y: Double) throws {
        try pointer(g, x - 10, y - 10)
        try pointer(g, x, y)
    }

    /// The window's pixels.
    nonisolated func shot(_ g: TestDisplay.Geometry) async throws -> Screenshot {
        try await Task.detached { try TestDisplay.grab(g) }.value
    }

    /// Whether the window shows the controls' shade: the bottom row of the grey (64) picture darkened, between the
    /// play button and the speed button.
    nonisolated func barShown(_ g: TestDisplay.Geometry) async throws -> Bool {
        let p = try await shot(g).pixel(320, 355)
        return p.r < 40 && p.g < 40 && p.b < 40
    }

    /// Whether the window shows the picture alone at the bottom (grey, no shade).
    nonisolated func videoOnly(_ g: TestDisplay.Geometry) async throws -> Bool {
        try await shot(g).matches(320, 355, (64, 64, 64))
    }

    /// Polls `check` for up to `seconds`.
    func within(_ seconds: Double, _ check: () async throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if try await check() { return true }
            try await Task.sleep(for: .milliseconds(50))
        } while Date() < deadline
        return false
    }

    /// The controls' layout in the window for the controls clip (two sound tracks, subtitles), with `menu` open.
    func layout(_ window: PlayerWindow, menu: ControlsMenu? = nil) -> ControlsLayout {
        var state = ControlsState()
        state.duration = 20
        state.hasAudioChoice = true
        state.hasSubtitleChoice = true
        state.menu = menu
        return ControlsLayout(size: window.size, state: state)
    }

    /// The middle of `element`'s button.
    func centre(_ element: ControlElement, _ layout: ControlsLayout) throws -> (Double, Double) {
        let r = try #require(layout.buttons.first { $0.element == element }?.rect, "no \(element) button")
        return (r.midX, r.midY)
    }

    /// On the test display: `body` with `player` (a silent player on the controls clip unless given) in a window
    /// titled `title` (`open`); the window and the player close and the pointer is parked after.
    func scene(
        _ title: String, player given: Player? = nil, size: (Int, Int) = (640, 360),
        _ body: (Player, PlayerWindow, TestDisplay.Geometry) async throws -> Void
    ) async throws {
        try TestDisplay.useInThisProcess()
        defer {
            try? TestDisplay.parkPointer()
            TestDisplay.leave()
        }
        let player = try given ?? self.player()
        defer { player.close() }
        let (window, g) = try await open(player, title, size: size)
        defer { window.close() }
        try await body(player, window, g)
    }

    /// Moves the pointer over the window and waits for the controls' shade.
    func showControls(_ g: TestDisplay.Geometry, at point: (Double, Double) = (320, 150)) async throws {
        try hover(g, point.0, point.1)
        #expect(try await within(5) { try await barShown(g) }, "no controls after the mouse moved")
    }

    /// Hidden until the mouse moves; shown, they hide 3 s after the last input while playing, never while paused;
    /// `showsPlaybackControls = false` keeps them off.
    @Test func theControlsShowOnMouseMovementAndHideThreeSecondsLaterOnlyWhilePlaying() async throws {
        try await scene("controls hide") { player, window, g in
            player.play()
            #expect(try await videoOnly(g), "controls before any input")
            try await showControls(g)
            let shown = Date()
            #expect(window.controlsAreShown)
            #expect(try await within(8) { try await videoOnly(g) }, "the controls stayed while playing")
            let after = Date().timeIntervalSince(shown)
            #expect(after >= 2.5, "hidden \(after) s after the last input")
            #expect(!window.controlsAreShown)

            player.pause()
            try await showControls(g, at: (300, 140))
            try await Task.sleep(for: .seconds(4.5))
            #expect(try await barShown(g), "the controls hid while paused")

            window.showsPlaybackControls = false
            #expect(try await within(5) { try await videoOnly(g) }, "controls shown with showsPlaybackControls off")
            try hover(g, 320, 150)
            try await Task.sleep(for: .milliseconds(500))
            #expect(try await videoOnly(g), "controls shown with showsPlaybackControls off")
        }
    }

    /// A window that opens under a resting pointer shows no controls until the pointer moves.
    @Test func aWindowOpeningUnderTheRestingPointerShowsNoControls() async throws {
        try TestDisplay.useInThisProcess()
        try TestDisplay.xdotool(["mousemove", "340", "170"])
        TestDisplay.leave()
        try await scene("controls resting") { _, _, g in
            try await Task.sleep(for: .seconds(1.2))
            #expect(try await videoOnly(g), "controls under a pointer that did not move")
            try pointer(g, 330, 160)
            #expect(try await within(5) { try await barShown(g) }, "no controls after the pointer moved")
        }
    }

    /// A click on the play button plays, another pauses (the icon changes); a click three quarters along the seek
    /// bar seeks there.
    @Test func playPauseAndTheSeekBarTakeClicks() async throws {
        try await scene("controls click") { player, window, g in
            let layout = layout(window)
            try await showControls(g)
            let (px, py) = try centre(.playPause, layout)
            let icon = Int(py) - 10..<Int(py) + 10
            let pausedIcon = try await shot(g).brightPixels(inRows: icon)
            #expect(!pausedIcon.isEmpty, "no play icon")
            try pointer(g, px, py, click: true)
            #expect(await eventually { player.rate == 1 }, "the play button did not play")
            #expect(
                try await within(5) { try await shot(g).brightPixels(inRows: icon) != pausedIcon },
                "the icon did not change")
            try pointer(g, px, py, click: true)
            #expect(await eventually { player.rate == 0 }, "the play button did not pause")

            let track = layout.seekTrack
            try pointer(g, track.minX + track.width * 0.75, track.midY, click: true)
            #expect(
                await eventually { abs(player.currentTime().seconds - 15) < 1.1 },
                "at \(player.currentTime().seconds) s after a click at 75 % of 20 s")
        }
    }

    /// With `requiresLinearPlayback`, a click on the seek bar and the arrow keys leave the position; without it,
    /// the same click seeks.
    @Test func requiresLinearPlaybackRefusesTheSeekBarAndTheKeys() async throws {
        try await scene("controls linear") { player, window, g in
            window.requiresLinearPlayback = true
            // The player's too: the desktop's media controls (MPRIS) follow the player's.
            #expect(player.requiresLinearPlayback)
            try await showControls(g)
            let track = layout(window).seekTrack
            try pointer(g, track.minX + track.width * 0.5, track.midY, click: true)
            try TestDisplay.xdotool(["key", "Right", "Up"])
            try await Task.sleep(for: .seconds(1))
            #expect(player.currentTime().seconds < 0.5, "moved to \(player.currentTime().seconds) s")
            window.requiresLinearPlayback = false
            #expect(!player.requiresLinearPlayback)
            try pointer(g, track.minX + track.width * 0.5, track.midY, click: true)
            #expect(await eventually { abs(player.currentTime().seconds - 10) < 1.1 }, "the seek bar did not seek")
        }
    }

    /// In a 320x180 window every button shows its icon or label, inside its own place, and the times are written.
    @Test func everyButtonIsDrawnInA320PixelWindow() async throws {
        try await scene("controls small", size: (320, 180)) { _, window, g in
            #expect(window.size == CGSize(width: 320, height: 180), "\(window.size)")
            try hover(g, 150, 60)
            #expect(try await within(5) { !(try await shot(g).brightPixels(inRows: 150..<180).isEmpty) })
            let picture = try await shot(g)
            let layout = layout(window)
            for (element, rect) in layout.buttons {
                let inside = picture.brightPixels(inRows: Int(rect.minY)..<Int(rect.maxY)).filter {
                    rect.contains(CGPoint(x: $0 % picture.width, y: $0 / picture.width))
                }
                #expect(inside.count >= 12, "\(element): \(inside.count) bright pixels in \(rect)")
            }
            for label in [layout.elapsedLabel, layout.remainingLabel] {
                let written = picture.brightPixels(inRows: Int(label.minY)..<Int(label.maxY)).filter {
                    label.contains(CGPoint(x: $0 % picture.width, y: $0 / picture.width))
                }
                #expect(written.count >= 12, "\(written.count) bright pixels in the time label \(label)")
            }
        }
    }
}
