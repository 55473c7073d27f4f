import PlayheadCore

/// How many times a PulseAudio stream of this process ran dry (the server had nothing more to play: the listener
/// heard silence until the writer caught up), for tests and diagnostics that tell a gap the player caused from a gap
/// in a recording. One also comes at the end of most streams, before their drain. Any thread.
public enum AudioCounters {
    private static let count = Locked(0)

    /// Underflows reported by the server so far, over all streams of this process.
    public static var underflows: Int { count.current }

    static func underflowed() { count.withLock { $0 += 1 } }
}
