import Foundation
import PlayheadAudio
import PlayheadCore
import PlayheadFFmpeg

/// What the audio pipeline keeps between turns; the turns are in `PlaybackEngine+Audio.swift`.
extension PlaybackEngine {
    /// Per-generation state of the audio thread.
    struct AudioPipeline {
        var generation = -1
        var resampler: Resampler
        var tempo: TempoFilter?
        /// Media time of the next sample leaving the resampler.
        var nextInputTime: Double?
        /// Media time of the next frame written to the output.
        var nextOutputTime: Double?
        var wroteSinceSeek = false
        /// This generation's exact seek target: samples before it are skipped.
        var dropBefore: Double?
        var samples: [Float] = []
        var stretched: [Float] = []
    }

    /// What the audio pipeline of this engine's period keeps between its turns on the renderer's thread: the
    /// decoder (made on the demux thread when the input opened), the per-generation state, and what was reported.
    /// Used only in the period's turns.
    final class AudioWork: @unchecked Sendable {
        /// The track decoded and its decoder (another after `switchAudio`).
        var decoder: Decoder
        var track: MediaTrack
        var pipeline: AudioPipeline
        var firstAudioPosted = false
        var decodedAny = false

        init(decoder: Decoder, track: MediaTrack, format: AudioFormat) {
            self.decoder = decoder
            self.track = track
            pipeline = AudioPipeline(
                resampler: Resampler(outputRate: format.sampleRate, outputChannels: format.channels))
            pipeline.samples.reserveCapacity(16_384)
        }
    }
}

extension PlaybackEngine.AudioPipeline {
    /// The longest forward jump in an audio track's time stamps filled with silence in a file (hls.js fills as
    /// long): sound missing while the pictures go on (a recording that lost its sound for a while). A longer jump
    /// is taken for a discontinuity in the time stamps, nothing missing: the clock jumps with them.
    static let longestSilenceFilled = 10.0
    /// The longest filled where the source places every sample itself (`MediaSource.placesSamples`: HLS, whose
    /// playlist does): a hole there is sound missing (a slate or an ad with pictures alone, often 15-30 s: one of
    /// 12 s was hurried past, its pictures never shown).
    static let longestPlacedSilenceFilled = 600.0
    /// The shortest forward jump filled when pictures play, about two AAC frames: less is taken for rounding (time
    /// stamps in milliseconds) and played through. (With 0.2 s, holes of 64 ms were played at once: the sound ran
    /// ahead of the pictures by up to 0.2 s before a longer one was filled.)
    static let shortestSilenceFilled = 0.04
    /// The shortest filled when only sound plays: nothing to keep in step with, and segments of packed audio are
    /// placed by time stamps only as exact as their frames (a hole of 48 ms between two MP3 segments was filled).
    static let shortestSilenceFilledInSound = 0.2

    /// Places the samples of a frame with time stamp `t` just added to `samples` (after `pendingBefore` samples
    /// per channel of earlier frames) on the media timeline, and returns the seconds of silence that belong between
    /// the two (written by `PlaybackEngine.fillHole`). The first frame sets the time; when it comes after `start`
    /// (where the generation's pictures start, or its exact seek's target), silence fills the time between, so the
    /// pictures before it play in time (the clock started with the sound, and they were hurried past). Then a time
    /// stamp later than where the samples before it end is a hole: silence fills it, so the sound after it plays
    /// at its time and stays with the pictures (the samples went on at once: the sound ran ahead of the pictures
    /// by the gap for the rest of the item); `holes` says how long a hole may be. A forward jump longer moves the
    /// clock instead (the pictures in between are late and dropped); one more than 0.2 s back, the stream's clock
    /// is followed and the output's runs on. Audio thread.
    mutating func follow(
        _ t: Double?, pendingBefore: Int, startingAt start: Double?, holes: ClosedRange<Double>, format: AudioFormat
    ) -> Double {
        let pending = Double(pendingBefore) / Double(format.sampleRate)
        let fills = { (gap: Double) in gap > holes.lowerBound && gap <= holes.upperBound }
        guard let next = nextInputTime else {
            let hole = t.flatMap { t in start.map { t - pending - $0 } }.flatMap { fills($0) ? $0 : nil } ?? 0
            nextInputTime = (t ?? 0) - pending - hole
            return hole
        }
        guard let t else { return 0 }
        let gap = t - (next + pending)
        if fills(gap) { return gap }
        guard abs(gap) > 0.2 else { return 0 }
        nextInputTime = t - pending
        // The output's clock starts again from the stream's at the next write.
        if gap > 0 { nextOutputTime = nil }
        return 0
    }
}

extension PlaybackEngine {
    /// Writes `seconds` of silence after the first `kept` samples (per channel) of `p.samples`, before the rest (a
    /// hole `AudioPipeline.follow` found), a tenth of a second at a time, as long as the generation lasts.
    func fillHole(_ seconds: Double, after kept: Int, _ p: inout AudioPipeline, output: any AudioOutput) {
        let ch = config.format.channels
        let frame = Array(p.samples[(kept * ch)...])
        p.samples.removeSubrange((kept * ch)...)
        var left = Int((seconds * Double(config.format.sampleRate)).rounded())
        while left > 0, !isStopping, control.withLock({ $0.generation }) == p.generation {
            let n = min(left, config.format.sampleRate / 10)
            p.samples.append(contentsOf: repeatElement(0, count: n * ch))
            _ = deliver(&p, output: output, final: false)
            left -= n
        }
        p.samples.append(contentsOf: frame)
    }
}

/// The track an engine's audio switches to in place, and its decoder (made on the demux thread): carried by the
/// audio queue to the audio thread, which owns it from then on.
final class AudioSwitch: @unchecked Sendable {
    let decoder: Decoder
    let track: MediaTrack

    init(decoder: Decoder, track: MediaTrack) {
        self.decoder = decoder
        self.track = track
    }
}
