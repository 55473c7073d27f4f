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
        /// Seconds from the request to its response, once it has come; nil while the download waits for it.
        public var timeToFirstByte: Double?
        /// Bits per second over the download's last second or so (`RecentRate`), nil when not measured: the rate
        /// it is getting now, which the average since the request follows only slowly after a collapse.
        public var recentRate: Double?
        /// Bits per second over the download's last five seconds or so (`RecentRate(window: 5)`), nil when not
        /// measured: a fall that has lasted that long is no dip of a mobile link, which reverts within seconds.
        public var steadyRate: Double?

        /// Progress of `loadedBytes` of `expectedBytes` after `elapsed` seconds, at `recentRate` over the last second
        /// and `steadyRate` over the last five; the response came after `timeToFirstByte` seconds (nil: not yet).
        public init(
            loadedBytes: Int, expectedBytes: Int?, elapsed: Double, recentRate: Double? = nil,
            steadyRate: Double? = nil, timeToFirstByte: Double? = nil
        ) {
            self.loadedBytes = loadedBytes
            self.expectedBytes = expectedBytes
            self.elapsed = elapsed
            self.timeToFirstByte = timeToFirstByte
            self.recentRate = recentRate
            self.steadyRate = steadyRate
        }
    }

    /// The rate of a download over its last `window` seconds, from the progress reports seen so far (each: bytes
    /// received in all, seconds since the request). A value type owned by whoever watches one download.
    public struct RecentRate: Sendable, Hashable {
        /// Seconds the rate is measured over (1 s).
        public let window: Double
        private struct Point: Sendable, Hashable {
            var elapsed: Double
            var bytes: Int
        }
        private var points: [Point] = []

        /// An empty measure over `window` seconds.
        public init(window: Double = 1) { self.window = max(window, 0.001) }

        /// Records that `bytes` had arrived in all `elapsed` seconds after the request.
        public mutating func add(bytes: Int, elapsed: Double) {
            guard elapsed.isFinite, bytes >= 0 else { return }
            points.append(Point(elapsed: elapsed, bytes: bytes))
            // Keep one point at or before the window's start, to measure from.
            let start = elapsed - window
            if let keep = points.lastIndex(where: { $0.elapsed <= start }), keep > 0 {
                points.removeFirst(keep)
            }
        }

        /// Records that `bytes` had arrived in all `elapsed` seconds after the request, whose response came after
        /// `timeToFirstByte` seconds (nil: not yet, nothing is recorded): the wait before the response is no
        /// transfer, so the rate is measured from it.
        public mutating func add(bytes: Int, elapsed: Double, respondedAfter timeToFirstByte: Double?) {
            guard let timeToFirstByte, timeToFirstByte.isFinite else { return }
            if points.isEmpty { add(bytes: 0, elapsed: min(timeToFirstByte, elapsed)) }
            add(bytes: bytes, elapsed: elapsed)
        }

        /// Bits per second over the last `window` seconds; nil until the reports span most of a window (four
        /// fifths: reports come when chunks arrive, not on a clock).
        public var bitsPerSecond: Double? {
            guard let first = points.first, let last = points.last, last.elapsed - first.elapsed >= 0.8 * window
            else { return nil }
            return Double(last.bytes - first.bytes) * 8 / (last.elapsed - first.elapsed)
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
    /// The rate the rest will come at is the average since the request, or, while the link's outages outlast the
    /// buffer (`LinkHistory.longestSlowSpell(below:)` the lowest rung, as for the plan's discount), the lower of
    /// that and `DownloadProgress.recentRate`: a link that stays down for a minute is judged by what it gives now,
    /// which the average since the request (kept high by a fast start) follows for many seconds; while its falls
    /// below this download's rung outlast the buffer, the lower of the average and `DownloadProgress.steadyRate`
    /// (five seconds: a fall to a rate the lowest rung still fits, which the average since the request followed for
    /// twenty seconds on sd_fs with `bbb`); elsewhere the average, as 4G links' dips of a second revert and judging by
    /// them threw away segments that would have come in time (2026-12-04, `BENCHMARKS.md`). But a download that gets
    /// less than the lowest rung needs (the lower of `DownloadProgress.recentRate` and the average) is in an outage, and
    /// an outage like those seen before ends as one of them did (`LinkHistory.slowSpellOutlook(below:)` the lowest
    /// rung: each spell of the recent past that lasted longer than this one so far is an outcome, equally likely):
    /// the rest comes at the rate it gets until then and at the link's rate out of outages after, and every choice is
    /// scored by its mean over the outcomes. No replacement comes faster during an outage, so a download an outage of
    /// seconds holds up is finished, not traded for the lowest rung (until 2026-12-04 the rate in the outage was taken
    /// to last; on synthetic links with outages of 2-15 s that gave up a 16 Mbit/s segment at most outages). An outage
    /// longer than any seen is judged by the rate now, as above.
    ///
    /// The time a download spends waiting for its response is not transfer: its rate is measured from the response
    /// (from `latency` after the request while none has come), its judgement waits as long, and a replacement
    /// waits `latency` again before its first byte (until 2026-12-05 a download with no byte after a second's
    /// wait, normal on a link that answers after a second, was given up as stuck). Outside an outage a download
    /// still waiting for its answer is taken to wait as long again as it is overdue (its time past `latency`), then
    /// to come at `estimate`: a stuck request is given up when the buffer cannot wait for that, not at once (until
    /// 2026-12-06 it was taken never to come, and a late answer on a full buffer was given up for a lower rung).
    ///
    /// Nothing is decided before `minimumElapsedBeforeAbandon` and `abandonWaitShare` of the segment's duration (as
    /// hls.js) of transfer, or when the download will finish in time at the rate it is getting, or when it is already on the
    /// lowest allowed rung. Otherwise each choice is scored as the plan scores a segment: the rung's bit rate minus
    /// `stallCost` per second the buffer would run dry before the segment arrives, and `stallEventSeconds` ×
    /// `stallCost` more if it does (the rest of this download at the rate it is getting, a whole segment of a lower
    /// rung at `abandonSafetyFraction` of that rate; the time already spent is gone either way), and, while the link's
    /// outages outlast the buffer, each second the buffer it leaves falls short of the plan's target as the plan
    /// prices it at its end: a replacement that arrives in time but spends the buffer the rest of the outage needs is
    /// not chosen over a lower one (since 2026-12-04: on sd_fs `bbb4k` a 2.5 Mbit/s segment fetched at the start of a
    /// slow minute took 15 s of 20; `BENCHMARKS.md`). The best lower rung
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
    ///   - history: the link's recent history (`BandwidthEstimator.history`); nil: none seen, the average decides.
    ///   - latency: seconds a request waits for its response (`BandwidthEstimator.latency`).
    public func shouldAbandon(
        _ progress: DownloadProgress, rung: Int, segmentDuration: Double, buffer: Double, estimate: Double,
        history: LinkHistory? = nil, latency: Double = 0
    ) -> AbandonDecision {
        let c = configuration
        let allowed = allowedRungs
        let wait = max(c.minimumElapsedBeforeAbandon, segmentDuration * c.abandonWaitShare)
        let expectedWait = latency.isFinite ? max(latency, 0) : 0
        // The transfer's time: from the response, or from when it was expected while it has not come.
        let waited = progress.timeToFirstByte.map { min(max($0, 0), progress.elapsed) } ?? expectedWait
        let transferring = progress.elapsed - waited
        guard rungs.indices.contains(rung), transferring >= wait,
            let lowest = allowed.first, rungs[lowest].bitRate < rungs[rung].bitRate
        else { return .keepLoading }
        let measured = progress.loadedBytes > 0 ? Double(progress.loadedBytes) * 8 / transferring : 0
        let expectedBits =
            progress.expectedBytes.map { Double($0) * 8 } ?? rungs[rung].bitRate * segmentDuration
        let remainingBits = max(expectedBits - Double(progress.loadedBytes) * 8, 0)
        let outagesOutlastBuffer = (history?.longestSlowSpell(below: rungs[lowest].bitRate) ?? 0) > buffer
        let dropsOutlastBuffer = (history?.longestSlowSpell(below: rungs[rung].bitRate) ?? 0) > buffer
        let lately = (outagesOutlastBuffer ? progress.recentRate : dropsOutlastBuffer ? progress.steadyRate : nil)
            .flatMap { $0.isFinite && $0 >= 0 ? $0 : nil }
        let now = progress.loadedBytes > 0 ? min(lately ?? measured, measured) : measured
        // In an outage (the download gets less than the lowest rung needs) like those seen before, each of them says
        // when this one ends (`LinkHistory.slowSpellOutlook`): the rest comes at the rate it gets now until then, and
        // at the link's mean rate out of outages after. Else the rate now lasts. A download that has received nothing
        // counts as in an outage too: a stuck request to the same server would not come faster on a lower rung.
        let stalled = progress.loadedBytes > 0 ? min(progress.recentRate ?? measured, measured) : 0
        let outlook = stalled < rungs[lowest].bitRate ? history?.slowSpellOutlook(below: rungs[lowest].bitRate) : nil
        let outcomes = outlook?.remaining ?? [0]
        let base = now > 0 ? now : estimate
        // A replacement is a new request: it waits for its response before its first byte.
        func arrival(_ bits: Double, within outage: Double, replacing: Bool) -> Double {
            transfer(bits, within: outage, replacing: replacing) + (replacing ? expectedWait : 0)
        }
        // A download still waiting for its answer has waited this much longer than the link's usual wait, and is
        // taken to wait as long again: it may be stuck, or the link may answer later than it did.
        let overdue =
            progress.timeToFirstByte == nil && progress.loadedBytes == 0
            ? max(progress.elapsed - expectedWait, 0) : nil
        func transfer(_ bits: Double, within outage: Double, replacing: Bool) -> Double {
            let share = replacing ? c.abandonSafetyFraction : 1
            guard let outlook else {
                if !replacing, let overdue { return base > 0 ? overdue + bits / base : .infinity }
                let rate = (replacing ? base : now) * share
                return rate > 0 ? bits / rate : .infinity
            }
            let (during, after) = (stalled * share, outlook.fastRate * share)
            if bits <= during * outage { return during > 0 ? bits / during : 0 }
            return after > 0 ? outage + (bits - during * outage) / after : .infinity
        }
        guard outcomes.contains(where: { arrival(remainingBits, within: $0, replacing: false) > buffer }),
            base > 0 || outlook != nil
        else { return .keepLoading }
        let stallCost = max(c.stallCost, 0)
        let shortfall =
            outagesOutlastBuffer
            ? stallCost * shortfallWeight(slowShare: history?.slowShare(below: rungs[lowest].bitRate) ?? 0) : 0
        let target = min(c.targetBuffer, 0.8 * c.bufferToRideOutDrop)
        func score(_ i: Int, arrivingIn time: Double) -> Double {
            let stall = max(time - buffer, 0)
            let after = max(buffer - time, 0) + segmentDuration
            return rungs[i].bitRate - stallCost * (stall + (stall > 0 ? max(c.stallEventSeconds, 0) : 0))
                - shortfall * max(target - after, 0)
        }
        func expected(_ i: Int, bits: Double, replacing: Bool) -> Double {
            outcomes.map { score(i, arrivingIn: arrival(bits, within: $0, replacing: replacing)) }.reduce(0, +)
                / Double(outcomes.count)
        }
        var best = expected(rung, bits: remainingBits, replacing: false)
        var pick: Int?
        for i in allowed where rungs[i].bitRate < rungs[rung].bitRate {
            let value = expected(i, bits: rungs[i].bitRate * segmentDuration, replacing: true)
            if value > best { (best, pick) = (value, i) }
        }
        return pick.map { .abandon(switchTo: $0) } ?? .keepLoading
    }
}
