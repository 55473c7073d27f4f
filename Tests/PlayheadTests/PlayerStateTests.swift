import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// `timeControlStatus`, `status` and time observers as an app sees them.
@MainActor @Suite(.serialized) struct PlayerStateTests {
    @Test func openPlayPauseEnd() async throws {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let recorder = StateRecorder(player)
        let item = PlayerItem(url: try Fixtures.tone(seconds: 2))
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .readyToPlay })
        #expect(item.duration.seconds > 1.9 && item.duration.seconds < 2.1)
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(500))
        player.pause()
        let pausedAt = player.currentTime().seconds
        #expect(player.timeControlStatus == .paused)
        try await Task.sleep(for: .milliseconds(300))
        #expect(abs(player.currentTime().seconds - pausedAt) < 0.01, "time moved while paused")
        #expect(pausedAt > 0.35 && pausedAt < 0.75, "paused at \(pausedAt)")
        let ended = endedFlag(player)
        player.play()
        #expect(await eventually(timeout: 5) { ended.value })
        #expect(await eventually { player.timeControlStatus == .paused }, "actionAtItemEnd .pause")
        await recorder.stop()
        // The sequence a listener saw: paused, waiting while opening/after play, playing, paused, playing, paused.
        let seen = recorder.states.filter { $0 != "waiting(evaluating)" }
        #expect(seen == ["paused", "playing", "paused", "playing", "paused"], "\(recorder.states)")
        #expect(player.currentTime().seconds > 1.9)
        let samples = sink.stopRecording()
        #expect(
            abs(AudioAnalysis.audibleSeconds(samples) - 2) < 0.1, "heard \(AudioAnalysis.audibleSeconds(samples)) s")
    }

    @Test func failingItem() async throws {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: URL(fileURLWithPath: "/nonexistent/file.m4a"))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { player.status == .failed })
        #expect(item.status == .failed)
        #expect(item.error?.description == "/nonexistent/file.m4a: no such file")
        #expect(item.errorLog.count == 1)
        #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(player.reasonForWaitingToPlay == .noItemToPlay)
    }

    @Test func noItem() {
        let player = Player()
        player.play()
        #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(player.reasonForWaitingToPlay == .noItemToPlay)
        player.pause()
        #expect(player.timeControlStatus == .paused)
        #expect(player.currentTime() == .zero)
    }

    @Test func periodicObserverFiresAtTheInterval() async throws {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let times = Locked([Double]())
        let token = player.addPeriodicTimeObserver(forInterval: MediaTime(value: 1, timescale: 4), queue: .main) {
            now in times.withLock { $0.append(now.seconds) }
        }
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 3)))
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .seconds(2))
        player.removeTimeObserver(token)
        let fired = times.current
        try await Task.sleep(for: .milliseconds(400))
        #expect(times.current.count == fired.count, "fired after removal")
        // Started (1) + 8 ticks in 2 s.
        #expect(fired.count >= 8 && fired.count <= 11, "\(fired)")
        let steps = zip(fired.dropFirst(2), fired.dropFirst(1)).map { $0 - $1 }
        #expect(steps.allSatisfy { abs($0 - 0.25) < 0.06 }, "\(steps)")
    }

    /// Paused and removed at once (a view's teardown): the call the pause queued is not made after the removal.
    @Test func aRemovedObserverIsNotCalledForThePauseBeforeIt() async throws {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let removed = Locked(false)
        let late = Locked(0)
        let token = player.addPeriodicTimeObserver(forInterval: MediaTime(value: 1, timescale: 4), queue: .main) { _ in
            if removed.current { late.withLock { $0 += 1 } }
        }
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 3)))
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(600))
        player.pause()
        player.removeTimeObserver(token)
        removed.withLock { $0 = true }
        try await Task.sleep(for: .milliseconds(300))
        #expect(late.current == 0, "called \(late.current) times after its removal")
    }

    /// `isPlaybackBufferFull`: once a short file is read to its end, and once a long one fills its forward buffer
    /// (it was never set).
    @Test func theBufferReadsFullWhenItHoldsAllItMay() async throws {
        for (url, ahead) in [(try Fixtures.tone(seconds: 2, ext: "wav"), 0.0), (try Fixtures.tone(seconds: 20), 1.0)] {
            let player = Player()
            player.audioOutputChoice = .null(untimed: false)
            let item = PlayerItem(url: url)
            item.preferredForwardBufferDuration = ahead
            #expect(!item.isPlaybackBufferFull)
            player.replaceCurrentItem(with: item)
            player.play()
            #expect(await eventually(timeout: 5) { item.isPlaybackBufferFull }, "\(url.lastPathComponent)")
            player.close()
        }
    }

    /// Anamorphic video (720x576 stored, pixels 64:45 wide: 16:9 on screen) presents at the size it shows,
    /// 1024x576, which the window opens at (it opened at 720x576, the picture shrunk between bars).
    @Test func anamorphicVideoPresentsAtItsShownSize() async throws {
        let url = try Fixtures.make(
            "anamorphic-720x576.mp4",
            [
                "-f", "lavfi", "-i", "color=c=red:size=720x576:rate=25:duration=1", "-vf", "setsar=64/45",
                "-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p",
            ])
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: url)
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .readyToPlay })
        #expect(item.presentationSize == Size(width: 1024, height: 576), "\(item.presentationSize)")
        player.close()
    }

    @Test func boundaryObserverFiresOnce() async throws {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let hits = Locked([Double]())
        let source = player.timebase
        _ = player.addBoundaryTimeObserver(forTimes: [MediaTime(value: 1, timescale: 2)], queue: .global()) {
            hits.withLock { $0.append(source.time.seconds) }
        }
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 2)))
        player.play()
        try await Task.sleep(for: .seconds(1.2))
        #expect(hits.current.count == 1)
        #expect(abs((hits.current.first ?? 0) - 0.5) < 0.05)
    }

    @Test func volumeScalesTheSound() async throws {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        player.volume = 0.5
        let tone = try Fixtures.tone(seconds: 1)
        player.replaceCurrentItem(with: PlayerItem(url: tone))
        let ended = endedFlag(player)
        player.play()
        #expect(await eventually { ended.value })
        let peak = sink.stopRecording().map(abs).max() ?? 0
        // The reference: the same file decoded by the ffmpeg command at full volume.
        let full = referencePeak(tone)
        #expect(full > 0.05)
        #expect(abs(peak / full - 0.5) < 0.03, "peak \(peak) against \(full) at full volume")
    }

    func referencePeak(_ url: URL) -> Float {
        let out = Paths.scratch("ref").appendingPathComponent("ref.raw")
        _ = try? Run.command("ffmpeg", ["-v", "error", "-y", "-i", url.path, "-f", "s16le", "-ac", "1", out.path])
        let data = (try? Data(contentsOf: out)) ?? Data()
        return data.withUnsafeBytes { raw in
            raw.bindMemory(to: Int16.self).map { abs(Float($0) / 32768) }.max() ?? 0
        }
    }

}

@MainActor final class Flag {
    var value = false
}
