import PlayheadCore
import PlayheadFFmpeg

/// A video output that records what was presented and when, for tests and diagnostics. Safe from any thread.
public final class CaptureVideoOutput: VideoOutput, Sendable {
    /// One presented frame.
    public struct Capture: Sendable {
        /// The frame's presentation time.
        public var time: MediaTime
        /// The monotonic time at which it was presented.
        public var presentedAt: Double
        /// The value `probe` returned for the frame.
        public var value: Int
    }

    private let captures = Locked([Capture]())
    private let flushes = Locked(0)
    private let probe: @Sendable (VideoFrame) -> Int
    /// The most frames kept; older captures are dropped first.
    public let limit: Int

    /// Records each frame's time and `probe(frame)` (for example a decoded frame number read from its pixels).
    public init(limit: Int = 100_000, probe: @escaping @Sendable (VideoFrame) -> Int = { _ in 0 }) {
        self.limit = limit
        self.probe = probe
    }

    /// Records the frame.
    public func present(_ frame: VideoFrame) {
        let c = Capture(time: frame.time, presentedAt: MonotonicClock.now(), value: probe(frame))
        captures.withLock {
            $0.append(c)
            if $0.count > limit { $0.removeFirst($0.count - limit) }
        }
    }

    /// Counts the flush.
    public func flush() { flushes.withLock { $0 += 1 } }

    /// Everything captured so far.
    public var frames: [Capture] { captures.current }
    /// Forgets the captures.
    public func reset() { captures.withLock { $0.removeAll() } }
}
