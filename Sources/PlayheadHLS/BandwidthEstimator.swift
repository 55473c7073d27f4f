import Foundation

/// A throughput estimate built from download samples (bytes moved in a duration) with two exponentially weighted
/// moving averages, one quick to follow changes and one slow, read as the lower of the two so that a drop shows
/// at once and a rise only once it lasts.
///
/// The weight of a sample is its duration in seconds, so a half-life is "seconds of transfer"; when callers also
/// say when a sample ended (`at`), the idle time since the previous one counts too, up to `maximumIdleWeight` per
/// gap, so that old samples age with time: an estimate made on a slow link recovers within a few segments once the
/// link is fast, even though fast downloads of small segments add little transfer time. Samples too small to
/// measure (a few kilobytes delivered within a millisecond on a fast link) are pooled until they reach
/// `Configuration.minimumSampleBytes` and `minimumSampleDuration`. Until enough has been measured, `estimate`
/// is the starting estimate: the configured default or a value remembered from an earlier run.
///
/// A value type with no clock of its own (callers pass durations): safe on any thread, and the same code runs in
/// the player and in a simulator.
public struct BandwidthEstimator: Sendable, Hashable {
    /// How the estimator weighs samples. A value type, safe anywhere.
    public struct Configuration: Sendable, Hashable {
        /// Half-life of the fast average, in seconds of transfer (3 s, as hls.js).
        public var fastHalfLife: Double
        /// Half-life of the slow average, in seconds of transfer (9 s, as hls.js).
        public var slowHalfLife: Double
        /// Bytes below which a sample is pooled with the next ones instead of counted alone (16 KB).
        public var minimumSampleBytes: Int
        /// Seconds below which a sample is pooled with the next ones (50 ms).
        public var minimumSampleDuration: Double
        /// The estimate before any measurement, in bits per second (500 kbit/s).
        public var defaultEstimate: Double
        /// Seconds of measured transfer after which the averages replace the starting estimate (0.05 s: the first
        /// counted sample, as hls.js trusts its first measurement and RobustMPC its first segment; a guess kept
        /// longer holds a fast link at the lowest rung for segment after segment, each too quick to add much).
        public var minimumTotalWeight: Double
        /// The most idle seconds between two samples that count toward the weight of the later one (3 s).
        public var maximumIdleWeight: Double
        /// A counted sample slower than this share of the estimate is an outage: the link all but stopped (0.1).
        public var outageFraction: Double = 0.1
        /// Half-life of `availability`'s memory, in seconds of download (120 s: outages of a mobile link come back
        /// over minutes, not over the few seconds the averages remember).
        public var availabilityHalfLife: Double = 120
        /// Half-life of `history`'s memory, in seconds of wall time (120 s, as `availabilityHalfLife`).
        public var historyHalfLife: Double = 120
        /// Half-life of `latency`'s average, in requests (4: a server or path that turns slow shows within a few
        /// segments, one slow answer does not).
        public var latencyHalfLife: Double = 4

        /// The defaults described on each property.
        public init(
            fastHalfLife: Double = 3, slowHalfLife: Double = 9, minimumSampleBytes: Int = 16_000,
            minimumSampleDuration: Double = 0.05, defaultEstimate: Double = 500_000, minimumTotalWeight: Double = 0.05,
            maximumIdleWeight: Double = 3
        ) {
            self.fastHalfLife = fastHalfLife
            self.slowHalfLife = slowHalfLife
            self.minimumSampleBytes = minimumSampleBytes
            self.minimumSampleDuration = minimumSampleDuration
            self.defaultEstimate = defaultEstimate
            self.minimumTotalWeight = minimumTotalWeight
            self.maximumIdleWeight = maximumIdleWeight
        }
    }

    /// An exponentially weighted moving average whose weights are durations, with the start-up bias removed.
    struct Average: Sendable, Hashable {
        let halfLife: Double
        private(set) var raw = 0.0
        private(set) var totalWeight = 0.0

        init(halfLife: Double) { self.halfLife = max(halfLife, 0.001) }

        mutating func add(_ value: Double, weight: Double) {
            let keep = pow(0.5, weight / halfLife)
            raw = keep * raw + (1 - keep) * value
            totalWeight += weight
        }

        /// The average, divided by the share of weight it has seen so that early values are not pulled to zero.
        var value: Double {
            let seen = 1 - pow(0.5, totalWeight / halfLife)
            return seen > 0 ? raw / seen : 0
        }
    }

    /// The configuration in use.
    public let configuration: Configuration
    /// The estimate used until enough has been measured, in bits per second.
    public let startingEstimate: Double
    private var fast: Average
    private var slow: Average
    private var pendingBytes = 0
    private var pendingDuration = 0.0
    private var pendingIdle = 0.0
    private var lastSampleEnd: Double?
    private var countedDuration = 0.0
    /// Whether `finishTransfer` has counted a whole download.
    private var measuredTransfer = false
    /// Seconds of download and seconds of outage among them, both fading with `availabilityHalfLife`.
    private var downloadTime = 0.0
    private var outageTime = 0.0
    private var pendingWallIdle = 0.0
    /// Seconds from request to response of recent downloads (`addLatency`).
    private var latencies: Average
    /// The counted samples and the time between them, over minutes (`LinkHistory.slowShare(below:)`).
    public private(set) var history: LinkHistory
    /// Every byte passed to `addSample`, counted or pooled.
    public private(set) var totalBytes = 0
    /// Every second passed to `addSample`.
    public private(set) var totalDuration = 0.0

    /// A fresh estimator starting from `persistedEstimate` (bits per second, e.g. remembered from the last run)
    /// when it is given and positive, else from `configuration.defaultEstimate`.
    public init(configuration: Configuration = Configuration(), persistedEstimate: Double? = nil) {
        self.configuration = configuration
        if let persistedEstimate, persistedEstimate.isFinite, persistedEstimate > 0 {
            startingEstimate = persistedEstimate
        } else {
            startingEstimate = configuration.defaultEstimate
        }
        fast = Average(halfLife: configuration.fastHalfLife)
        slow = Average(halfLife: configuration.slowHalfLife)
        history = LinkHistory(
            halfLife: configuration.historyHalfLife, spellHalfLife: configuration.fastHalfLife)
        latencies = Average(halfLife: configuration.latencyHalfLife)
    }

    /// Records that a download's response came `seconds` after its request (`TransferMeter.timeToFirstByte`): the
    /// wait every request pays before its first byte, which the samples leave out. Only for requests the server
    /// answers at once (a blocking playlist reload or a low-latency part waits for the media to be made, not for the
    /// link). Negative or non-finite values are ignored.
    public mutating func addLatency(_ seconds: Double) {
        guard seconds.isFinite, seconds >= 0 else { return }
        latencies.add(seconds, weight: 1)
    }

    /// The recent requests' mean wait for their response in seconds, weighted toward the latest
    /// (`Configuration.latencyHalfLife`); 0 before any was recorded. A planner adds it to each download it expects:
    /// on a link that answers after a second, a segment of two seconds leaves one second for its bytes.
    public var latency: Double { latencies.totalWeight > 0 ? latencies.value : 0 }

    /// Records that `bytes` arrived over `duration` seconds (one network chunk, or a whole segment), ending at time
    /// `at` (seconds on any monotonic clock of the caller's; nil when unknown, then idle time is not counted).
    /// Negative, empty or non-finite samples are ignored.
    public mutating func addSample(bytes: Int, duration: Double, at end: Double? = nil) {
        guard bytes > 0, duration.isFinite, duration >= 0 else { return }
        if let end, end.isFinite {
            if let last = lastSampleEnd {
                let gap = max(end - duration - last, 0)
                pendingIdle += min(gap, configuration.maximumIdleWeight)
                pendingWallIdle += gap
            }
            lastSampleEnd = end
        }
        totalBytes += bytes
        totalDuration += duration
        pendingBytes += bytes
        pendingDuration += duration
        guard pendingBytes >= configuration.minimumSampleBytes,
            pendingDuration >= configuration.minimumSampleDuration
        else { return }
        countPending()
    }

    /// Counts what is pooled when a download has ended, however short it took, if it holds at least
    /// `minimumSampleBytes`: a whole download's bytes over its time from the response measure the link (the bursts
    /// within it add up to its time). On a fast link (a LAN, a server on the same machine) a segment arrives within
    /// a few milliseconds, and pooling until `minimumSampleDuration` left the estimate at its start for dozens of
    /// segments, the player on its lowest variants. Callers say so after a download's last sample.
    public mutating func finishTransfer() {
        guard pendingBytes >= configuration.minimumSampleBytes, pendingDuration > 0 else { return }
        countPending()
        measuredTransfer = true
    }

    /// Turns the pooled samples into one counted sample.
    private mutating func countPending() {
        let bitsPerSecond = Double(pendingBytes) * 8 / pendingDuration
        let fade = pow(0.5, pendingDuration / max(configuration.availabilityHalfLife, 0.001))
        let stopped = hasMeasurement && bitsPerSecond < configuration.outageFraction * estimate
        downloadTime = fade * downloadTime + pendingDuration
        outageTime = fade * outageTime + (stopped ? pendingDuration : 0)
        history.add(rate: bitsPerSecond, duration: pendingDuration, idle: pendingWallIdle)
        pendingWallIdle = 0
        let weight = pendingDuration + min(pendingIdle, configuration.maximumIdleWeight)
        countedDuration += pendingDuration
        fast.add(bitsPerSecond, weight: weight)
        slow.add(bitsPerSecond, weight: weight)
        pendingBytes = 0
        pendingDuration = 0
        pendingIdle = 0
    }

    /// Whether enough transfer has been measured for `estimate` to come from the samples (or a whole download,
    /// `finishTransfer`).
    public var hasMeasurement: Bool { countedDuration >= configuration.minimumTotalWeight || measuredTransfer }

    /// The estimated throughput in bits per second: the lower of the fast and slow averages once measured, else the
    /// starting estimate.
    public var estimate: Double {
        hasMeasurement ? min(fast.value, slow.value) : startingEstimate
    }

    /// Halfway between `estimate` and the fast average once measured, else the starting estimate, in bits per
    /// second: what a planner that models the buffer runs against (the lower of the two averages waits for a rise
    /// to last, which the buffer already insures; the fast one alone stalls more on links that come and go: the
    /// half was chosen on Sabre's traces, `BENCHMARKS.md`).
    public var recentEstimate: Double {
        hasMeasurement ? (estimate + fast.value) / 2 : startingEstimate
    }

    /// The share of recent download time in which the link carried data, from 0 to 1 (1 before any outage): a
    /// counted sample slower than `outageFraction` × the estimate is an outage, and the memory fades with
    /// `availabilityHalfLife` seconds of download. The averages measure the link while it carries data and forget
    /// an outage within seconds; over minutes, an on/off link delivers `availability` × that rate, which is what
    /// a planner that fills a buffer to ride out the next outage should expect (`AdaptiveBitratePolicy.plan`).
    public var availability: Double {
        downloadTime > 0 ? min(max(1 - outageTime / downloadTime, 0), 1) : 1
    }

    /// The fast average alone, in bits per second (0 before any counted sample).
    public var fastEstimate: Double { fast.value }
    /// The slow average alone, in bits per second (0 before any counted sample).
    public var slowEstimate: Double { slow.value }
}
