import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// HLS through origin outages (issue 15): a live stream rides out an outage shorter than its buffer.
@MainActor @Suite(.serialized) struct HLSOutageTests {
    /// Live, the origin down (503 for every request) for less than the buffer: the playlist reloads that fail are
    /// tried again, playback never stalls, the sound has no gap, and the error log has the failures. Scaled down
    /// from the 8 s outage with a 20 s buffer, keeping its ratio: 1 s segments, the play head 6 s from the
    /// live edge (`EXT-X-START`), the origin down for 2.4 s.
    @Test func aLiveStreamRidesOutAnOriginOutageShorterThanItsBuffer() async throws {
        let stream = try LiveHLSStream("live-outage", tone: 660, listSize: 10, segmentSeconds: 1)
        try stream.waitForSegments(7)
        let master = """
            #EXTM3U
            #EXT-X-START:TIME-OFFSET=-6
            #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.42c00d,mp4a.40.2"
            index.m3u8

            """
        try master.write(
            to: stream.playlist.deletingLastPathComponent().appendingPathComponent("master.m3u8"), atomically: true,
            encoding: .utf8)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: origin.url("live-outage/master.m3u8"))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { player.currentTime().seconds > 0 }, "\(String(describing: item.error))")
        try await Task.sleep(for: .seconds(2))
        let before = origin.requests.count
        try origin.fail(status: 503, forSeconds: 2.4)
        try await Task.sleep(for: .seconds(2.4 + 3))
        let samples = sink.stopRecording()
        let during = origin.requests.dropFirst(before)
        player.close()

        #expect(item.error == nil, "\(String(describing: item.error))")
        #expect(item.accessLog.allSatisfy { $0.numberOfStalls == 0 }, "stalled")
        #expect(AudioAnalysis.longestGap(samples) < 0.05, "a gap of \(AudioAnalysis.longestGap(samples)) s")
        #expect(AudioAnalysis.audibleSeconds(samples) > 6.5, "\(AudioAnalysis.audibleSeconds(samples)) s of sound")
        let failures = item.errorLog.filter {
            $0.uri.hasSuffix("/live-outage/index.m3u8") == true && $0.errorStatusCode == 503
        }
        #expect(failures.count >= 2, "\(item.errorLog.map { ($0.uri, $0.errorComment) })")
        // The origin came back, and playback went on with the segments listed since.
        let segmentsAfter = during.filter { $0.contains("/live-outage/seg") }
        #expect(segmentsAfter.count >= 3, "\(Array(during))")
    }
}
