import Foundation
import Playhead
import PlayheadCore
import PlayheadTestSupport
import Testing

/// HLS through Playhead's own client, served by a real nginx: what the origin was asked, what reached the sink.
@MainActor @Suite(.serialized) struct HLSPlaybackTests {
    @Test func playsTheFirstVariantFetchingOnlyWhatItPlays() async throws {
        let master = try HLSFixtures.tsLadder()
        let sink = try TestSink()
        let before = try HLSFixtures.requestCount()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: try HLSFixtures.url(master))
        // Held on the first variant: on this fast origin the player climbs to the top one after a segment
        // (`HLSAdaptiveTests.aFastOriginIsMeasuredFromTheFirstSegment`); here the requests of one variant are counted.
        item.preferredPeakBitRate = 600_000
        let firstAudio = Flag()
        let requestsAtFirstAudio = Locked([String]())
        let segmentsBeforeOpened = Locked<Int?>(nil)
        let loaded = Locked(0)
        let events = player.events()
        Task { @MainActor in
            for await e in events {
                if case .segmentLoaded = e.kind { loaded.withLock { $0 += 1 } }
                if case .opened = e.kind { segmentsBeforeOpened.withLock { $0 = $0 ?? loaded.current } }
                if case .firstAudio = e.kind {
                    // The requests nginx logged up to the moment the engine stamped the event (this task may
                    // see it later, while loading goes on), on the epoch clock nginx logs by.
                    let lag = MonotonicClock.now() - MonotonicClock.processStart - e.timestamp
                    let stamped = Date().timeIntervalSince1970 - lag
                    let logged = (try? HLSFixtures.loggedRequests(since: before)) ?? []
                    requestsAtFirstAudio.withLock { $0 = logged.filter { $0.time <= stamped }.map(\.path) }
                    firstAudio.value = true
                }
            }
        }
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { firstAudio.value })
        #expect(abs(item.duration.seconds - 8) < 0.1, "duration \(item.duration)")
        // Before the first sound: the multivariant playlist, the first variant's playlist, its first segment
        // (FFmpeg may have asked for the second while probing), and no other variant.
        // The stream's tracks were known from one segment: FFmpeg probed no further.
        #expect(segmentsBeforeOpened.current == 1, "\(String(describing: segmentsBeforeOpened.current)) segments")
        let early = requestsAtFirstAudio.current
        #expect(early.first == "/ladder-ts/master.m3u8", "\(early)")
        #expect(early.dropFirst().first == "/ladder-ts/v0/index.m3u8", "\(early)")
        #expect(early.allSatisfy { $0 == "/ladder-ts/master.m3u8" || $0.hasPrefix("/ladder-ts/v0/") }, "\(early)")
        #expect(early.count <= 4, "\(early)")
        #expect(await eventually(timeout: 15) { player.timeControlStatus == .paused }, "did not end")
        let samples = sink.stopRecording()
        #expect(abs(AudioAnalysis.frequency(samples) - 400) < 4, "the 360p variant's 400 Hz tone")
        #expect(abs(AudioAnalysis.audibleSeconds(samples) - 8) < 0.2, "\(AudioAnalysis.audibleSeconds(samples)) s")
        let all = try HLSFixtures.requests(since: before)
        #expect(all.filter { $0.hasSuffix(".ts") }.count == 4, "each segment once: \(all)")
        // One connection carries them all (kept alive and reused).
        let connections = Set(try HLSFixtures.loggedRequests(since: before).map(\.connection))
        #expect(connections.count == 1, "\(connections.count) connections for \(all.count) requests")
        // The access log: one period on the 360p variant, four segments.
        #expect(item.accessLog.count == 1)
        #expect(item.accessLog.first?.indicatedBitrate == 510_000)
        #expect(item.accessLog.first?.numberOfMediaRequests == 4)
        #expect(item.accessLog.first?.resolution == Size(width: 640, height: 360))
        let startup = item.accessLog.first?.startupTime ?? 0
        #expect(startup > 0 && startup < 10, "start-up time \(startup) s")
    }

    /// 6 s streams (three 2 s segments: two boundaries to cross).
    nonisolated static let formats: [(name: String, tone: Int, audioOnly: Bool, options: [String])] = [
        ("fmp4-6s", 450, false, ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4"]),
        ("byterange-6s", 550, false, ["-hls_flags", "single_file"]),
        ("audio-ts-6s", 650, true, ["-hls_segment_filename", "PLACEHOLDER"]),
    ]

    @Test(arguments: 0..<formats.count)
    func playsEachSegmentFormat(_ index: Int) async throws {
        let f = Self.formats[index]
        var options = f.options
        if f.audioOnly {
            // Audio-only MPEG-TS (ffmpeg's HLS muxer writes TS even under an .aac name; real packed audio is
            // `playsPackedAudio` below).
            let dir = try HLSFixtures.root().appendingPathComponent(f.name)
            options = ["-hls_segment_filename", dir.appendingPathComponent("seg%02d.aac").path]
        }
        let path = try HLSFixtures.stream(f.name, tone: f.tone, seconds: 6, audioOnly: f.audioOnly, options)
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: try HLSFixtures.url(path))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(abs(item.duration.seconds - 6) < 0.1, "duration \(item.duration)")
        #expect(await eventually(timeout: 15) { player.timeControlStatus == .paused }, "did not end")
        #expect(item.error == nil, "\(String(describing: item.error))")
        let samples = sink.stopRecording()
        #expect(abs(AudioAnalysis.frequency(samples) - Double(f.tone)) < 4, "\(f.name)")
        #expect(
            abs(AudioAnalysis.audibleSeconds(samples) - 6) < 0.25,
            "\(f.name): \(AudioAnalysis.audibleSeconds(samples)) s")
        #expect(AudioAnalysis.longestGap(samples) < 0.01, "\(f.name): a gap at a segment boundary")
    }

    /// 6 s streams (three 2 s segments: two boundaries to cross).
    nonisolated static let packed: [(name: String, codec: String, format: String, ext: String, tone: Int)] = [
        ("packed-aac-6s", "aac", "adts", "aac", 660), ("packed-mp3-6s", "libmp3lame", "mp3", "mp3", 760),
        ("packed-ac3-6s", "ac3", "ac3", "ac3", 860),
    ]

    /// Raw AAC, MP3 and AC-3 segments, each led by an ID3 time stamp (RFC 8216 3.4), play whole and gapless.
    @Test(arguments: 0..<packed.count)
    func playsPackedAudio(_ index: Int) async throws {
        let f = Self.packed[index]
        let path = try HLSFixtures.packedAudio(
            f.name, codec: f.codec, format: f.format, ext: f.ext, tone: f.tone, seconds: 6)
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: try HLSFixtures.url(path))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(abs(item.duration.seconds - 6) < 0.1, "duration \(item.duration)")
        #expect(await eventually(timeout: 15) { player.timeControlStatus == .paused }, "did not end")
        #expect(item.error == nil, "\(String(describing: item.error))")
        let samples = sink.stopRecording()
        #expect(abs(AudioAnalysis.frequency(samples) - Double(f.tone)) < 4, "\(f.name)")
        #expect(
            abs(AudioAnalysis.audibleSeconds(samples) - 6) < 0.25,
            "\(f.name): \(AudioAnalysis.audibleSeconds(samples)) s")
        #expect(AudioAnalysis.longestGap(samples) < 0.01, "\(f.name): a gap at a segment boundary")
    }

    @Test func aMissingVariantPlaylistIsAClearError() async throws {
        let root = try HLSFixtures.root().appendingPathComponent("broken")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=500000,CODECS=\"mp4a.40.2\"\nnowhere/index.m3u8\n"
            .write(to: root.appendingPathComponent("master.m3u8"), atomically: true, encoding: .utf8)
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: try HLSFixtures.url("broken/master.m3u8"))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { item.status == .failed })
        #expect(
            item.error?.description.hasSuffix("broken/nowhere/index.m3u8: HTTP 404 Not Found") == true,
            "\(String(describing: item.error))")
    }
}

/// How far ahead the client fetches.
@MainActor struct HLSForwardBufferTests {
    @Test func theForwardBufferBoundsWhatIsFetched() async throws {
        let master = try HLSFixtures.tsLadder("ladder-long", seconds: 48)
        let before = try HLSFixtures.requestCount()
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: try HLSFixtures.url(master))
        item.preferredForwardBufferDuration = 4
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { player.currentTime().seconds > 3 })
        let position = player.currentTime().seconds
        let segments = try HLSFixtures.requests(since: before).filter { $0.hasSuffix(".ts") }
        // 2 s segments: what is played, 4 s ahead, the segment being read and one FFmpeg may hold.
        let most = Int((position + 4) / 2) + 2
        #expect(!segments.isEmpty && segments.count <= most, "\(segments.count) segments at \(position) s: \(segments)")
        player.pause()
    }
}
