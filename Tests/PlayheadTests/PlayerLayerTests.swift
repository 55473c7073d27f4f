import Foundation
import Observation
import Playhead
import PlayheadTestSupport
import Testing

/// `PlayerLayer` in a window on the tests' X server: readiness follows the pictures on screen, and layers come and
/// go without reopening anything.
@MainActor @Suite(.serialized) struct PlayerLayerTests {
    /// Every value `isReadyForDisplay` takes, in order.
    @MainActor final class ReadinessLog {
        var values: [Bool] = []
        init(_ layer: PlayerLayer) { follow(layer) }
        private func follow(_ layer: PlayerLayer) {
            values.append(
                withObservationTracking {
                    layer.isReadyForDisplay
                } onChange: { [weak self] in
                    Task { @MainActor in self?.follow(layer) }
                })
        }
    }

    /// The frame number `Fixtures.numberedVideo` draws, read from a screenshot of a window showing it at its own
    /// size (320x240).
    static func numberOnScreen(_ title: String) throws -> Int? {
        guard let g = try TestDisplay.window(titled: title) else { return nil }
        let shot = try TestDisplay.grab(g)
        return Fixtures.frameNumber { x, y in UInt8(shot.pixel(x, y).g) }
    }

    @Test func theLayerIsReadyOnlyWithAPictureOfTheCurrentItemOnScreen() async throws {
        try TestDisplay.useInThisProcess()
        defer { TestDisplay.leave() }
        let player = Player()
        player.audioOutputChoice = .disabled
        defer { player.close() }
        let title = "readiness"
        let window = try await PlayerWindow.open(player: player, title: title, width: 320, height: 240)
        defer { window.close() }
        let log = ReadinessLog(window.playerLayer)
        // Nothing to show: the background, and not ready.
        try await Task.sleep(for: .milliseconds(300))
        #expect(!window.playerLayer.isReadyForDisplay)
        #expect(try await PlayerWindowTests.mismatches(in: title, [(160, 120, PlayerWindowTests.black)]).isEmpty)

        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.colourBars()))
        #expect(await eventually { window.playerLayer.isReadyForDisplay }, "never ready with the bars")
        #expect(try await PlayerWindowTests.mismatches(in: title, [(40, 120, PlayerWindowTests.red)]).isEmpty)
        #expect(window.playerLayer.videoRect == CGRect(x: 0, y: 0, width: 320, height: 240))

        // Another item: not ready until its first picture is on screen, then ready with it there.
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.numberedVideo()))
        #expect(await eventually { log.values.count >= 4 }, "readiness went \(log.values)")
        #expect(log.values == [false, true, false, true], "readiness went \(log.values)")
        #expect(try Self.numberOnScreen(title) == 0, "the new item's first picture is not on screen")
        #expect(try await PlayerWindowTests.mismatches(in: title, [(20, 120, PlayerWindowTests.black)]).isEmpty)

        // The bars again, then an item that never shows a picture (it cannot be opened): the background, not the
        // bars' blue.
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.colourBars()))
        #expect(try await PlayerWindowTests.mismatches(in: title, [(200, 120, PlayerWindowTests.blue)]).isEmpty)
        let junk = Fixtures.file("not-video.mp4", bytes: Array(repeating: 7, count: 4096))
        player.replaceCurrentItem(with: PlayerItem(url: junk))
        #expect(await eventually { player.currentItem?.status == .failed }, "the broken item did not fail")
        #expect(!window.playerLayer.isReadyForDisplay)
        let stale = try await PlayerWindowTests.mismatches(in: title, [(200, 120, PlayerWindowTests.black)])
        #expect(stale.isEmpty, "the last item's picture stayed: \(stale)")
    }

    /// Playing, the picture on screen is the one the clock says: each frame of `numberedVideo` carries its number,
    /// read from screenshots and compared with the clock read just before and after each grab (±1 frame).
    @Test func thePictureOnScreenIsTheOneTheClockSays() async throws {
        try TestDisplay.useInThisProcess()
        defer { TestDisplay.leave() }
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer {
            player.close()
            _ = sink.stopRecording()
        }
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.numberedVideo()))
        let title = "frame timing"
        let window = try await PlayerWindow.open(player: player, title: title, width: 320, height: 240)
        defer { window.close() }
        player.play()
        #expect(await eventually { player.currentTime().seconds >= 0.5 })
        var checked = 0
        var wrong: [String] = []
        while player.currentTime().seconds < 8.5, checked < 20 {
            let before = player.currentTime().seconds
            let shown = try Self.numberOnScreen(title)
            let after = player.currentTime().seconds
            guard let shown else { continue }
            checked += 1
            let earliest = Int((before * 25).rounded(.down)) - 1
            let latest = Int((after * 25).rounded(.up)) + 1
            if !(earliest...latest).contains(shown) { wrong.append("frame \(shown) between \(before) and \(after) s") }
        }
        #expect(checked >= 6, "only \(checked) screenshots")
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "; "))")
    }

    @Test func aLayerAddedWhilePausedShowsThePausedPictureAndNothingIsReopened() async throws {
        try TestDisplay.useInThisProcess()
        defer { TestDisplay.leave() }
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer {
            player.close()
            _ = sink.stopRecording()
        }
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.numberedVideo()))
        let first = try await PlayerWindow.open(player: player, title: "layer one", width: 320, height: 240)
        defer { first.close() }
        player.play()
        #expect(await eventually { player.currentTime().seconds >= 1.5 })
        player.pause()
        #expect(await eventually { player.timeControlStatus == .paused })
        try await Task.sleep(for: .milliseconds(200))
        let paused = try #require(PlayerVideoOutputTests.number(player.currentVideoFrame))
        let (opens, decoders) = (PlaybackCounters.mediaOpens, PlaybackCounters.decoderCreations)
        // A block drawn white in the paused picture, to see it leave the screen.
        let white = try #require((0..<8).first { paused & (1 << $0) != 0 }, "frame \(paused) has no white block")

        // Windows opened and closed, the player moved between layers: the paused picture at once each time.
        for round in 0..<5 {
            let title = "layer \(round + 2)"
            let window = try await PlayerWindow.open(
                player: player, title: title, width: 320, height: 240, position: (340, 20))
            #expect(await eventually { window.playerLayer.isReadyForDisplay }, "round \(round): not ready")
            #expect(try Self.numberOnScreen(title) == paused, "round \(round): not the paused picture")
            window.player = nil
            #expect(!window.playerLayer.isReadyForDisplay)
            let gone = try await PlayerWindowTests.mismatches(
                in: title, [(white * 40 + 20, 120, PlayerWindowTests.black)])
            #expect(gone.isEmpty, "round \(round): a layer without a player still shows a picture")
            first.player = nil
            window.player = player
            first.player = player
            #expect(await eventually { window.playerLayer.isReadyForDisplay }, "round \(round): not ready again")
            window.close()
        }
        #expect(try Self.numberOnScreen("layer one") == paused)
        #expect(PlaybackCounters.mediaOpens == opens, "the media was opened again")
        #expect(PlaybackCounters.decoderCreations == decoders, "a decoder was made again")
        #expect(player.timeControlStatus == .paused, "a layout change started playback")
    }
}
