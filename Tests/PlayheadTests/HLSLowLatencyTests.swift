import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Low-latency HLS: the test origin replays the 360p variant of a long ladder (MPEG-TS, or fMP4 with four 0.5 s
/// fragments per segment) as a live stream with 0.5 s parts and blocking playlist reloads.
@MainActor @Suite(.serialized) struct HLSLowLatencyTests {
    /// What a 12 s low-latency run left behind.
    struct Run {
        var latency: Double
        var samples: [Float]
        var requests: [String]
        var item: PlayerItem
    }

    func play(_ path: String, origin: TestOrigin) async throws -> Run {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: origin.url(path))
        let started = Date()
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(item.duration.isIndefinite)
        try await Task.sleep(for: .seconds(12))
        // The origin's stream began with the first request: its edge is the time since then.
        let edge = Date().timeIntervalSince(started)
        let latency = edge - player.currentTime().seconds
        return Run(latency: latency, samples: sink.stopRecording(), requests: origin.requests, item: item)
    }

    @Test func playsFromPartsWithBlockingReloadsCloseToTheEdge() async throws {
        _ = try HLSFixtures.tsLadder("ladder-long", seconds: 48)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let run = try await play("llhls/ladder-long/v0/index.m3u8", origin: origin)
        #expect(run.item.error == nil, "\(String(describing: run.item.error))")
        // PART-HOLD-BACK (1.5 s) behind the edge, or up to a segment more.
        #expect(run.latency > 1.5 && run.latency < 4, "\(run.latency) s behind the edge (regular HLS: 6 s and more)")
        #expect(abs(AudioAnalysis.frequency(run.samples) - 400) < 4)
        #expect(AudioAnalysis.longestGap(run.samples) < 0.05, "a gap of \(AudioAnalysis.longestGap(run.samples)) s")
        let requests = run.requests
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

    /// A low-latency stream whose sound is a separate rendition: both playlists reload with blocking requests on
    /// their own, part by part, and the rendition's sound plays on close to the edge without a gap. (The origin
    /// cuts MPEG-TS parts at PES starts, as packagers do: a part that ended inside an audio PES lost its tail, see
    /// the notes.)
    @Test
    func aSeparateAudioRenditionReloadsPartByPartBesideTheVariant() async throws {
        _ = try HLSFixtures.renditionLadder("renditions-ll", seconds: 48, audioSegmentSeconds: 2)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let item = PlayerItem(url: origin.url("llhls/renditions-ll/master.m3u8"))
        item.trackSelection = LanguageTrackSelection(audioLanguages: ["en"])
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        let started = Date()
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .readyToPlay }, "\(String(describing: item.error))")
        try await Task.sleep(for: .seconds(12))
        let latency = Date().timeIntervalSince(started) - player.currentTime().seconds
        let samples = sink.stopRecording()
        #expect(item.error == nil, "\(String(describing: item.error))")
        #expect(latency > 1.5 && latency < 4.5, "\(latency) s behind the edge")
        // The English rendition's tone, throughout.
        #expect(abs(AudioAnalysis.frequency(samples) - 440) < 4, "\(AudioAnalysis.frequency(samples)) Hz")
        #expect(AudioAnalysis.longestGap(samples) < 0.05, gapMessage(samples))
        for media in ["v", "a-en"] {
            let blocking = origin.requests.filter {
                $0.contains("/\(media)") && $0.contains("index.m3u8?_HLS_msn=") && $0.contains("_HLS_part=")
            }
            #expect(blocking.count > 12, "\(blocking.count) blocking reloads of \(media) in 12 s of 0.5 s parts")
            let parts = origin.requests.filter {
                $0.contains("/\(media)") && $0.contains("/seg") && $0.contains("bytes=")
            }
            #expect(parts.count > 12, "\(parts.count) part requests of \(media)")
        }
        #expect(!origin.requests.contains { $0.contains("/a-de/") }, "the other rendition was fetched")
    }

    /// The origin answers 503 to the blocking playlist reloads for 0.8 s while playback is 1.5 s behind the edge:
    /// each one that fails is tried again after a backoff (it ended the stream before), each failure is in the
    /// error log, and playback goes on without an error or a gap.
    @Test func aBlockingReloadThatFailsIsTriedAgain() async throws {
        _ = try HLSFixtures.tsLadder("ladder-long", seconds: 48)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: origin.url("llhls/ladder-long/v0/index.m3u8"))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { player.currentTime().seconds > 2 }, "\(String(describing: item.error))")
        try origin.fail(status: 503, forSeconds: 0.8, matching: "_HLS_msn=")
        let down = player.currentTime().seconds
        try await Task.sleep(for: .seconds(5))
        let after = player.currentTime().seconds
        player.close()
        let samples = sink.stopRecording()

        #expect(item.error == nil, "\(String(describing: item.error))")
        #expect(after - down > 4, "played \(after - down) s in the 5 s after the outage began")
        let failed = item.errorLog.filter { $0.errorStatusCode == 503 }
        #expect(failed.contains { $0.uri.contains("_HLS_msn=") }, "\(item.errorLog.map { ($0.uri, $0.errorComment) })")
        #expect(AudioAnalysis.longestGap(samples) < 0.05, gapMessage(samples))
    }

    /// Part 9 (4.5-5 s) is listed with `GAP=YES` and part 14 (7-7.5 s) is lost by the origin (404): the gap is
    /// never asked for, the lost part is skipped after its request, and both keep their time as half a second of
    /// silence each, 2.5 s apart, while the stream plays on close to its edge. (The lost part failed the item; the
    /// gap was asked for.)
    @Test func aGapPartIsNotFetchedAndALostPartIsSkippedKeepingTheirTime() async throws {
        _ = try HLSFixtures.tsLadder("ladder-long", seconds: 48)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        let item = PlayerItem(
            url: origin.url("llhls/ladder-long/v0/index.m3u8", ["gap_parts": "9", "lost_parts": "14"]))
        let started = Date()
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .readyToPlay }, "\(String(describing: item.error))")
        // Until 9 s of the stream have been heard (the lost part's time and a second after it).
        #expect(
            await eventually(timeout: 20) { player.currentTime().seconds > 9 || item.status == .failed },
            "at \(player.currentTime().seconds) s")
        let latency = Date().timeIntervalSince(started) - player.currentTime().seconds
        let samples = sink.stopRecording()
        let requests = origin.requests
        #expect(item.error == nil, "\(String(describing: item.error))")
        #expect(latency < 4.5, "\(latency) s behind the edge")
        #expect(!requests.contains { $0.contains("gap=1") }, "the gap part was asked for: \(requests)")
        #expect(requests.contains { $0.contains("lost=1") }, "the lost part was never asked for: \(requests)")
        #expect(
            item.errorLog.contains { $0.uri.contains("lost=1") && $0.errorStatusCode == 404 },
            "\(item.errorLog.map { ($0.uri, $0.errorStatusCode) })")
        // Two silences of about half a second (TS parts are cut at PES starts, so not exactly), 2.5 s apart.
        let onsets = AudioAnalysis.onsets(samples, minGap: 0.3)
        #expect(onsets.count == 3, "sound starting at \(onsets) s")
        if onsets.count == 3 { #expect(abs(onsets[2] - onsets[1] - 2.5) < 0.2, "sound starting at \(onsets) s") }
        let gaps = silences(samples, atLeast: 0.3)
        #expect(gaps.count == 2 && gaps.allSatisfy { $0 > 0.3 && $0 < 0.8 }, "silences of \(gaps) s")
    }

    /// Parts 14 to 18 (7-9.5 s) are lost by the origin (404): their 2.5 s pass as one silence, without a stall,
    /// the stream playing on at its distance from the edge. (Each lost part's time was known only once the part
    /// after the run came, a second after the buffer ran dry: a stall, then the run's time as silence on top.)
    @Test func aRunOfLostPartsPassesInSilenceWithoutAStall() async throws {
        _ = try HLSFixtures.tsLadder("ladder-long", seconds: 48)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        let item = PlayerItem(url: origin.url("llhls/ladder-long/v0/index.m3u8", ["lost_parts": "14,15,16,17,18"]))
        let started = Date()
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(
            await eventually(timeout: 25) { player.currentTime().seconds > 12 || item.status == .failed },
            "at \(player.currentTime().seconds) s")
        let latency = Date().timeIntervalSince(started) - player.currentTime().seconds
        let samples = sink.stopRecording()
        #expect(item.error == nil, "\(String(describing: item.error))")
        #expect(item.accessLog.map(\.numberOfStalls).reduce(0, +) == 0, "\(item.accessLog.map(\.numberOfStalls))")
        #expect(latency < 4.5, "\(latency) s behind the edge")
        let lost = item.errorLog.filter { $0.uri.contains("lost=1") && $0.errorStatusCode == 404 }
        #expect(lost.count >= 5, "\(item.errorLog.map { ($0.uri, $0.errorStatusCode) })")
        let gaps = silences(samples, atLeast: 0.3)
        #expect(
            gaps.count == 1 && gaps.allSatisfy { $0 > 2.2 && $0 < 2.9 },
            "silences of \(gaps) s, sound from \(AudioAnalysis.onsets(samples, minGap: 0.3)) s")
    }

    @Test func playsFragmentedMP4PartsAfterTheirInitSection() async throws {
        _ = try HLSFixtures.tsLadder("ladder-ll-fmp4", seconds: 48, fmp4: true, fragmentSeconds: 0.5)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let run = try await play("llhls/ladder-ll-fmp4/v0/index.m3u8", origin: origin)
        #expect(run.item.error == nil, "\(String(describing: run.item.error))")
        // PART-HOLD-BACK (1.5 s) behind the edge, or up to a segment more.
        #expect(run.latency > 1.5 && run.latency < 4, "\(run.latency) s behind the edge (regular HLS: 6 s and more)")
        #expect(abs(AudioAnalysis.frequency(run.samples) - 400) < 4)
        // Playing from about 3 s after the start (the first frame waits for a part), sound all along.
        #expect(AudioAnalysis.audibleSeconds(run.samples) > 8, "\(AudioAnalysis.audibleSeconds(run.samples)) s")
        #expect(AudioAnalysis.longestGap(run.samples) < 0.05, "a gap of \(AudioAnalysis.longestGap(run.samples)) s")
        let requests = run.requests
        let inits = requests.filter { $0.contains("init.mp4") }
        let media = requests.filter { $0.contains(".m4s") }
        #expect(inits.count == 1, "the init section was fetched \(inits.count) times")
        if let first = requests.firstIndex(where: { $0.contains(".m4s") }) {
            #expect(requests[..<first].contains { $0.contains("init.mp4") }, "media before the init section")
        }
        let playlists = requests.filter { $0.contains("index.m3u8") }
        let blocking = playlists.filter { $0.contains("_HLS_msn=") && $0.contains("_HLS_part=") }
        #expect(playlists.count - blocking.count == 1, "reloads that did not block: \(playlists)")
        #expect(blocking.count > 15, "\(blocking.count) blocking reloads in 12 s of 0.5 s parts")
        #expect(media.filter { $0.contains("bytes=") }.count > 15, "\(media.count) part requests")
        #expect(Set(media).count == media.count, "bytes fetched twice: \(media)")
    }
}
