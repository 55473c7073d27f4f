import PlayheadCore

/// How many times a PulseAudio stream of this process ran dry (the server had nothing more to play: the listener
/// heard silence until the writer caught up), for tests and diagnostics that tell a gap the player caused from a gap
/// in a recording. One also comes at the end of most streams, before their drain. Any thread.
public enum AudioCounters {
    private static let count = Locked(0)
    private static let log = Locked(WriteLog())

    private struct WriteLog {
        var lastWrite: ContinuousClock.Instant?
        var sinceWrite: [Double] = []
    }

    /// Underflows reported by the server so far, over all streams of this process.
    public static var underflows: Int { count.current }

    /// For each of the last 32 underflows, oldest first: the seconds since a stream of this process last wrote
    /// sound. A few milliseconds: the writer kept writing and had nothing to give (its decoder starved) or the
    /// server took more than it held at once (the machine stood still, then caught up); the output's buffer
    /// latency or more: the writer itself was held back (or the stream ended: its last underflow).
    public static var secondsSinceWriteAtUnderflows: [Double] { log.withLock { $0.sinceWrite } }

    /// A stream wrote sound now. On the writing thread.
    static func wrote() { log.withLock { $0.lastWrite = .now } }

    static func underflowed() {
        count.withLock { $0 += 1 }
        log.withLock { log in
            guard let last = log.lastWrite else { return }
            let since = ContinuousClock.now - last
            log.sinceWrite.append(Double(since.components.seconds) + Double(since.components.attoseconds) * 1e-18)
            if log.sinceWrite.count > 32 { log.sinceWrite.removeFirst(log.sinceWrite.count - 32) }
        }
    }
}
