import Foundation
import Playhead
import PlayheadTestSupport
import PlayheadVideo
import Testing

/// One player owned above every layout change (issue 17's continuity rule): resizing, fullscreen in and out,
/// Picture in Picture in and out, minimizing and restoring, hiding and showing the window never pause, seek,
/// reopen or make a decoder again, and never start playback either. On an X server of the test's own with openbox;
/// the sound is recorded at the sink.
@MainActor @Suite(.serialized) struct LayoutContinuityTests {
    /// Twenty layout changes, each given time to happen; `after` runs after each with its name.
    static func twentyChanges(
        _ window: PlayerWindow, _ pip: PictureInPictureController, after: (String) async throws -> Void
    ) async throws {
        // Each change, and what shows it happened (the window as the display reads it, the controller).
        let steps: [(String, () async -> Void, (VideoWindow.Placement?) -> Bool)] = [
            ("resize 400x300", { window.resize(width: 400, height: 300) }, { $0?.width == 400 }),
            ("fullscreen", { window.isFullscreen = true }, { $0?.width == 640 }),
            ("fullscreen off", { window.isFullscreen = false }, { $0?.width == 400 }),
            ("resize 320x240", { window.resize(width: 320, height: 240) }, { $0?.width == 320 }),
            ("Picture in Picture", { pip.startPictureInPicture() }, { _ in pip.isPictureInPictureActive }),
            ("back", { pip.stopPictureInPicture() }, { !pip.isPictureInPictureActive && $0?.isHidden == false }),
            ("minimize", { window.minimize() }, { $0?.isHidden == true }),
            ("restore", { window.show() }, { $0?.isHidden == false }),
            ("hide", { window.hide() }, { $0?.isHidden == true }),
            ("show", { window.show() }, { $0?.isHidden == false }),
        ]
        for round in 0..<2 {
            for (name, step, happened) in steps {
                await step()
                var placement: VideoWindow.Placement?
                var done = false
                for _ in 0..<60 where !done {
                    placement = await window.placement()
                    done = !pip.transitioningForTests && happened(placement)
                    if !done { try await Task.sleep(for: .milliseconds(50)) }
                }
                #expect(done, "\(name) did not happen: \(String(describing: placement))")
                try await Task.sleep(for: .milliseconds(200))
                try await after("\(name) (round \(round + 1))")
            }
        }
    }

    static func scene(
        _ title: String,
        _ body: (Player, PlayerWindow, PictureInPictureController, TestSink) async throws -> Void
    ) async throws {
        try await withManagedDisplay { display in
            let sink = try TestSink()
            let player = Player()
            player.audioOutputChoice = .pulse(device: sink.name)
            player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.barsWithTone()))
            defer { player.close() }
            let window = try await PictureInPictureTests.mainWindow(player, title)
            defer { window.close() }
            PictureInPictureController.preferredCorner = .bottomRight
            let pip = PictureInPictureController(playerWindow: window)
            defer { pip.pictureInPictureWindow?.close() }
            try await body(player, window, pip, sink)
        }
    }

    @Test func twentyLayoutChangesWhilePlayingNeitherPauseNorReloadNorLoseSound() async throws {
        try await Self.scene("continuity playing") { player, window, pip, sink in
            player.play()
            #expect(await eventually { player.currentTime().seconds > 0.5 })
            let (opens, decoders) = (PlaybackCounters.mediaOpens, PlaybackCounters.decoderCreations)
            var last = player.currentTime().seconds
            try await Self.twentyChanges(window, pip) { name in
                let now = player.currentTime().seconds
                #expect(now > last, "after \(name) the position went from \(last) to \(now)")
                #expect(player.timeControlStatus == .playing, "after \(name): \(player.timeControlStatus)")
                last = now
            }
            #expect(PlaybackCounters.mediaOpens == opens, "the media was opened again")
            #expect(PlaybackCounters.decoderCreations == decoders, "a decoder was made again")
            player.pause()
            let played = player.currentTime().seconds
            try await Task.sleep(for: .milliseconds(500))
            let heard = sink.stopRecording()
            #expect(AudioAnalysis.longestGap(heard) < 0.005, gapMessage(heard))
            // All of it heard, from the start to where it paused (the server's buffer plays out after the pause).
            let seconds = AudioAnalysis.soundSeconds(heard)
            #expect(abs(seconds - played) < 0.35, "\(seconds) s heard for \(played) s played")
        }
    }

    @Test func twentyLayoutChangesWhilePausedStayPaused() async throws {
        try await Self.scene("continuity paused") { player, window, pip, sink in
            #expect(await eventually { player.currentItem?.status == .readyToPlay })
            let at = player.currentTime().seconds
            try await Self.twentyChanges(window, pip) { name in
                #expect(player.timeControlStatus == .paused, "after \(name): \(player.timeControlStatus)")
                #expect(player.currentTime().seconds == at, "after \(name): moved to \(player.currentTime().seconds)")
            }
            #expect(AudioAnalysis.audibleSeconds(sink.stopRecording()) == 0, "a layout change played sound")
        }
    }
}
