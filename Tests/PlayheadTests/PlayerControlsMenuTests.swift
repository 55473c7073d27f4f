import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// The menus of the player controls (speed, audio, subtitles) and the app's overlay under them, on the tests' X
/// server, with the scene and helpers of `PlayerControlsTests`.
@MainActor @Suite(.serialized) struct PlayerControlsMenuTests {
    let t = PlayerControlsTests()

    /// The speed menu opens above its button, lists the speeds, and the one clicked is the rate played at.
    @Test func theSpeedMenuSetsTheRate() async throws {
        try await t.scene("controls speed") { player, window, g in
            player.play()
            try await t.showControls(g)
            let (sx, sy) = try t.centre(.speed, t.layout(window))
            try t.pointer(g, sx, sy, click: true)
            let speeds = PlaybackSpeed.systemDefaultSpeeds.map(\.localizedName)
            let rows = t.layout(window, menu: ControlsMenu(kind: .speed, items: speeds, selected: 1)).menuRows
            #expect(rows.count == 5, "\(rows.count) rows")
            let oneAndAHalf = try #require(rows.count > 3 ? rows[3] : nil)
            #expect(
                try await t.within(5) {
                    let p = try await t.shot(g).pixel(Int(oneAndAHalf.maxX) - 6, Int(oneAndAHalf.midY))
                    return p.r < 30 && p.g < 30 && p.b < 30
                }, "no menu over the picture")
            try t.pointer(g, oneAndAHalf.midX, oneAndAHalf.midY, click: true)
            #expect(await eventually { player.rate == 1.5 && player.defaultRate == 1.5 }, "rate \(player.rate)")
            let from = player.currentTime().seconds
            try await Task.sleep(for: .seconds(2))
            let played = player.currentTime().seconds - from
            #expect(abs(played - 3) < 0.5, "\(played) s of media in 2 s at 1.5x")
        }
    }

    /// Opens the menu of `button` and clicks its entry `index` (the menu laid out for `items`).
    func choose(
        _ index: Int, of items: [String], in kind: ControlsMenu.Kind, button: ControlElement, _ window: PlayerWindow,
        _ g: TestDisplay.Geometry
    ) async throws {
        let (x, y) = try t.centre(button, t.layout(window))
        let rows = t.layout(window, menu: ControlsMenu(kind: kind, items: items, selected: 0)).menuRows
        try #require(rows.count == items.count, "\(rows.count) rows for \(items.count) entries")
        try t.pointer(g, x, y, click: true)
        try await Task.sleep(for: .milliseconds(300))
        try t.pointer(g, rows[index].midX, rows[index].midY, click: true)
    }

    /// The subtitles menu shows French subtitles, then none; the audio menu switches from the English sound
    /// (440 Hz) to the French (880 Hz) at the sink.
    @Test func theAudioAndSubtitleMenusChangeWhatIsDrawnAndHeard() async throws {
        let sink = try TestSink()
        let sinkPlayer = Player.onSink(sink)
        sinkPlayer.replaceCurrentItem(with: PlayerItem(url: try Fixtures.controlsVideo()))
        try await t.scene("controls menus", player: sinkPlayer) { player, window, g in
            player.play()
            try await t.showControls(g)
            let top = 0..<90
            let subtitles = ["Off", "English", "French"]
            try await choose(2, of: subtitles, in: .subtitles, button: .subtitles, window, g)
            #expect(
                try await t.within(8) { !(try await t.shot(g).brightPixels(inRows: top).isEmpty) },
                "no French subtitle at the top")
            try await choose(0, of: subtitles, in: .subtitles, button: .subtitles, window, g)
            #expect(
                try await t.within(8) { try await t.shot(g).brightPixels(inRows: top).isEmpty }, "subtitles after Off")

            try await choose(1, of: ["English", "French"], in: .audio, button: .audio, window, g)
            let audible = try #require(try await player.currentItem?.asset.loadMediaSelectionGroup(for: .audible))
            #expect(
                await eventually {
                    player.currentItem?.currentMediaSelection.selectedMediaOption(in: audible) == audible.options[1]
                }, "the French sound is not playing")
            try await Task.sleep(for: .seconds(1.5))
        }
        let tones = AudioAnalysis.toneSequence(sink.stopRecording())
        #expect(tones.first == 440 && tones.last == 880, "heard \(tones)")
    }

    /// The app's overlay shows over the video and under the controls' shade, and leaves when set to nil.
    @Test func theContentOverlayLiesBetweenTheVideoAndTheControls() async throws {
        try await t.scene("controls overlay") { _, window, g in
            // Opaque red: B G R A.
            let red = [UInt8]((0..<(120 * 40)).flatMap { _ in [0, 0, 255, 255] as [UInt8] })
            let image = try #require(OverlayImage(width: 120, height: 40, pixels: red, x: 150, y: 315))
            window.contentOverlay = image
            #expect(try await t.within(5) { try await t.shot(g).matches(210, 350, (255, 0, 0)) }, "no overlay")
            #expect(try await t.shot(g).matches(100, 350, (64, 64, 64)), "the overlay spread")
            try await t.showControls(g)
            let shaded = try await t.shot(g).pixel(210, 350)
            #expect(shaded.r > 30 && shaded.r < 160 && shaded.g < 20, "the overlay under the controls is \(shaded)")
            window.contentOverlay = nil
            #expect(try await t.within(5) { try await t.shot(g).pixel(210, 350).r < 40 }, "the overlay stayed")
            #expect(OverlayImage(width: 2, height: 2, pixels: [0, 0, 0]) == nil, "an image of the wrong size")
        }
    }
}
