import PlayheadAudio
import PlayheadCore
import PlayheadFFmpeg

/// How many times this process opened media (probing a new input) and created a decoder: a seek, an output
/// attached or a layout change must raise neither; and how many times its sound ran dry. For tests, diagnostics and
/// `--log-json`. Any thread.
public enum PlaybackCounters {
    /// Inputs opened and probed so far (files, URLs, HLS streams; a variant switch within a stream is not one).
    public static var mediaOpens: Int { FFmpegCounters.probes }
    /// Audio and video decoders created so far.
    public static var decoderCreations: Int { FFmpegCounters.decoders }
    /// HLS segments (or parts) that FFmpeg's own reads had to load: only while a stream opens and FFmpeg probes
    /// it; afterwards the HLS source loads every segment in its own loop, outside FFmpeg's callbacks.
    public static var segmentLoadsInsideFFmpeg: Int { loadsInsideFFmpeg.current }
    static let loadsInsideFFmpeg = Locked(0)
    /// Times a PulseAudio stream ran dry so far (`AudioCounters.underflows`): a gap in the middle of a recording
    /// with none here was not the player's.
    public static var audioUnderflows: Int { AudioCounters.underflows }
    /// For each of the last 32 underflows, the seconds since the player last wrote sound
    /// (`AudioCounters.secondsSinceWriteAtUnderflows`): whether the writer was held back or had nothing to write.
    public static var secondsSinceWriteAtUnderflows: [Double] { AudioCounters.secondsSinceWriteAtUnderflows }
}
