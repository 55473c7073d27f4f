import PlayheadCore

/// How many times this process probed a media input (`avformat_find_stream_info`: a full open) and created a
/// decoder, for tests and diagnostics that check playback reuses what it opened (a seek, an output attached, a
/// layout change must not open the media again). Any thread.
public enum FFmpegCounters {
    private static let counts = Locked((probes: 0, decoders: 0))

    /// Inputs opened with probing (a new `MediaInput`; the later parts of a chained source are not probed).
    public static var probes: Int { counts.current.probes }
    /// Decoders created.
    public static var decoders: Int { counts.current.decoders }

    static func probed() { counts.withLock { $0.probes += 1 } }
    static func decoderCreated() { counts.withLock { $0.decoders += 1 } }
}
