import Foundation
import PlayheadCore

/// An output that plays nothing but keeps time: in real time on the monotonic clock, or, untimed, as fast as
/// samples arrive. Safe from any thread; `write` blocks (when timed) only on the player's audio thread.
public final class NullAudioOutput: AudioOutput, @unchecked Sendable {
    private struct State {
        var format = AudioFormat()
        var written: Int64 = 0
        var anchorFrame: Int64 = 0
        var anchorTime: Double?
        var paused = false
        var interrupted = false
    }

    private let state = Locked(State())
    private let condition = NSCondition()
    /// Whether frames count as heard as soon as they are written (`--untimed`).
    public let untimed: Bool
    /// How far ahead of the clock writes may run, in seconds.
    public let bufferSeconds: Double
    /// "null".
    public let name = "null"
    /// Ignored: a null output has no server.
    public var eventHandler: (@Sendable (AudioOutputEvent) -> Void)?

    /// A null output, timed on the monotonic clock unless `untimed`.
    public init(untimed: Bool = false, bufferSeconds: Double = 0.1) {
        self.untimed = untimed
        self.bufferSeconds = bufferSeconds
    }

    /// Remembers the format; nothing can fail.
    public func start(format: AudioFormat) throws(PlaybackError) {
        state.withLock { $0.format = format }
    }

    /// Accepts the samples, waiting while more than `bufferSeconds` are ahead of the clock.
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(PlaybackError) -> Int {
        let channels = state.withLock { $0.format.channels }
        let frames = samples.count / channels
        if untimed {
            state.withLock { $0.written += Int64(frames) }
            return frames
        }
        while true {
            // Under the condition's lock, so a pause ending or an interruption between the look and the wait
            // wakes the wait.
            condition.lock()
            let (ahead, interrupted, paused) = state.withLock { s -> (Double, Bool, Bool) in
                if s.anchorTime == nil, !s.paused { s.anchorTime = MonotonicClock.now() }
                return (Double(s.written - Self.played(s)) / Double(s.format.sampleRate), s.interrupted, s.paused)
            }
            if interrupted || ahead < bufferSeconds {
                condition.unlock()
                if interrupted { return 0 }
                break
            }
            // Paused, the clock stands: sleep until `setPaused(false)` or `interruptWrite()`.
            if paused {
                condition.wait()
            } else {
                _ = condition.wait(until: Date(timeIntervalSinceNow: ahead - bufferSeconds + 0.001))
            }
            condition.unlock()
        }
        state.withLock { $0.written += Int64(frames) }
        return frames
    }

    private static func played(_ s: State) -> Int64 {
        guard let t = s.anchorTime else { return s.anchorFrame }
        let elapsed = s.paused ? 0 : MonotonicClock.now() - t
        return min(s.written, s.anchorFrame + Int64(elapsed * Double(s.format.sampleRate)))
    }

    /// Wakes a blocked `write`.
    public func interruptWrite() {
        condition.lock()
        state.withLock { $0.interrupted = true }
        condition.broadcast()
        condition.unlock()
    }

    /// Allows blocking writes again.
    public func resumeWrites() { state.withLock { $0.interrupted = false } }

    /// Stops or restarts the clock.
    public func setPaused(_ paused: Bool) {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        state.withLock { s in
            guard s.paused != paused else { return }
            if paused {
                s.anchorFrame = Self.played(s)
                s.paused = true
                s.anchorTime = nil
            } else {
                s.paused = false
                s.anchorTime = MonotonicClock.now()
            }
        }
    }

    /// Drops unheard frames: the write position returns to the play position.
    public func flush() {
        state.withLock { s in
            let p = untimed ? s.written : Self.played(s)
            s.written = p
            s.anchorFrame = p
            s.anchorTime = s.paused ? nil : MonotonicClock.now()
        }
    }

    /// Waits until the clock reaches the last written frame.
    public func drain() -> Bool {
        while true {
            let (left, interrupted, paused) = state.withLock { s in
                (untimed ? 0 : s.written - Self.played(s), s.interrupted, s.paused)
            }
            if left <= 0 { return true }
            if interrupted || paused { return false }
            Thread.sleep(forTimeInterval: 0.005)
        }
    }

    /// Resets the clock.
    public func stop() { state.withLock { $0 = State(format: $0.format) } }

    /// Frames the clock has passed.
    public var playPosition: Int64 { state.withLock { untimed ? $0.written : Self.played($0) } }
    /// Frames written.
    public var writePosition: Int64 { state.withLock { $0.written } }
}
