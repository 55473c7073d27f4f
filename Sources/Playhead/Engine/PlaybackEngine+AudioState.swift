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
    /// The longest forward jump in an audio track's time stamps filled with silence (hls.js fills as long): sound
    /// missing while the pictures go on (a part of an HLS stream with video only, a recording that lost its sound
    /// for a while). A longer jump is taken for a discontinuity in the time stamps, nothing missing: the clock
    /// jumps with them.
    static let longestSilenceFilled = 10.0
    /// The shortest forward jump filled, about two AAC frames: less is taken for rounding (time stamps in
    /// milliseconds) and played through. (With 0.2 s, holes of 64 ms were played at once: the sound ran ahead of
    /// the pictures by up to 0.2 s before a longer one was filled.)
    static let shortestSilenceFilled = 0.04

    /// Places the samples of a frame with time stamp `t` just added to `samples` (after `pendingBefore` samples
    /// per channel of earlier frames) on the media timeline. The first frame sets the time; when it comes after
    /// `start` (where the generation's pictures start, or its exact seek's target), silence fills the time between,
    /// so the pictures before it play in time (the clock started with the sound, and they were hurried past).
    /// Then a time stamp later than where the samples before it end is a hole: silence fills it, so the sound after
    /// it plays at its time and stays with the pictures (the samples went on at once: the sound ran ahead of the
    /// pictures by the gap for the rest of the item). A forward jump longer than `longestSilenceFilled` moves the
    /// clock instead (the pictures in between are late and dropped); one more than 0.2 s back, the stream's clock
    /// is followed and the output's runs on. Audio thread.
    mutating func follow(_ t: Double?, pendingBefore: Int, startingAt start: Double?, format: AudioFormat) {
        let rate = Double(format.sampleRate)
        let pending = Double(pendingBefore) / rate
        guard let next = nextInputTime else {
            nextInputTime = (t ?? 0) - pending
            if let t, let start, fillSilence(t - pending - start, at: pendingBefore, format: format) {
                nextInputTime = start
            }
            return
        }
        guard let t else { return }
        let gap = t - (next + pending)
        if fillSilence(gap, at: pendingBefore, format: format) { return }
        guard abs(gap) > 0.2 else { return }
        nextInputTime = t - pending
        // The output's clock starts again from the stream's at the next write.
        if gap > 0 { nextOutputTime = nil }
    }

    /// Inserts `seconds` of silence at frame `index` of `samples` when that is more than `shortestSilenceFilled`
    /// and at most `longestSilenceFilled`; whether it did.
    private mutating func fillSilence(_ seconds: Double, at index: Int, format: AudioFormat) -> Bool {
        guard seconds > Self.shortestSilenceFilled, seconds <= Self.longestSilenceFilled else { return false }
        let frames = Int((seconds * Double(format.sampleRate)).rounded())
        let silence = repeatElement(Float(0), count: frames * format.channels)
        samples.insert(contentsOf: silence, at: index * format.channels)
        return true
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
