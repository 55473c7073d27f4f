import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// HLS over an origin that fails now and then (issue 15): one failing segment is tried again and played, each
/// failure in the error log; a segment that cannot be had is skipped as a gap and the rest plays; a variant whose
/// playlist or segments fail gives way to the other.
@MainActor @Suite(.serialized) struct HLSRetryTests {
    /// Plays `url` with an untimed null output (as fast as it decodes) to its end or failure.
    func playFast(_ url: URL, timeout: Double = 1) async throws -> (player: Player, item: PlayerItem) {
        let player = Player()
        player.audioOutputChoice = .null(untimed: true)
        let item = PlayerItem(asset: URLAsset(url: url, options: [.networkTimeout: timeout]))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { player.timeControlStatus == .paused }, "did not end")
        return (player, item)
    }

    nonisolated static let faults: [(name: String, query: String, words: String)] = [
        ("fault-404", "status=404&once=1", "HTTP 404"),
        ("fault-503", "status=503&retry_after=1&once=1", "HTTP 503"),
        ("fault-reset", "reset_after=3000&once=1", "seg02.ts"),
        ("fault-slow-first-byte", "first_byte_delay=3&once=1", "no data for 1 s"),
        ("fault-stall", "stall_after=3000&stall_for=5&once=1", "no data for 1 s"),
    ]

    /// A 404, a 503 with `Retry-After`, a reset connection, a slow first byte and a stall mid-body on the third
    /// segment: it is asked for again, the whole stream plays, and the failure is in the error log.
    @Test(arguments: 0..<faults.count)
    func oneFailingSegmentIsRetriedAndPlayed(_ index: Int) async throws {
        let f = Self.faults[index]
        let path = try FaultFixtures.playlist(f.name, segments: [2], query: f.query)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let started = MonotonicClock.now()
        let (player, item) = try await playFast(origin.url(path))
        #expect(item.error == nil, "\(f.name): \(String(describing: item.error))")
        #expect(abs(player.currentTime().seconds - 6) < 0.2, "\(f.name): ended at \(player.currentTime().seconds) s")
        #expect(origin.requests.filter { $0.contains("/seg02.ts") }.count == 2, "\(f.name): \(origin.requests)")
        let entries = item.errorLog.filter { $0.uri.contains("seg02.ts") == true }
        #expect(entries.count == 1, "\(f.name): \(item.errorLog.map(\.errorComment))")
        #expect(
            entries.first?.errorComment.contains(f.words) == true || entries.first?.uri.contains(f.words) == true,
            "\(f.name): \(item.errorLog.map(\.errorComment))")
        if f.name == "fault-503" {
            // Retry-After: 1 was honoured (the backoff alone would be about 0.5 s).
            #expect(MonotonicClock.now() - started > 1, "retried before Retry-After")
        }
    }

    /// A segment that answers 404 every time: after its retries it is skipped as a gap, the rest plays (5 s of
    /// sound, no hang), and the error log has each try.
    @Test func aSegmentThatCannotBeHadIsSkippedAndTheRestPlays() async throws {
        let path = try FaultFixtures.playlist("fault-gone", segments: [2], query: "status=404")
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(asset: URLAsset(url: origin.url(path), options: [.hlsRetries: 1]))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { player.timeControlStatus == .paused && item.status != .unknown })
        try await Task.sleep(for: .milliseconds(200))
        player.close()
        let samples = sink.stopRecording()
        #expect(item.error == nil, "\(String(describing: item.error))")
        let heard = AudioAnalysis.audibleSeconds(samples)
        #expect(abs(heard - 5) < 0.25, "\(heard) s of sound")
        // With --hls-retries=1: asked twice, both failures logged, the last one as skipped.
        #expect(origin.requests.filter { $0.contains("/seg02.ts") }.count == 2, "\(origin.requests)")
        let comments = item.errorLog.filter { $0.uri.contains("seg02.ts") == true }.map(\.errorComment)
        #expect(comments.count == 2 && comments.last?.hasSuffix("skipped") == true, "\(comments)")
        #expect(origin.requests.filter { $0.contains("/seg05.ts") }.count == 1, "the stream went on")
    }

    /// A variant whose playlist answers 404 is left for the other one, which plays; the 404 is in the error log.
    @Test func aVariantWhosePlaylistIsMissingGivesWayToTheOther() async throws {
        let path = try FaultFixtures.ladder("ladder-missing", first: "missing/index.m3u8", second: "clear/index.m3u8")
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let (player, item) = try await playFast(origin.url(path))
        #expect(item.error == nil, "\(String(describing: item.error))")
        #expect(abs(player.currentTime().seconds - 6) < 0.2, "ended at \(player.currentTime().seconds) s")
        #expect(
            item.errorLog.contains {
                $0.uri.hasSuffix("/keys/missing/index.m3u8") == true && $0.errorStatusCode == 404
            },
            "\(item.errorLog.map { ($0.uri, $0.errorComment) })")
        #expect(origin.requests.filter { $0.contains("/keys/clear/seg") }.count == 6, "\(origin.requests)")
    }

    /// A segment no variant has (404 on both, every time): each copy is tried, then it is skipped once and its
    /// second passes; the rest plays and the item ends at 6 s without an error (taken for a gap that another
    /// variant might have, its copies were asked again until the stream was given up).
    @Test func aSegmentMissingFromEveryVariantIsSkippedOnce() async throws {
        for name in ["fault-lost-a", "fault-lost-b"] {
            try FaultFixtures.playlist(name, segments: [2], query: "status=404")
        }
        let path = try FaultFixtures.ladder("ladder-lost", first: "fault-lost-a.m3u8", second: "fault-lost-b.m3u8")
        let origin = try TestOrigin(serving: try HLSFixtures.root(), logQueries: true)
        let (player, item) = try await playFast(origin.url(path))
        #expect(item.error == nil, "\(String(describing: item.error))")
        #expect(abs(player.currentTime().seconds - 6) < 0.2, "ended at \(player.currentTime().seconds) s")
        let asked = origin.requests.filter { $0.contains("/seg02.ts") }
        #expect(asked.count <= 8, "\(asked)")
        #expect(origin.requests.filter { $0.contains("/seg05.ts") }.count == 1, "\(origin.requests)")
    }

    /// The first segment of the variant playback starts on answers 404: the other variant's copy plays, from the
    /// start, and the stream ends whole with the failover in the error log (until 2026-12-07 the item failed: a
    /// failure before anything played was taken for the stream's, though the other variant had the segment).
    /// When no variant has it, the item fails with one error naming each copy tried.
    @Test func aFirstSegmentMissingFromTheStartVariantIsTakenFromTheOther() async throws {
        try FaultFixtures.playlist("fault-first-404", segments: [0], query: "status=404")
        let path = try FaultFixtures.ladder(
            "ladder-first-404", first: "fault-first-404.m3u8", second: "clear/index.m3u8")
        let origin = try TestOrigin(serving: try HLSFixtures.root(), logQueries: true)
        let (player, item) = try await playFast(origin.url(path))
        let requests = origin.requests.filter { $0.contains("/seg0") }.map { $0.split(separator: " ")[1] }
        #expect(
            requests.first == "/keys/clear/seg00.ts?status=404", "did not start on the failing variant: \(requests)")
        #expect(item.error == nil, "\(String(describing: item.error))")
        #expect(abs(player.currentTime().seconds - 6) < 0.2, "ended at \(player.currentTime().seconds) s")
        #expect(requests.filter { $0 == "/keys/clear/seg00.ts" }.count == 1, "\(requests)")
        #expect(
            item.errorLog.contains {
                $0.uri.hasSuffix("/seg00.ts?status=404") && $0.errorStatusCode == 404
                    && $0.failoverTarget == origin.url("keys/clear/index.m3u8").absoluteString
            }, "\(item.errorLog.map { ($0.uri, $0.errorComment) })")

        try FaultFixtures.playlist("fault-first-410", segments: [0], query: "status=410")
        let none = try FaultFixtures.ladder(
            "ladder-first-gone", first: "fault-first-404.m3u8", second: "fault-first-410.m3u8")
        let failed = PlayerItem(asset: URLAsset(url: origin.url(none), options: [.networkTimeout: 1]))
        player.replaceCurrentItem(with: failed)
        player.play()
        #expect(await eventually(timeout: 20) { failed.status == .failed }, "did not fail")
        let reason = failed.error?.reason ?? ""
        #expect(reason.hasPrefix("1 segment could not be loaded; tried "), "\(reason)")
        #expect(reason.contains("(HTTP 404 ") && reason.contains("(HTTP 410 "), "\(reason)")
    }

    /// A variant whose segments fail from the third on (500 every time): after its retries the other variant's
    /// copy of the same segment plays, and the stream ends whole. The failing variant is the higher one: the player
    /// starts on the lower, measures the origin (this machine: fast) and is on the higher from the second segment
    /// (until 2026-12-04 the failing one was listed first, the lower, and the player stayed on it only because it
    /// did not measure a link that delivers a segment within milliseconds).
    @Test func aFailingVariantGivesWayToTheOtherAtTheSameSegment() async throws {
        try FaultFixtures.playlist("fault-500", segments: [2, 3, 4, 5], query: "status=500")
        let path = try FaultFixtures.ladder("ladder-failing", first: "clear/index.m3u8", second: "fault-500.m3u8")
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let (player, item) = try await playFast(origin.url(path))
        #expect(item.error == nil, "\(String(describing: item.error))")
        #expect(abs(player.currentTime().seconds - 6) < 0.2, "ended at \(player.currentTime().seconds) s")
        let requests = origin.requests.filter { $0.contains("/seg0") }.map { $0.split(separator: " ")[1] }
        // seg00-01 once, seg02 1 + 3 retries on the failing variant, then seg02-05 once each from the other.
        #expect(requests.filter { $0 == "/keys/clear/seg02.ts" }.count == 5, "\(requests)")
        #expect(requests.filter { $0 == "/keys/clear/seg05.ts" }.count == 1, "\(requests)")
        #expect(item.errorLog.filter { $0.errorStatusCode == 500 }.count == 4, "\(item.errorLog.map(\.errorComment))")
    }

    /// The last three segments answer 500 every time, and no retry is allowed: the three that loaded still play
    /// (3 s of sound at the sink; before, the item failed as soon as the third was given up, dropping what was
    /// buffered), then the item fails with one error that lists each segment tried, each failure in the error log.
    @Test func whenEverythingFailsTheBufferedMediaPlaysOutFirst() async throws {
        let path = try FaultFixtures.playlist("fault-end", segments: [3, 4, 5], query: "status=500")
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(asset: URLAsset(url: origin.url(path), options: [.hlsRetries: 0]))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .failed }, "did not fail")
        try await Task.sleep(for: .milliseconds(200))
        player.close()
        let samples = sink.stopRecording()
        let heard = AudioAnalysis.audibleSeconds(samples)
        #expect(abs(heard - 3) < 0.25, "\(heard) s of sound")
        let reason = item.error?.reason ?? ""
        #expect(reason.contains("3 segments in a row could not be loaded"), "\(reason)")
        for n in 3...5 {
            #expect(reason.contains("clear/seg0\(n).ts (HTTP 500 "), "\(reason)")
            #expect(origin.requests.filter { $0.contains("/seg0\(n).ts") }.count == 1, "\(origin.requests)")
            let logged = item.errorLog.filter {
                $0.uri.hasSuffix("/seg0\(n).ts?status=500") && $0.errorComment.hasPrefix("HTTP 500 ")
            }
            #expect(logged.count == 1, "seg0\(n): \(item.errorLog.map { ($0.uri, $0.errorComment) })")
        }
        #expect(item.errorLog.last?.errorComment == reason, "the item's error is the log's last entry")
    }
}
