import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Gaps at a live stream's edge.
@MainActor @Suite(.serialized) struct HLSLiveGapTests {
    /// A plain live stream (2 s segments, joined 8 s after it began, played `HOLD-BACK` 6 s from its edge) whose
    /// segments 5 to 8 (10-18 s) are `EXT-X-GAP`: their 8 s, longer than the buffer, pass as one silence without a
    /// stall, and playback stays at its distance from the edge. (The engine heard of their time only with the
    /// segment after them, listed after the buffer had run dry: a stall, and the gap's silence after it.)
    @Test func aRunOfGapSegmentsLongerThanTheBufferPassesWithoutAStall() async throws {
        _ = try HLSFixtures.tsLadder("ladder-long", seconds: 48)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        let url = origin.url("live/ladder-long/v0/index.m3u8", ["gap_segments": "5,6,7,8"])
        // The stream begins with its first request.
        let started = Date()
        _ = try await Task.detached { try Data(contentsOf: url) }.value
        try await Task.sleep(for: .seconds(8))
        let item = PlayerItem(url: url)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(
            await eventually(timeout: 30) { player.currentTime().seconds > 21 || item.status == .failed },
            "at \(player.currentTime().seconds) s")
        let latency = Date().timeIntervalSince(started) - player.currentTime().seconds
        let samples = sink.stopRecording()
        #expect(item.error == nil, "\(String(describing: item.error))")
        #expect(item.accessLog.map(\.numberOfStalls).reduce(0, +) == 0, "\(item.accessLog.map(\.numberOfStalls))")
        #expect(latency < 8.5, "\(latency) s behind the edge")
        let fetched = origin.requests.filter { r in (5...8).contains { r.contains("seg0\($0).ts") } }
        #expect(fetched.isEmpty, "gaps fetched: \(fetched)")
        let gaps = silences(samples, atLeast: 0.3)
        #expect(gaps.count == 1 && gaps.allSatisfy { abs($0 - 8) < 0.5 }, "silences of \(gaps) s")
    }
}
