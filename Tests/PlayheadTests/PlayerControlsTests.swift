import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// The player controls of a `PlayerWindow` on the tests' X server: the mouse moves and clicks with xdotool, what the
/// window shows is read back from the server, what the player does is asked of it.
@MainActor @Suite(.serialized) struct PlayerControlsTests {
    /// A 640x360 window titled `title` at (20, 20) showing `player`, once its picture is on screen.
    func open(_ player: Player, _ title: String) async throws -> (PlayerWindow, TestDisplay.Geometry) {
        let window = try await PlayerWindow.open(
            player: player, title: title, width: 640, height: 360, position: (20, 20))
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

    /// Hidden until the mouse moves; shown, they hide 3 s after the last input while playing, never while paused;
    /// `showsPlaybackControls = false` keeps them off.
    @Test func theControlsShowOnMouseMovementAndHideThreeSecondsLaterOnlyWhilePlaying() async throws {
        try TestDisplay.useInThisProcess()
        defer {
            try? TestDisplay.parkPointer()
            TestDisplay.leave()
        }
        let player = try player()
        defer { player.close() }
        player.play()
        let (window, g) = try await open(player, "controls hide")
        #expect(try await videoOnly(g), "controls before any input")
        try hover(g, 320, 150)
        #expect(try await within(5) { try await barShown(g) }, "no controls after the mouse moved")
        let shown = Date()
        #expect(window.controlsAreShown)
        #expect(try await within(8) { try await videoOnly(g) }, "the controls stayed while playing")
        let after = Date().timeIntervalSince(shown)
        #expect(after >= 2.5, "hidden \(after) s after the last input")
        #expect(!window.controlsAreShown)

        player.pause()
        try hover(g, 300, 140)
        #expect(try await within(5) { try await barShown(g) }, "no controls after the mouse moved")
        try await Task.sleep(for: .seconds(4.5))
        #expect(try await barShown(g), "the controls hid while paused")

        window.showsPlaybackControls = false
        #expect(try await within(5) { try await videoOnly(g) }, "controls shown with showsPlaybackControls off")
        try hover(g, 320, 150)
        try await Task.sleep(for: .milliseconds(500))
        #expect(try await videoOnly(g), "controls shown with showsPlaybackControls off")
        window.close()
    }

    /// A window that opens under a resting pointer shows no controls until the pointer moves.
    @Test func aWindowOpeningUnderTheRestingPointerShowsNoControls() async throws {
        try TestDisplay.useInThisProcess()
        defer {
            try? TestDisplay.parkPointer()
            TestDisplay.leave()
        }
        let player = try player()
        defer { player.close() }
        try TestDisplay.xdotool(["mousemove", "340", "170"])
        let (window, g) = try await open(player, "controls resting")
        try await Task.sleep(for: .seconds(1.2))
        #expect(try await videoOnly(g), "controls under a pointer that did not move")
        try pointer(g, 330, 160)
        #expect(try await within(5) { try await barShown(g) }, "no controls after the pointer moved")
        window.close()
    }

    /// A click on the play button plays, another pauses (the icon changes); a click three quarters along the seek
    /// bar seeks there.
    @Test func playPauseAndTheSeekBarTakeClicks() async throws {
        try TestDisplay.useInThisProcess()
        defer {
            try? TestDisplay.parkPointer()
            TestDisplay.leave()
        }
        let player = try player()
        defer { player.close() }
        let (window, g) = try await open(player, "controls click")
        let layout = layout(window)
        try hover(g, 320, 150)
        #expect(try await within(5) { try await barShown(g) })
        let (px, py) = try centre(.playPause, layout)
        let pausedIcon = try await shot(g).brightPixels(inRows: Int(py) - 10..<Int(py) + 10)
        #expect(!pausedIcon.isEmpty, "no play icon")
        try pointer(g, px, py, click: true)
        #expect(await eventually { player.rate == 1 }, "the play button did not play")
        #expect(
            try await within(5) { try await shot(g).brightPixels(inRows: Int(py) - 10..<Int(py) + 10) != pausedIcon },
            "the icon did not change")
        try pointer(g, px, py, click: true)
        #expect(await eventually { player.rate == 0 }, "the play button did not pause")

        let track = layout.seekTrack
        try pointer(g, track.minX + track.width * 0.75, track.midY, click: true)
        #expect(
            await eventually { abs(player.currentTime().seconds - 15) < 1.1 },
            "at \(player.currentTime().seconds) s after a click at 75 % of 20 s")
        window.close()
    }

    /// The speed menu opens above its button, lists the speeds, and the one clicked is the rate played at.
    @Test func theSpeedMenuSetsTheRate() async throws {
        try TestDisplay.useInThisProcess()
        defer {
            try? TestDisplay.parkPointer()
            TestDisplay.leave()
        }
        let player = try player()
        defer { player.close() }
        player.play()
        let (window, g) = try await open(player, "controls speed")
        try hover(g, 320, 150)
        #expect(try await within(5) { try await barShown(g) })
        let (sx, sy) = try centre(.speed, layout(window))
        try pointer(g, sx, sy, click: true)
        let speeds = PlaybackSpeed.systemDefaultSpeeds.map(\.localizedName)
        let rows = layout(window, menu: ControlsMenu(kind: .speed, items: speeds, selected: 1)).menuRows
        #expect(rows.count == 5, "\(rows.count) rows")
        let oneAndAHalf = try #require(rows.count > 3 ? rows[3] : nil)
        #expect(
            try await within(5) {
                let p = try await shot(g).pixel(Int(oneAndAHalf.maxX) - 6, Int(oneAndAHalf.midY))
                return p.r < 30 && p.g < 30 && p.b < 30
            }, "no menu over the picture")
        try pointer(g, oneAndAHalf.midX, oneAndAHalf.midY, click: true)
        #expect(await eventually { player.rate == 1.5 && player.defaultRate == 1.5 }, "rate \(player.rate)")
        let from = player.currentTime().seconds
        try await Task.sleep(for: .seconds(2))
        let played = player.currentTime().seconds - from
        #expect(abs(played - 3) < 0.5, "\(played) s of media in 2 s at 1.5x")
        window.close()
    }

    /// With `requiresLinearPlayback`, a click on the seek bar and the arrow keys leave the position; without it,
    /// the same click seeks.
    @Test func requiresLinearPlaybackRefusesTheSeekBarAndTheKeys() async throws {
        try TestDisplay.useInThisProcess()
        defer {
            try? TestDisplay.parkPointer()
            TestDisplay.leave()
        }
        let player = try player()
        defer { player.close() }
        let (window, g) = try await open(player, "controls linear")
        window.requiresLinearPlayback = true
        try hover(g, 320, 150)
        #expect(try await within(5) { try await barShown(g) })
        let track = layout(window).seekTrack
        try pointer(g, track.minX + track.width * 0.5, track.midY, click: true)
        try TestDisplay.xdotool(["key", "Right", "Up"])
        try await Task.sleep(for: .seconds(1))
        #expect(player.currentTime().seconds < 0.5, "moved to \(player.currentTime().seconds) s")
        window.requiresLinearPlayback = false
        try pointer(g, track.minX + track.width * 0.5, track.midY, click: true)
        #expect(await eventually { abs(player.currentTime().seconds - 10) < 1.1 }, "the seek bar did not seek")
        window.close()
    }

    /// The subtitles menu shows French subtitles, then none; the audio menu switches from the English sound
    /// (440 Hz) to the French (880 Hz) at the sink.
    @Test func theAudioAndSubtitleMenusChangeWhatIsDrawnAndHeard() async throws {
        try TestDisplay.useInThisProcess()
        defer {
            try? TestDisplay.parkPointer()
            TestDisplay.leave()
        }
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.controlsVideo()))
        player.play()
        let (window, g) = try await open(player, "controls menus")
        try hover(g, 320, 150)
        #expect(try await within(5) { try await barShown(g) })
        let top = 0..<90
        let (cx, cy) = try centre(.subtitles, layout(window))
        let subtitles = ["Off", "English", "French"]
        let subtitleRows = layout(window, menu: ControlsMenu(kind: .subtitles, items: subtitles, selected: 1)).menuRows
        try #require(subtitleRows.count == 3, "\(subtitleRows.count) rows")
        try pointer(g, cx, cy, click: true)
        try await Task.sleep(for: .milliseconds(300))
        try pointer(g, subtitleRows[2].midX, subtitleRows[2].midY, click: true)
        #expect(
            try await within(8) { !(try await shot(g).brightPixels(inRows: top).isEmpty) },
            "no French subtitle at the top")
        try pointer(g, cx, cy, click: true)
        try await Task.sleep(for: .milliseconds(300))
        try pointer(g, subtitleRows[0].midX, subtitleRows[0].midY, click: true)
        #expect(
            try await within(8) { try await shot(g).brightPixels(inRows: top).isEmpty }, "subtitles after Off")

        let (ax, ay) = try centre(.audio, layout(window))
        let audioRows = layout(window, menu: ControlsMenu(kind: .audio, items: ["English", "French"], selected: 0))
            .menuRows
        try #require(audioRows.count == 2, "\(audioRows.count) rows")
        try pointer(g, ax, ay, click: true)
        try await Task.sleep(for: .milliseconds(300))
        try pointer(g, audioRows[1].midX, audioRows[1].midY, click: true)
        let audible = try #require(try await player.currentItem?.asset.loadMediaSelectionGroup(for: .audible))
        #expect(
            await eventually {
                player.currentItem?.currentMediaSelection.selectedMediaOption(in: audible) == audible.options[1]
            }, "the French sound is not playing")
        try await Task.sleep(for: .seconds(1.5))
        window.close()
        player.close()
        let tones = AudioAnalysis.toneSequence(sink.stopRecording())
        #expect(tones.first == 440 && tones.last == 880, "heard \(tones)")
    }

    /// The app's overlay shows over the video and under the controls' shade, and leaves when set to nil.
    @Test func theContentOverlayLiesBetweenTheVideoAndTheControls() async throws {
        try TestDisplay.useInThisProcess()
        defer {
            try? TestDisplay.parkPointer()
            TestDisplay.leave()
        }
        let player = try player()
        defer { player.close() }
        let (window, g) = try await open(player, "controls overlay")
        // Opaque red: B G R A.
        let red = [UInt8]((0..<(120 * 40)).flatMap { _ in [0, 0, 255, 255] as [UInt8] })
        let image = try #require(OverlayImage(width: 120, height: 40, pixels: red, x: 150, y: 315))
        window.contentOverlay = image
        #expect(try await within(5) { try await shot(g).matches(210, 350, (255, 0, 0)) }, "no overlay")
        #expect(try await shot(g).matches(100, 350, (64, 64, 64)), "the overlay spread")
        try hover(g, 320, 150)
        #expect(try await within(5) { try await barShown(g) })
        let shaded = try await shot(g).pixel(210, 350)
        #expect(shaded.r > 30 && shaded.r < 160 && shaded.g < 20, "the overlay under the controls is \(shaded)")
        window.contentOverlay = nil
        #expect(try await within(5) { try await shot(g).pixel(210, 350).r < 40 }, "the overlay stayed")
        #expect(OverlayImage(width: 2, height: 2, pixels: [0, 0, 0]) == nil, "an image of the wrong size")
        window.close()
    }

    /// At 320 pixels wide, every part fits: the buttons inside the window and apart, hour-long times in their
    /// labels, a seek bar of at least 100 pixels, a menu inside the window.
    @Test func everyPartFitsA320PixelWideWindow() {
        var state = ControlsState()
        state.duration = 2 * 3600
        state.position = 3599
        state.hasAudioChoice = true
        state.hasSubtitleChoice = true
        state.hasPictureInPicture = true
        state.menu = ControlsMenu(kind: .speed, items: ["0.5×", "Normal", "1.25×", "1.5×", "2×"], selected: 1)
        let layout = ControlsLayout(size: CGSize(width: 320, height: 180), state: state)
        let bounds = CGRect(x: 0, y: 0, width: 320, height: 180)
        #expect(layout.buttons.count == 6, "\(layout.buttons.map(\.element))")
        for (i, b) in layout.buttons.enumerated() {
            #expect(bounds.contains(b.rect), "\(b.element) at \(b.rect)")
            for other in layout.buttons[(i + 1)...] {
                let apart = b.rect.maxX <= other.rect.minX || other.rect.maxX <= b.rect.minX
                #expect(apart, "\(b.element) overlaps \(other.element)")
            }
        }
        #expect(layout.seekTrack.width >= 100, "a seek bar of \(layout.seekTrack.width) pixels")
        #expect(layout.elapsedLabel.maxX <= layout.seekArea.minX && layout.seekArea.maxX <= layout.remainingLabel.minX)
        #expect(layout.elapsedLabel.width >= 7 * 8, "\(layout.elapsedLabel)")
        let menu = layout.menu
        #expect(menu.map { bounds.contains($0) && $0.maxY <= layout.bar.minY } == true, "\(String(describing: menu))")
        #expect(layout.menuRows.count == 5, "\(layout.menuRows.count) of 5 speeds fit")
        #expect(layout.menuRows.allSatisfy { $0.height >= 16 }, "\(layout.menuRows)")
    }
}
