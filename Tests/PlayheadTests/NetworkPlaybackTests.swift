import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Progressive HTTP playback: plays, stalls when the server stops sending, resumes by itself.
@MainActor @Suite(.serialized) struct NetworkPlaybackTests {
    @Test func playsARemoteFile() async throws {
        let tone = try Fixtures.tone(seconds: 2)
        let origin = try TestOrigin(serving: tone.deletingLastPathComponent())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: origin.url(tone.lastPathComponent))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { item.status == .readyToPlay })
        #expect(abs(item.duration.seconds - 2) < 0.1)
        #expect(item.seekableTimeRanges.first?.duration.seconds ?? 0 > 1.9, "a ranged HTTP file is seekable")
        #expect(await eventually(timeout: 8) { player.timeControlStatus == .paused }, "ended")
        let samples = sink.stopRecording()
        #expect(abs(AudioAnalysis.audibleSeconds(samples) - 2) < 0.1)
        #expect(abs(AudioAnalysis.frequency(samples) - 440) < 4.4)
    }

    @Test func stallsAndResumesOnASlowServer() async throws {
        // 8 s of audio (about 130 kB); the server sends 45 kB (about 2.7 s of sound) at once, then stops for 5 s.
        let tone = try Fixtures.tone(seconds: 8)
        let origin = try TestOrigin(serving: tone.deletingLastPathComponent())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let recorder = StateRecorder(player)
        let url = origin.url(tone.lastPathComponent, ["stall_after": "45000", "stall_for": "5"])
        let item = PlayerItem(url: url)
        item.preferredForwardBufferDuration = 1
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        #expect(
            await eventually(timeout: 6) { player.reasonForWaitingToPlay == .toMinimizeStalls },
            "no stall seen: \(recorder.states)")
        #expect(!item.isPlaybackLikelyToKeepUp)
        let stalledAt = player.currentTime().seconds
        try await Task.sleep(for: .milliseconds(500))
        #expect(abs(player.currentTime().seconds - stalledAt) < 0.05, "time moved during the stall")
        #expect(await eventually(timeout: 6) { player.timeControlStatus == .playing }, "did not resume")
        #expect(await eventually(timeout: 12) { player.timeControlStatus == .paused }, "did not reach the end")
        await recorder.stop()
        // The recorder starts after play(): it sees opening, playing, the stall, playing again, the end.
        let seen = recorder.states.filter { $0 != "waiting(evaluating)" }
        #expect(seen == ["playing", "waiting(stalls)", "playing", "paused"], "\(recorder.states)")
        // All 8 s were heard, with one long silence (the stall: about 5 s less the 2.7 s already sent) inside.
        let samples = sink.stopRecording()
        #expect(
            abs(AudioAnalysis.audibleSeconds(samples) - 8) < 0.3, "heard \(AudioAnalysis.audibleSeconds(samples)) s")
        #expect(AudioAnalysis.longestGap(samples) > 1.5)
    }
}
