import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// A seek ahead within what is buffered is carried out in the engine's queues: nothing is downloaded again.
@MainActor @Suite(.serialized) struct SeekWithinBufferTests {
    /// A 14 s HLS stream of 2 s segments, read 8 s ahead: 1 s in, with segments to 10 s loaded, a seek 3 s ahead
    /// lands in a segment already downloaded, which the origin is not asked for again (it was, and playback waited
    /// for it); the seek finishes at its target, and what follows plays to the end without a stall, the 3 s
    /// skipped unheard.
    @Test func aSeekAheadInAnHLSStreamDownloadsNothingAgain() async throws {
        _ = try HLSFixtures.tsLadder("ladder-failover", seconds: 14)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: origin.url("ladder-failover/v0/index.m3u8"))
        item.preferredForwardBufferDuration = 8
        player.replaceCurrentItem(with: item)
        player.play()
        let loaded = await eventually(timeout: 20) {
            player.currentTime().seconds >= 1 && origin.requests.contains { $0.contains("/v0/seg04.ts") }
        }
        #expect(loaded, "\(String(describing: item.error)) \(origin.requests)")
        let from = player.currentTime().seconds
        let target = ((from + 3) * 1000).rounded() / 1000
        let finished = await player.seek(
            to: MediaTime(seconds: target, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(finished, "the seek did not finish")
        let after = player.currentTime().seconds
        #expect(after >= target && after < target + 0.5, "after the seek to \(target) s the position is \(after) s")
        #expect(await eventually(timeout: 20) { player.timeControlStatus == .paused && item.status != .unknown })
        try await Task.sleep(for: .milliseconds(200))
        player.close()
        let samples = sink.stopRecording()

        #expect(item.error == nil, "\(String(describing: item.error))")
        let segments = origin.requests.filter { $0.contains("/seg") }
        // The target's segment and those before it were asked once (the download in flight at the seek, after
        // them, may be asked again).
        let targetSegment = Int(target / 2)
        for n in 0...targetSegment {
            let asked = segments.filter { $0.contains(String(format: "/seg%02d.ts", n)) }.count
            #expect(asked == 1, "seg\(n) asked \(asked) times: \(segments)")
        }
        #expect(item.accessLog.allSatisfy { $0.numberOfStalls == 0 }, "stalled")
        let heard = AudioAnalysis.audibleSeconds(samples)
        #expect(abs(heard - 11) < 0.3, "\(heard) s of sound, of 14 s with 3 skipped")
    }
}
