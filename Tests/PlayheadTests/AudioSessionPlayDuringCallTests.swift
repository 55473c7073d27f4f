import Foundation
import Playhead
import PlayheadTestSupport
import Testing

@testable import PlayheadAudio

/// Play asked for during a call: the sound server mutes the stream until the call ends, so the player waits for
/// the end with its clock standing, then plays from where the call stopped it. It played into the mute (1-2 s of
/// the item never heard), and since its stream was no longer corked when the call ended, the server never said so:
/// the interruption never ended.
@MainActor @Suite(.serialized) struct AudioSessionPlayDuringCallTests {
    @Test func playDuringACallWaitsForItsEndAndLosesNothing() async throws {
        try AudioSession.shared.setCategory(.playback)
        defer { try? AudioSession.shared.setCategory(.soloAmbient) }
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        player.replaceCurrentItem(with: PlayerItem(url: try GaplessFixtures.positionChirp()))
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(1500))

        let phone = try call(on: sink.name)
        defer { Run.kill(phone) }
        #expect(await eventually { player.isInterruptedByAudioSession && player.timeControlStatus == .paused })
        try await Task.sleep(for: .milliseconds(300))
        player.play()
        #expect(player.rate == 1)
        #expect(player.timeControlStatus == .waitingToPlayAtSpecifiedRate)
        #expect(player.reasonForWaitingToPlay == .interruptedByAudioSession)
        let heldAt = player.currentTime().seconds
        try await Task.sleep(for: .milliseconds(1200))
        #expect(abs(player.currentTime().seconds - heldAt) < 0.01, "the clock ran on during the call")

        Run.kill(phone)
        #expect(
            await eventually { !player.isInterruptedByAudioSession && player.timeControlStatus == .playing },
            "the interruption never ended: \(StateRecorder.describe(player))")
        try await Task.sleep(for: .milliseconds(1200))
        player.close()
        let samples = sink.stopRecording()

        // The call is the silence in the middle: the chirp (200 + 2t Hz at t s) goes on after it from where it
        // stopped before it.
        let gap = try #require(AudioAnalysis.longestGapRange(samples), "no call heard")
        #expect(Double(gap.count) / 48_000 > 1, "a gap of \(Double(gap.count) / 48_000) s")
        let window = 9_600
        let margin = 2_400
        guard gap.lowerBound >= window + margin, gap.upperBound + margin + window <= samples.count else {
            Issue.record("too little sound around the call: \(gap) in \(samples.count) samples")
            return
        }
        func position(_ start: Int) -> Double {
            (AudioAnalysis.frequency(Array(samples[start..<(start + window)])) - 200) / 2
        }
        // Each window's position is that of its middle: 0.1 s plus the margin from the gap's edge.
        let edge = Double(window / 2 + margin) / 48_000
        let before = position(gap.lowerBound - margin - window) + edge
        let after = position(gap.upperBound + margin) - edge
        #expect(abs(after - before) < 0.25, "heard up to \(before) s before the call and from \(after) s after it")
    }

    private func call(on sink: String) throws -> Process { try AudioSessionPlayerTests().call(on: sink) }
}
