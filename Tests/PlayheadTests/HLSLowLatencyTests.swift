import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Low-latency HLS: the test origin replays the 360p variant of the long ladder as a live stream with 0.5 s parts
/// and blocking playlist reloads.
@MainActor @Suite(.serialized) struct HLSLowLatencyTests {
    @Test func playsFromPartsWithBlockingReloadsCloseToTheEdge() async throws {
        _ = try HLSFixtures.tsLadder("ladder-long", seconds: 48)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: origin.url("llhls/ladder-long/v0/index.m3u8"))
        let started = Date()
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(item.duration.isIndefinite)
        try await Task.sleep(for: .seconds(12))
        // The origin's stream began with the first request: its edge is the time since then.
        let edge = Date().timeIntervalSince(started)
        let latency = edge - player.currentTime().seconds
        #expect(item.error == nil, "\(String(describing: item.error))")
        #expect(latency > 0.5 && latency < 4, "\(latency) s behind the edge (regular HLS: 6 s and more)")
        let samples = sink.stopRecording()
        #expect(abs(AudioAnalysis.frequency(samples) - 400) < 4)
        #expect(AudioAnalysis.longestGap(samples) < 0.05, "a gap of \(AudioAnalysis.longestGap(samples)) s")
        let requests = origin.requests
        let playlists = requests.filter { $0.contains("index.m3u8") }
        let blocking = playlists.filter { $0.contains("_HLS_msn=") && $0.contains("_HLS_part=") }
        #expect(playlists.count - blocking.count == 1, "reloads that did not block: \(playlists)")
        #expect(blocking.count > 15, "\(blocking.count) blocking reloads in 12 s of 0.5 s parts")
        let parts = requests.filter { $0.contains(".ts") && $0.contains("bytes=") }
        #expect(parts.count > 15, "\(parts.count) part requests: \(requests)")
        #expect(
            Set(requests.filter { $0.contains(".ts") }).count == requests.filter { $0.contains(".ts") }.count,
            "bytes fetched twice: \(requests)")
    }
}
