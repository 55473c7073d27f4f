import Foundation

extension AdaptiveBitratePolicy {
    /// How far a segment download has got. A value type, safe anywhere.
    public struct DownloadProgress: Sendable, Hashable {
        /// Bytes received so far.
        public var loadedBytes: Int
        /// The segment's size when known (`Content-Length`, a byte range), else nil: the rung's bit rate times the
        /// segment's duration stands in.
        public var expectedBytes: Int?
        /// Seconds since the request was sent.
        public var elapsed: Double

        /// Progress of `loadedBytes` of `expectedBytes` after `elapsed` seconds.
        public init(loadedBytes: Int, expectedBytes: Int?, elapsed: Double) {
            self.loadedBytes = loadedBytes
            self.expectedBytes = expectedBytes
            self.elapsed = elapsed
        }
    }

    /// What to do with a download in flight. A value type, safe anywhere.
    public enum AbandonDecision: Sendable, Hashable {
        /// Let it finish.
        case keepLoading
        /// Cancel it and fetch the same segment from this (lower) rung.
        case abandon(switchTo: Int)
    }

    /// Whether to give up a segment download that will not finish before the buffer runs out, for a lower rung.
    ///
    /// Nothing is decided before `minimumElapsedBeforeAbandon` and `abandonWaitShare` of the segment's duration (as
    /// hls.js), or when the download will finish in time at the rate it is getting, or when it is already on the
    /// lowest allowed rung. Otherwise each choice is scored as the plan scores a segment: the rung's bit rate minus
    /// `stallCost` per second the buffer would run dry before the segment arrives, and `stallEventSeconds` ×
    /// `stallCost` more if it does (the rest of this download at the rate it is getting, a whole segment of a lower
    /// rung at `abandonSafetyFraction` of that rate; the time already spent is gone either way). The best lower rung
    /// is returned when it scores above finishing: a download nearly done, or one whose stall is short on a ladder
    /// where the lower rungs lose much, is finished. (Until 2026-12-03 the rule was hls.js's: the highest rung that
    /// would arrive in time, whatever finishing would cost; on a high ladder it threw away segments worth far more
    /// than their short stall.)
    ///
    /// Call it only while playing: before the first frame there is no buffer to protect.
    /// - Parameters:
    ///   - progress: the download's progress.
    ///   - rung: the rung it fetches.
    ///   - segmentDuration: the segment's duration in seconds.
    ///   - buffer: seconds buffered ahead of the play head.
    ///   - estimate: the throughput estimate in bits per second, used while no byte has arrived.
    public func shouldAbandon(
        _ progress: DownloadProgress, rung: Int, segmentDuration: Double, buffer: Double, estimate: Double
    ) -> AbandonDecision {
        let c = configuration
        let allowed = allowedRungs
        let wait = max(c.minimumElapsedBeforeAbandon, segmentDuration * c.abandonWaitShare)
        guard rungs.indices.contains(rung), progress.elapsed >= wait,
            let lowest = allowed.first, rungs[lowest].bitRate < rungs[rung].bitRate
        else { return .keepLoading }
        let measured = progress.loadedBytes > 0 ? Double(progress.loadedBytes) * 8 / progress.elapsed : 0
        let expectedBits =
            progress.expectedBytes.map { Double($0) * 8 } ?? rungs[rung].bitRate * segmentDuration
        let remainingBits = max(expectedBits - Double(progress.loadedBytes) * 8, 0)
        let remainingTime = measured > 0 ? remainingBits / measured : .infinity
        guard remainingTime > buffer else { return .keepLoading }
        let rate = (measured > 0 ? measured : estimate) * c.abandonSafetyFraction
        guard rate > 0 else { return .keepLoading }
        func fetchTime(_ i: Int) -> Double { rungs[i].bitRate * segmentDuration / rate }
        let stallCost = max(c.stallCost, 0)
        func score(_ i: Int, arrivingIn time: Double) -> Double {
            let stall = max(time - buffer, 0)
            return rungs[i].bitRate - stallCost * (stall + (stall > 0 ? max(c.stallEventSeconds, 0) : 0))
        }
        var best = score(rung, arrivingIn: remainingTime)
        var pick: Int?
        for i in allowed where rungs[i].bitRate < rungs[rung].bitRate {
            let value = score(i, arrivingIn: fetchTime(i))
            if value > best { (best, pick) = (value, i) }
        }
        return pick.map { .abandon(switchTo: $0) } ?? .keepLoading
    }
}
