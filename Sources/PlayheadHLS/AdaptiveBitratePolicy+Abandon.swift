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

    /// Whether to give up a segment download that will not finish before the buffer runs out, as hls.js does.
    ///
    /// Nothing is decided before `minimumElapsedBeforeAbandon` and `abandonWaitShare` of the segment's duration, or
    /// when the download will finish in time at the rate it is getting, or when it is already on the lowest allowed
    /// rung. Otherwise the answer is the highest lower rung whose whole segment would arrive before the buffer runs
    /// out at `abandonSafetyFraction` of that rate (or, when none would, the lowest rung if fetching it is still
    /// quicker than waiting for the rest of this one).
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
        let lower = allowed.filter { rungs[$0].bitRate < rungs[rung].bitRate }
        if let pick = lower.last(where: { fetchTime($0) < buffer && fetchTime($0) < remainingTime }) {
            return .abandon(switchTo: pick)
        }
        return fetchTime(lowest) < remainingTime ? .abandon(switchTo: lowest) : .keepLoading
    }
}
