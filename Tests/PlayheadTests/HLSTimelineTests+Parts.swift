import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Parts of an HLS stream that lack a kind of media the rest has (a slate with pictures only, spliced in with
/// `EXT-X-DISCONTINUITY`): the other kind goes on at its time.
extension HLSTimelineTests {
    /// 4 s of sound and pictures (500 Hz), a 12 s slate of pictures alone, then 4 s of both (1000 Hz): the
    /// pictures run on through all 20 s, silence fills the slate's 12 s, and the 1000 Hz tone starts with its
    /// pictures, 16 s in. (The sound after the slate followed at once, 12 s ahead of its pictures; then, silence
    /// filling 10 s at most, the slate's pictures were hurried past.)
    @Test func aSlateWithoutSoundKeepsTheSoundAfterItWithItsPictures() async throws {
        let slate = try HLSFixtures.stream("slate-12s-video-only", tone: 0, seconds: 12, videoOnly: true, [])
        let parts = [
            try HLSFixtures.stream("lead-4s", tone: 500, seconds: 4, []), slate,
            try HLSFixtures.stream("slate-after", tone: 1000, seconds: 4, []),
        ]
        let run = try await play(try HLSFixtures.joinedAtDiscontinuities("av-slate-av", parts))
        #expect(abs(run.item.duration.seconds - 20) < 0.1, "\(run.item.duration)")
        expectContinuous(run.frames, dropped: run.dropped, to: 20)
        // 0: the silence between.
        let tones = AudioAnalysis.toneSequence(run.samples)
        #expect(tones == [500, 0, 1000], "tones \(tones)")
        // The silence is the slate's 12 s, right after the first 4 s of sound.
        let gap = AudioAnalysis.longestGapRange(run.samples)
        let start = AudioAnalysis.soundSpan(run.samples)?.lowerBound ?? 0
        #expect(abs(Double(gap?.count ?? 0) / 48_000 - 12) < 0.05, gapMessage(run.samples))
        #expect(abs(Double((gap?.lowerBound ?? 0) - start) / 48_000 - 4) < 0.05, gapMessage(run.samples))
        #expect(
            abs(AudioAnalysis.audibleSeconds(run.samples) - 8) < 0.3, "\(AudioAnalysis.audibleSeconds(run.samples))")
    }

    /// A pre-roll of 2 s of pictures alone, then 8 s of sound and pictures (500 Hz), in a variant whose `CODECS`
    /// name both: the pre-roll's pictures play in time, in silence, then the programme's sound with its pictures.
    /// (The item's tracks came from the pre-roll: the programme had no sound at all, exit 0, no word.)
    @Test func aPreRollWithoutSoundKeepsTheProgrammesSound() async throws {
        let slate = try HLSFixtures.stream("slate-video-only", tone: 0, seconds: 2, videoOnly: true, [])
        let media = try HLSFixtures.joinedAtDiscontinuities(
            "slate-then-av", [slate, try HLSFixtures.stream("disc-a", tone: 500, [])])
        let run = try await play(try HLSFixtures.oneVariant("slate-then-av-master", media))
        #expect(abs(run.item.duration.seconds - 10) < 0.1, "\(run.item.duration)")
        expectContinuous(run.frames, dropped: run.dropped, to: 10)
        let tones = AudioAnalysis.toneSequence(run.samples)
        #expect(tones == [500], "tones \(tones)")
        #expect(
            abs(AudioAnalysis.audibleSeconds(run.samples) - 8) < 0.3, "\(AudioAnalysis.audibleSeconds(run.samples))")
        // The pre-roll's pictures took their 2 s (they were not hurried past to catch up with the sound).
        let first = run.frames.first?.presentedAt ?? 0
        let programme = run.frames.first { $0.time.seconds >= 2 }?.presentedAt ?? 0
        #expect(abs(programme - first - 2) < 0.2, "the programme's first picture came \(programme - first) s in")
    }

    /// A pre-roll of 2 s of sound alone (1000 Hz), then 8 s of sound and pictures (500 Hz): the programme's
    /// pictures play from 2 s on, with its sound, and nothing is shown before. (The item had no video track: no
    /// picture at all; then the programme's first picture was shown at once and held through the pre-roll.)
    @Test func aPreRollWithoutPicturesKeepsTheProgrammesPictures() async throws {
        let jingle = try HLSFixtures.stream("jingle-sound-only", tone: 1000, seconds: 2, audioOnly: true, [])
        let media = try HLSFixtures.joinedAtDiscontinuities(
            "jingle-then-av", [jingle, try HLSFixtures.stream("disc-a", tone: 500, [])])
        let run = try await play(try HLSFixtures.oneVariant("jingle-then-av-master", media), probe: { $0.height })
        #expect(abs(run.item.duration.seconds - 10) < 0.1, "\(run.item.duration)")
        let tones = AudioAnalysis.toneSequence(run.samples)
        #expect(tones == [1000, 500], "tones \(tones)")
        #expect(
            abs(AudioAnalysis.audibleSeconds(run.samples) - 10) < 0.3, "\(AudioAnalysis.audibleSeconds(run.samples))")
        let times = run.frames.map(\.time.seconds)
        #expect(
            abs((times.first ?? 0) - 2) < 0.05 && abs((times.last ?? 0) - 9.96) < 0.1,
            "pictures \(times.first ?? -1) to \(times.last ?? -1)")
        #expect(times.count + run.dropped.count >= 195, "\(times.count) pictures, \(run.dropped.count) dropped")
        #expect(run.frames.allSatisfy { $0.value == 360 }, "\(Set(run.frames.map(\.value)))")
        // The first picture came at its time: the second followed it by a frame, not by the pre-roll's 2 s.
        let shown = run.frames.map(\.presentedAt)
        let second = shown.count > 1 ? shown[1] - shown[0] : .infinity
        #expect(second < 0.2, "the second picture came \(second) s after the first")
    }
}
