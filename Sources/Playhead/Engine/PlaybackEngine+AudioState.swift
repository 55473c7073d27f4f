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
