import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Codecs that change part-way through an HLS stream (an ad spliced in, a variant coded otherwise): the decoders
/// follow, and the pictures and the sound go on.
extension HLSTimelineTests {
    /// An ad in MPEG-2 video and mono AC-3 at 44.1 kHz after an `EXT-X-DISCONTINUITY` in 8 s of H.264 and AAC:
    /// its pictures (at their own size) and its sound follow the programme's on time and without a gap. (One
    /// demuxer kept the programme's streams and dropped the ad's: its 4 s had neither sound nor pictures.)
    @Test func anAdInOtherCodecsPlaysAfterADiscontinuity() async throws {
        let run = try await play(try HLSFixtures.codecChangeStream(), probe: { $0.height })
        #expect(abs(run.item.duration.seconds - 12) < 0.1, "\(run.item.duration)")
        expectContinuous(run.frames, dropped: run.dropped, to: 12)
        let programme = Set(run.frames.filter { $0.time.seconds < 7.95 }.map(\.value))
        let ad = Set(run.frames.filter { $0.time.seconds > 8.05 }.map(\.value))
        #expect(programme == [360] && ad == [270], "pictures \(programme) then \(ad)")
        let tones = AudioAnalysis.toneSequence(run.samples)
        #expect(tones == [500, 1000], "tones \(tones)")
        #expect(
            abs(AudioAnalysis.audibleSeconds(run.samples) - 12) < 0.3, "\(AudioAnalysis.audibleSeconds(run.samples))")
        #expect(AudioAnalysis.longestGap(run.samples) < 0.05, gapMessage(run.samples))
    }

    /// 8 s of fMP4 (450 Hz) and 8 s of MPEG-TS (500 Hz), one after the other behind a discontinuity (`tsFirst`:
    /// TS first): the whole 16 s play, pictures and sound, each tone in turn.
    func playTSAndFMP4(tsFirst: Bool) async throws {
        let fmp4 = try HLSFixtures.stream(
            "fmp4", tone: 450, ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4"])
        let ts = try HLSFixtures.stream("disc-a", tone: 500, [])
        let joined = try HLSFixtures.joinedAtDiscontinuities(
            tsFirst ? "ts-fmp4" : "fmp4-ts", tsFirst ? [ts, fmp4] : [fmp4, ts])
        let run = try await play(joined)
        #expect(abs(run.item.duration.seconds - 16) < 0.1, "\(run.item.duration)")
        expectContinuous(run.frames, dropped: run.dropped, to: 16)
        let tones = AudioAnalysis.toneSequence(run.samples)
        #expect(tones == (tsFirst ? [500, 450] : [450, 500]), "tones \(tones)")
        #expect(
            abs(AudioAnalysis.audibleSeconds(run.samples) - 16) < 0.3, "\(AudioAnalysis.audibleSeconds(run.samples))")
    }

    /// MPEG-TS, then fMP4 after a discontinuity (an ad from another packager): every fMP4 segment plays. (The
    /// demuxer went on segment by segment only when the stream began in fMP4: the first fMP4 segment played, then
    /// the item ended.)
    @Test func fMP4AfterTSPlaysEverySegment() async throws {
        try await playTSAndFMP4(tsFirst: true)
    }

    /// fMP4, then MPEG-TS after a discontinuity under the same `EXT-X-MAP` (an ad from another packager spliced in
    /// without one of its own: the fMP4 init section is still in effect, but TS has none): the TS segments play
    /// without it. (FFmpeg was given the fMP4 init before each TS segment: everything from there on was lost,
    /// exit 0, without a word.)
    @Test func tsAfterFMP4UnderItsInitSectionPlays() async throws {
        try await playTSAndFMP4(tsFirst: false)
    }

    /// Packed audio that goes from raw AAC to MP3 to AC-3 at discontinuities (one demuxer read the MP3 bytes as
    /// AAC and the item failed, "invalid data"): each tone in turn, whole.
    @Test func packedAudioChangesFormatAtEachDiscontinuity() async throws {
        let paths = try HLSPlaybackTests.packed.map { f in
            try HLSFixtures.packedAudio(f.name, codec: f.codec, format: f.format, ext: f.ext, tone: f.tone, seconds: 6)
        }
        let run = try await play(try HLSFixtures.joinedAtDiscontinuities("packed-change", paths))
        let tones = AudioAnalysis.toneSequence(run.samples)
        #expect(tones == HLSPlaybackTests.packed.map(\.tone), "tones \(tones)")
        #expect(
            abs(AudioAnalysis.audibleSeconds(run.samples) - 18) < 0.4, "\(AudioAnalysis.audibleSeconds(run.samples))")
        #expect(AudioAnalysis.longestGap(run.samples) < 0.05, gapMessage(run.samples))
    }

    /// A TS ladder whose lowest rung has AAC sound and the others MP3 (`mp4a.40.34`): the switch up keeps the sound
    /// (one demuxer dropped the MP3 stream: silence from the switch on), the tone changes and time runs on.
    @Test func aSwitchToAVariantInAnotherAudioCodecKeepsTheSound() async throws {
        let master = try HLSFixtures.tsLadder(
            "ladder-codecs", seconds: 20, segmentQuery: "rate=500000", upperAudio: ("libmp3lame", "mp4a.40.34"))
        let run = try await playLadder(master).run
        expectSwitchedUp(run, in: 20)
        // An MP3 decoder started inside a stream has no bit reservoir for its first frames: FFmpeg's own tool,
        // decoding one of these segments alone, starts with 54 ms of silence. Nothing longer than that.
        #expect(AudioAnalysis.longestGap(run.samples) < 0.07, gapMessage(run.samples))
    }
}
