import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// `forwardPlaybackEndTime` set while the item plays applies at once, as in AVFoundation.
@MainActor @Suite(.serialized) struct ForwardPlaybackEndTests {
    /// Plays a 20 s tone with `initialEnd`, sets the end to `end` 1 s into playback, and returns the seconds of
    /// sound heard until the item ended, and the longest silence among them.
    func play(initialEnd: Double?, then end: Double) async throws -> (heard: Double, gap: Double) {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        let item = PlayerItem(url: try Fixtures.tone(seconds: 20))
        if let initialEnd { item.forwardPlaybackEndTime = MediaTime(seconds: initialEnd, preferredTimescale: 1000) }
        let ended = endedFlag(player)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { player.currentTime().seconds >= 1 }, "\(String(describing: item.error))")
        item.forwardPlaybackEndTime = MediaTime(seconds: end, preferredTimescale: 1000)
        #expect(await eventually(timeout: 15) { ended.value }, "did not end")
        let samples = sink.stopRecording()
        return (AudioAnalysis.audibleSeconds(samples), AudioAnalysis.longestGap(samples))
    }

    /// An end set 1 s into a 20 s item: it stops there. (The end was read only when the item started: it played
    /// all 20 s.)
    @Test func anEndSetWhilePlayingStopsThere() async throws {
        let (heard, _) = try await play(initialEnd: nil, then: 2.5)
        #expect(abs(heard - 2.5) < 0.15, "heard \(heard) s")
    }

    /// An end moved from 3 s to 5 s after reading had already stopped at 3 s: it plays on to the new end.
    @Test func anEndMovedLaterPlaysOnToIt() async throws {
        let (heard, gap) = try await play(initialEnd: 3, then: 5)
        #expect(abs(heard - 5) < 0.15, "heard \(heard) s")
        #expect(gap < 0.15, "a gap of \(gap) s")
    }
}
