import Foundation
import PlayheadCore
import PlayheadTestSupport
import Testing

@testable import Playhead

/// `HLSSource` driven directly, as its demux thread drives it, on a live stream: the buffer its policy weighs,
/// measured from where the play head is (before the first sample plays the engine's clock still reads 0, which is
/// not where a live stream joined inside its window starts), and the end of its reloads.
@Suite(.serialized) struct HLSPlayHeadTests {
    /// `ladder-long` as a live stream 14 s old: its four playlists listing the first seven segments, no
    /// `EXT-X-ENDLIST`. Returns the multivariant playlist's path under the fixtures root.
    func liveWindow() throws -> String {
        _ = try HLSFixtures.tsLadder("ladder-long", seconds: 48)
        let root = try HLSFixtures.root()
        let master = try String(contentsOf: root.appendingPathComponent("ladder-long/master.m3u8"), encoding: .utf8)
        try writeWindow(segments: 7, ended: false)
        try master.write(
            to: root.appendingPathComponent("live-window-14s/master.m3u8"), atomically: true, encoding: .utf8)
        return "live-window-14s/master.m3u8"
    }

    /// Rewrites the four playlists of `liveWindow` to list the first `segments` segments, ended or not.
    func writeWindow(segments: Int, ended: Bool) throws {
        let folder = try HLSFixtures.root().appendingPathComponent("live-window-14s")
        for v in 0..<4 {
            let dir = folder.appendingPathComponent("v\(v)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            var lines = ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:2", "#EXT-X-MEDIA-SEQUENCE:0"]
            for s in 0..<segments {
                lines += ["#EXTINF:2.000000,", String(format: "../../ladder-long/v\(v)/seg%02d.ts", s)]
            }
            if ended { lines.append("#EXT-X-ENDLIST") }
            try (lines.joined(separator: "\n") + "\n").write(
                to: dir.appendingPathComponent("index.m3u8"), atomically: true, encoding: .utf8)
        }
    }

    /// Joined `HOLD-BACK` (6 s) from the edge, at item time 8, with one 360p segment fetched on a 1.5 Mb/s link
    /// that answers after a second: 2 s are buffered, and 540p (2.1 Mbit a segment: a playlist, a request and
    /// 1.4 s of bytes) would not arrive before they run out. Measured from the engine's clock before the first
    /// sample (0), the buffer read 10 s, and the client climbed to 540p and stalled at the start (about one start in
    /// five of `playhead` on the live ladder, whichever thread came first).
    @Test func beforeTheFirstSampleTheBufferIsWhatWasFetchedFromTheJoinPoint() throws {
        let path = try liveWindow()
        let origin = try TestOrigin(serving: try HLSFixtures.root(), latencyTrace: [(600, 1.5e6, 1)])
        let source = try HLSSource(url: origin.url(path), timeout: 10)
        #expect(source.playbackPosition() == 0, "the engine's clock before the first sample")
        #expect(try source.loadNext())
        #expect(abs(source.openedAt - 8) < 0.01, "joined at \(source.openedAt)")
        #expect(abs(source.nextStart - source.playHead() - 2) < 0.01, "buffer \(source.nextStart - source.playHead())")
        #expect(try source.loadNext())
        #expect(source.variant?.bandwidth == 510_000, "climbed to \(String(describing: source.variant))")
        source.interrupt()
    }

    /// Caught up with the edge of a playlist that no longer changes, the reader waits for the reloads; interrupted
    /// (the engine stops) the wait ends at once with an error, and the reloads end with it: the origin is asked
    /// for nothing more.
    @Test func interruptedWhileWaitingForTheEdgeTheWaitAndTheReloadsEnd() async throws {
        let path = try liveWindow()
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let source = try HLSSource(url: origin.url(path), timeout: 10)
        // Joined at segment 4 of 7: three to fetch, then the edge.
        for _ in 0..<3 { #expect(try source.loadNext()) }
        let ended = Locked<(Double, String)?>(nil)
        Thread {
            let outcome: String
            do { outcome = "returned \(try source.loadNext())" } catch { outcome = "\(error)" }
            ended.withLock { $0 = (MonotonicClock.now(), outcome) }
        }.start()
        try await Task.sleep(for: .seconds(1.5))
        #expect(ended.current == nil, "did not wait for the edge: \(String(describing: ended.current))")
        let interrupted = MonotonicClock.now()
        source.interrupt()
        #expect(await eventually(timeout: 2) { ended.current != nil }, "still waiting")
        if let (at, outcome) = ended.current {
            #expect(at - interrupted < 0.5, "ended \(at - interrupted) s after the interrupt: \(outcome)")
            #expect(outcome.contains("cancelled"), "\(outcome)")
        }
        let asked = origin.requests.count
        try await Task.sleep(for: .seconds(2.5))
        #expect(origin.requests.count == asked, "asked after the interrupt: \(origin.requests.suffix(3))")
    }

    /// A switch while live to a variant whose playlist has ended (`EXT-X-ENDLIST` since the last reload) takes the
    /// end at once, as a reload that found it would: the window is reported ended and no more reloads are made,
    /// rather than up to a target duration later. Then the stream plays to its last segment on that variant.
    @Test func aSwitchToAnEndedPlaylistEndsTheLiveStreamAtOnce() throws {
        let path = try liveWindow()
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let source = try HLSSource(url: origin.url(path), timeout: 10)
        #expect(try source.loadNext())
        #expect(source.live != nil)
        try writeWindow(segments: 20, ended: true)
        #expect(source.switchVariant(to: 1))
        #expect(source.live == nil, "still live after switching to an ended playlist")
        var fetched = 1
        while try source.loadNext() { fetched += 1 }
        #expect(source.nextStart == 40 && fetched == 16, "ended at \(source.nextStart) s of 40 after \(fetched)")
    }
}
