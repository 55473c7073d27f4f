import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Origins that lie or never finish (issue 18): a body is judged by its bytes, not by its `Content-Type`, and a
/// playlist that trickles forever fails within its total time limit, naming its URL.
@MainActor @Suite(.serialized) struct HLSHostileOriginTests {
    /// `bad/typed.m3u8`: the TS ladder's four 2 s segments, each asked for with `?type=CONTENT_TYPE`.
    func typedPlaylist(_ contentType: String) throws -> String {
        _ = try HLSFixtures.tsLadder()
        let dir = try HLSFixtures.badInputs()
        let type = contentType.replacingOccurrences(of: "/", with: "%2F")
        let segments = (0..<4).map { "#EXTINF:2,\n../ladder-ts/v0/seg0\($0).ts?type=\(type)\n" }.joined()
        let name = "typed-\(contentType.replacingOccurrences(of: "/", with: "-")).m3u8"
        try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n\(segments)#EXT-X-ENDLIST\n"
            .write(to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        return "bad/\(name)"
    }

    @Test func segmentsAndAPlaylistServedAsHTMLPlayByTheirContent() async throws {
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let url = origin.url(try typedPlaylist("text/html"), ["type": "text/html; charset=utf-8"])
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: url)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(await eventually(timeout: 20) { player.timeControlStatus == .paused }, "did not end")
        #expect(item.error == nil, "\(String(describing: item.error))")
        let samples = sink.stopRecording()
        #expect(abs(AudioAnalysis.audibleSeconds(samples) - 8) < 0.25, "\(AudioAnalysis.audibleSeconds(samples)) s")
        // Each segment was asked for once (none refused, none tried again).
        #expect(origin.requests.filter { $0.contains("/seg0") }.count == 4, "\(origin.requests)")
    }

    @Test func anHTMLPageServedAsVideoIsStillRefused() async throws {
        try HLSFixtures.badInputs()
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let page = origin.url("bad/page.ts", ["type": "video/mp2t"])
        let dir = try HLSFixtures.badInputs()
        try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n\(page.absoluteString)\n#EXT-X-ENDLIST\n"
            .write(to: dir.appendingPathComponent("page-as-video.m3u8"), atomically: true, encoding: .utf8)
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: origin.url("bad/page-as-video.m3u8"))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .failed }, "did not fail")
        let message = item.error?.description ?? ""
        #expect(message.hasPrefix(page.absoluteString), "\(message)")
        #expect(message.contains("an HTML page, not a media segment") && !message.contains("\n"), "\(message)")
    }

    /// A segment of random bytes between good ones (a broken upload): refused, as a page is, with an error-log
    /// entry naming it (FFmpeg skipped it without a word), and the rest plays.
    @Test func aSegmentOfRandomBytesIsAnErrorLogEntry() async throws {
        _ = try HLSFixtures.tsLadder()
        let dir = try HLSFixtures.badInputs()
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise = (0..<100_000).map { i -> UInt8 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return i == 0 ? 0x5A : UInt8(truncatingIfNeeded: state >> 33)
        }
        try Data(noise).write(to: dir.appendingPathComponent("noise.ts"))
        let segments = ["../ladder-ts/v0/seg00.ts", "noise.ts", "../ladder-ts/v0/seg02.ts", "../ladder-ts/v0/seg03.ts"]
        let playlist = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n" + segments.map { "#EXTINF:2,\n\($0)\n" }.joined()
        try (playlist + "#EXT-X-ENDLIST\n")
            .write(to: dir.appendingPathComponent("noise.m3u8"), atomically: true, encoding: .utf8)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        let item = PlayerItem(url: origin.url("bad/noise.m3u8"))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(await eventually(timeout: 30) { player.timeControlStatus == .paused }, "did not end")
        #expect(item.error == nil, "\(String(describing: item.error))")
        let entry = item.errorLog.first { $0.uri.hasSuffix("/noise.ts") }
        #expect(entry?.errorComment.contains("not a media segment") == true, "\(item.errorLog.map(\.errorComment))")
        // The three good segments were heard.
        let samples = sink.stopRecording()
        #expect(abs(AudioAnalysis.audibleSeconds(samples) - 6) < 0.25, "\(AudioAnalysis.audibleSeconds(samples)) s")
    }

    @Test func aPlaylistThatTricklesForeverFailsWithinItsTimeLimit() async throws {
        let dir = try HLSFixtures.badInputs()
        try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n"
            .write(to: dir.appendingPathComponent("trickle.m3u8"), atomically: true, encoding: .utf8)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        // One line a second: the 2 s idle time-out never fires; the total limit is 3 time-outs, 6 s.
        let url = origin.url("bad/trickle.m3u8", ["trickle": "1"])
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(asset: URLAsset(url: url, options: [.networkTimeout: 2.0]))
        let started = Date()
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 30) { item.status == .failed }, "did not fail")
        let seconds = Date().timeIntervalSince(started)
        #expect(seconds > 5.5 && seconds < 9, "failed after \(seconds) s")
        let message = item.error?.description ?? ""
        #expect(message.hasPrefix(url.absoluteString), "\(message)")
        #expect(message.contains("did not finish within 6 s") && !message.contains("\n"), "\(message)")
        // The client hung up: the origin saw the body aborted.
        #expect(await eventually { origin.bodies.contains { $0.hasSuffix("aborted") } }, "\(origin.bodies)")
    }

    @Test func replacingAnItemWhosePlaylistTricklesDoesNotWait() async throws {
        let dir = try HLSFixtures.badInputs()
        try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n"
            .write(to: dir.appendingPathComponent("trickle.m3u8"), atomically: true, encoding: .utf8)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        player.replaceCurrentItem(with: PlayerItem(url: origin.url("bad/trickle.m3u8", ["trickle": "1"])))
        player.play()
        #expect(await eventually { !origin.requests.isEmpty })
        try await Task.sleep(for: .milliseconds(500))
        // The engine stops with its open pending: the main actor is not held up by the request.
        let started = Date()
        player.replaceCurrentItem(with: nil)
        let seconds = Date().timeIntervalSince(started)
        #expect(seconds < 0.5, "replaceCurrentItem took \(seconds) s")
        #expect(await eventually { origin.bodies.contains { $0.hasSuffix("aborted") } }, "\(origin.bodies)")
    }
}

extension HLSHostileOriginTests {
    /// The `networkTimeout` option given as an `Int` (as Swift infers `2`) counts as seconds, as a `Double` does; it
    /// was silently ignored (10 s used) before.
    @Test func anIntegerNetworkTimeoutIsObeyed() async throws {
        let dir = try HLSFixtures.badInputs()
        try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n"
            .write(to: dir.appendingPathComponent("trickle.m3u8"), atomically: true, encoding: .utf8)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(
            asset: URLAsset(url: origin.url("bad/trickle.m3u8", ["trickle": "1"]), options: [.networkTimeout: 2]))
        let started = Date()
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 40) { item.status == .failed }, "did not fail")
        let seconds = Date().timeIntervalSince(started)
        #expect(seconds > 5.5 && seconds < 9, "failed after \(seconds) s: the 2 s time-out was not used")
    }
}
