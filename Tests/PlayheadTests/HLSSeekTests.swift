import Foundation
import Playhead
import PlayheadCore
import PlayheadTestSupport
import Testing

/// Seeking in a VOD stream.
@MainActor struct HLSSeekTests {
    @Test func seekingFetchesTheTargetSegmentFirstAndPlaysFromThere() async throws {
        let master = try HLSFixtures.tsLadder()
        let capture = CaptureVideoOutput()
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: try HLSFixtures.url(master))
        // 1 s ahead (the first segment): the target is past what is buffered, so the seek goes to the source (one
        // within it is carried out in the buffer, fetching nothing: SeekWithinBufferTests).
        item.preferredForwardBufferDuration = 1
        item.add(capture)
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .readyToPlay })
        try await Task.sleep(for: .milliseconds(300))
        let before = try HLSFixtures.requestCount()
        capture.reset()
        let done = await player.seek(
            to: MediaTime(value: 5, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(done)
        // The segments asked for (a variant's playlist may come first: the player may move up as it seeks).
        let after = try HLSFixtures.requests(since: before).filter { !$0.hasSuffix(".m3u8") }
        // Segments are 2 s: 5 s lies in the third, seg02.ts (of the variant the player is on: on this fast origin,
        // the top one by then).
        #expect(
            after.first?.hasPrefix("/ladder-ts/v") == true && after.first?.hasSuffix("/seg02.ts") == true, "\(after)")
        #expect(!after.contains { $0.hasSuffix("/seg00.ts") || $0.hasSuffix("/seg01.ts") }, "\(after)")
        #expect(abs(player.currentTime().seconds - 5) < 0.05, "\(player.currentTime().seconds)")
        #expect(await eventually { !capture.frames.isEmpty })
        #expect(
            abs((capture.frames.first?.time.seconds ?? 0) - 5) < 0.05,
            "first frame at \(capture.frames.first?.time.seconds ?? -1)")
    }
}

extension HLSSeekTests {
    /// Seeks in MPEG-TS and fMP4 streams restart the same input at the target's segment: no new open or probe,
    /// no new decoder, the target's segment (and, for fMP4, its init section) asked for first, and the first
    /// picture after each seek is the target's.
    @Test(arguments: ["ts", "fmp4"])
    func seeksOpenAndProbeNothingAgain(_ format: String) async throws {
        let path =
            format == "ts"
            ? try HLSFixtures.tsLadder()
            : try HLSFixtures.stream(
                "fmp4", tone: 450, ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4"])
        let capture = CaptureVideoOutput()
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: try HLSFixtures.url(path))
        // Read 1 s ahead: each target is before or past what is buffered, so each seek goes to the source.
        item.preferredForwardBufferDuration = 1
        item.add(capture)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(1500))
        let (opens, decoders) = (PlaybackCounters.mediaOpens, PlaybackCounters.decoderCreations)
        let loadsInsideFFmpeg = PlaybackCounters.segmentLoadsInsideFFmpeg
        for target in [5.0, 1.0, 6.5] {
            // Paused, the first picture after the seek is shown at once and no picture from before it follows.
            player.pause()
            try await Task.sleep(for: .milliseconds(100))
            let before = try HLSFixtures.requestCount()
            capture.reset()
            let done = await player.seek(
                to: MediaTime(seconds: target, preferredTimescale: 600), toleranceBefore: .zero, toleranceAfter: .zero)
            #expect(done, "\(format) seek to \(target)")
            let asked = try HLSFixtures.requests(since: before).filter { !$0.hasSuffix(".m3u8") }
            let segment = Int(target / 2)
            let first = asked.first { !$0.hasSuffix("init.mp4") } ?? ""
            #expect(
                first.hasSuffix("\(segment).ts") || first.hasSuffix("\(segment).m4s"), "\(format) \(target): \(asked)")
            #expect(await eventually { !capture.frames.isEmpty })
            let shown = capture.frames.first?.time.seconds ?? -1
            #expect(abs(shown - target) < 0.05, "\(format): first picture at \(shown) after a seek to \(target)")
            player.play()
            try await Task.sleep(for: .milliseconds(500))
        }
        #expect(PlaybackCounters.mediaOpens == opens, "\(format): a seek opened the stream again")
        #expect(PlaybackCounters.decoderCreations == decoders, "\(format): a seek created decoders")
        // Seeks and playback load segments in the source's own loop, never from inside FFmpeg's reads.
        #expect(
            PlaybackCounters.segmentLoadsInsideFFmpeg == loadsInsideFFmpeg,
            "\(format): \(PlaybackCounters.segmentLoadsInsideFFmpeg - loadsInsideFFmpeg) segments loaded by FFmpeg")
        player.close()
    }
}
