import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Every bad HLS input ends in one clear error naming the URL at fault, in bounded time and memory.
@MainActor @Suite(.serialized) struct HLSBadInputTests {
    /// Plays `url` until it fails (with `retries` HLS retries when given); returns the item.
    func failedItem(_ url: URL, timeout: Double = 2, retries: Int? = nil) async throws -> PlayerItem {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        var options: [URLAsset.OptionKey: any Sendable] = [.networkTimeout: timeout]
        if let retries { options[.hlsRetries] = retries }
        let item = PlayerItem(asset: URLAsset(url: url, options: options))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 40) { item.status == .failed }, "did not fail: \(url)")
        return item
    }

    @Test(arguments: HLSFixtures.BadInput.allCases)
    func eachBadInputIsAClearError(_ input: HLSFixtures.BadInput) async throws {
        try HLSFixtures.badInputs()
        let before = try HLSFixtures.requestCount()
        let item = try await failedItem(try HLSFixtures.url("bad/" + input.rawValue))
        let message = item.error?.description ?? ""
        #expect(message.hasPrefix(try HLSFixtures.url(input.culprit).absoluteString), "\(message)")
        #expect(!message.contains("\n"), "\(message)")
        let expected: String
        switch input {
        case .noPlayableVariant: expected = "no playable variant (codecs zzz1.1, zzz2.1"
        case .noSegments: expected = "the media playlist has no segments"
        case .htmlSegment: expected = "an HTML page, not a media segment"
        case .missingVariant: expected = "HTTP 404 Not Found"
        // The multivariant playlist is named (the first variant tried was, as if it alone had failed), and each
        // variant's failure.
        case .missingVariants:
            expected = "no variant could be loaded (2 tried: "
            for path in ["bad/nowhere/index.m3u8", "bad/nowhere2/index.m3u8"] {
                #expect(message.contains("\(try HLSFixtures.url(path)): HTTP 404 Not Found"), "\(message)")
            }
        case .hugePlaylist: expected = "larger than 16 MiB; refused"  // also on the paced origin below
        // FFmpeg, handed the text, said "cannot allocate memory".
        case .playlistAsInitSection: expected = "a playlist, not a media segment"
        }
        #expect(message.contains(expected), "\(message)")
        #expect(item.errorLog.last?.errorComment == item.error?.reason)
        if input == .missingVariant || input == .missingVariants {
            #expect(item.errorLog.last?.errorStatusCode == 404)
        }
        #expect(try HLSFixtures.requests(since: before).count <= 3)
    }

    @Test func aHugePlaylistIsRefusedWithoutBeingReadWhole() async throws {
        try HLSFixtures.badInputs()
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        // Paced at 20 MB/s, so a client that read the whole 100 MB would take 5 s and be seen doing it.
        let url = origin.url("bad/huge.m3u8", ["rate": "20000000"])
        let item = try await failedItem(url)
        let message = item.error?.description ?? ""
        #expect(message.hasPrefix(url.absoluteString) && message.contains("larger than 16 MiB"), "\(message)")
        #expect(await eventually { !origin.bodies.isEmpty })
        let body = origin.bodies.first ?? ""
        let sent = Int(body.split(separator: " ").dropFirst(2).first ?? "") ?? .max
        #expect(body.hasSuffix("aborted") && sent < 40_000_000, "\(body)")
    }

    /// Every segment of a stream answers 302 to another host that serves it: the redirects are followed, the
    /// stream plays whole from the other host, and nothing fails.
    @Test func segmentsRedirectedToAnotherHostPlay() async throws {
        try KeyFixtures.make("keys-4s", seconds: 4)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let other = try TestOrigin(serving: try HLSFixtures.root())
        let dir = try HLSFixtures.root().appendingPathComponent("keys-4s")
        let clear = try String(contentsOf: dir.appendingPathComponent("clear/index.m3u8"), encoding: .utf8)
        let base = other.url("").absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        let redirected = clear.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.hasSuffix(".ts") ? "clear/\(line)?redirect=to:\(base)" : String(line)
        }.joined(separator: "\n")
        try redirected.write(to: dir.appendingPathComponent("redirected.m3u8"), atomically: true, encoding: .utf8)
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: origin.url("keys-4s/redirected.m3u8"))
        let ended = endedFlag(player)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { ended.value }, "\(String(describing: item.error))")
        player.close()
        let samples = sink.stopRecording()
        #expect(item.error == nil && item.errorLog.isEmpty, "\(item.errorLog.map(\.errorComment))")
        #expect(abs(AudioAnalysis.soundSeconds(samples) - 4) < 0.3, "\(AudioAnalysis.soundSeconds(samples)) s")
        let segments = clear.split(separator: "\n").filter { $0.hasSuffix(".ts") }.count
        #expect(other.requests.filter { $0.contains("/keys-4s/clear/seg") }.count == segments, "\(other.requests)")
    }

    /// A playlist reached through a redirect to another host and folder (a short link, a CDN): its relative URIs
    /// name what is beside it there, for a media playlist's segments and a master's variants (they were resolved
    /// against the address asked for: 404, and the item failed).
    @Test func relativeURIsFollowARedirectedPlaylist() async throws {
        try KeyFixtures.make("keys-4s", seconds: 4)
        _ = try HLSFixtures.tsLadder()
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let other = try TestOrigin(serving: try HLSFixtures.root())
        let base = other.url("").absoluteString.trimmingCharacters(in: CharacterSet(charactersIn: "/"))
        // Neither path is a file on the origin: only its redirect answers them.
        for (path, folder) in [("index.m3u8", "keys-4s/clear"), ("master.m3u8", "ladder-ts")] {
            let sink = try TestSink()
            let player = Player.onSink(sink)
            let asked = origin.requests.count
            let item = PlayerItem(url: origin.url(path, ["redirect": "to:\(base)/\(folder)"]))
            player.replaceCurrentItem(with: item)
            player.play()
            #expect(
                await eventually(timeout: 15) { player.currentTime().seconds > 1 || item.status == .failed },
                "\(folder): never played")
            player.close()
            _ = sink.stopRecording()
            #expect(
                item.error == nil && item.errorLog.isEmpty,
                "\(folder): \(String(describing: item.error)) \(item.errorLog.map(\.errorComment))")
            #expect(origin.requests.dropFirst(asked).allSatisfy { $0.contains(path) }, "\(origin.requests)")
            #expect(other.requests.contains { $0.contains("/\(folder)/") && $0.contains(".ts") }, "\(other.requests)")
        }
    }

    /// A stream at an IPv6 address literal, asked for or redirected to, is asked for (FoundationNetworking's client
    /// refused such hosts: "not supported by this system's HTTP client"). Nothing listens there (the origin is on
    /// 127.0.0.1 only, and the machine may have no IPv6 at all), so it fails as a host that refuses does: the
    /// connection's words, after the retry.
    @Test func anIPv6AddressHostIsAskedFor() async throws {
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let direct = URL(string: "http://[::1]:\(origin.url("").port ?? 80)/keys-4s/clear/index.m3u8")!
        let redirected = origin.url("index.m3u8", ["redirect": "to:http://[::1]:9"])
        for url in [direct, redirected] {
            let item = try await failedItem(url, retries: 1)
            let message = item.error?.description ?? ""
            let reasons = ["connection refused", "cannot assign requested address", "network is unreachable"]
            #expect(
                message.hasPrefix(url.absoluteString + ": ") && reasons.contains { message.hasSuffix($0) },
                "\(message)")
        }
        // The redirect was asked for again by the retry: the failure was the connection's, which may go away.
        #expect(origin.requests.count == 2, "\(origin.requests)")
    }

    @Test func aRedirectLoopIsAClearError() async throws {
        try HLSFixtures.badInputs()
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let url = origin.url("bad/no-segments.m3u8", ["redirect": "loop"])
        let item = try await failedItem(url)
        let message = item.error?.description ?? ""
        #expect(message.hasPrefix(url.absoluteString) && message.contains("redirect loop"), "\(message)")
        let count = origin.requests.count
        #expect(count > 5 && count < 20, "\(count) requests")
    }

    @Test func aSegmentThatNeverFinishesIsTriedTwiceThenAnError() async throws {
        let (playlist, segment) = try HLSFixtures.endlessSegment()
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        // One retry (`hlsRetries`), as this test counts tries.
        let item = try await failedItem(origin.url(playlist), timeout: 2, retries: 1)
        let message = item.error?.description ?? ""
        #expect(message.contains("/\(segment)?") && message.contains("no data for 2 s"), "\(message)")
        let tries = origin.requests.filter { $0.contains("/\(segment)") }
        #expect(tries.count == 2, "\(origin.requests)")
        // The first time-out is in the error log as recovered, the second ended playback.
        #expect(item.errorLog.count == 2, "\(item.errorLog)")
        #expect(item.errorLog.first?.uri.contains(segment) == true)
    }

    @Test func aSegmentThatFailsOnceIsFetchedAgainAndPlaybackGoesOn() async throws {
        _ = try HLSFixtures.tsLadder()
        let dir = try HLSFixtures.badInputs()
        // The second segment answers 500 the first time, the third drops the connection mid-body the first time.
        try """
        #EXTM3U
        #EXT-X-TARGETDURATION:2
        #EXTINF:2,
        ../ladder-ts/v0/seg00.ts
        #EXTINF:2,
        ../ladder-ts/v0/seg01.ts?once=1&status=500
        #EXTINF:2,
        ../ladder-ts/v0/seg02.ts?once=1&reset_after=20000
        #EXTINF:2,
        ../ladder-ts/v0/seg03.ts
        #EXT-X-ENDLIST

        """.write(to: dir.appendingPathComponent("flaky.m3u8"), atomically: true, encoding: .utf8)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: origin.url("bad/flaky.m3u8"))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(await eventually(timeout: 20) { player.timeControlStatus == .paused }, "did not end")
        #expect(item.error == nil, "\(String(describing: item.error))")
        let samples = sink.stopRecording()
        #expect(abs(AudioAnalysis.audibleSeconds(samples) - 8) < 0.25, "\(AudioAnalysis.audibleSeconds(samples)) s")
        #expect(AudioAnalysis.longestGap(samples) < 0.01)
        // Both failures are in the error log, with the 500's status; each segment was asked for twice.
        let log = item.errorLog
        #expect(log.count == 2, "\(log)")
        #expect(log.first?.errorStatusCode == 500 && log.first?.uri.contains("seg01.ts") == true, "\(log)")
        #expect(log.last?.uri.contains("seg02.ts") == true, "\(log)")
        #expect(origin.requests.filter { $0.contains("seg01.ts") }.count == 2, "\(origin.requests)")
        #expect(origin.requests.filter { $0.contains("seg02.ts") }.count == 2, "\(origin.requests)")
    }
}
