import Foundation

/// Throughput measurements of whole segment downloads, newest last. A value type, safe anywhere.
public struct ThroughputHistory: Sendable, Hashable {
    /// Transfer throughputs in bits per second (latency excluded), newest last.
    public private(set) var throughputs: [Double] = []
    /// Request latencies in seconds, newest last.
    public private(set) var latencies: [Double] = []
    /// Whole-request throughputs in bits per second (segment bits / seconds from request to last bit).
    public private(set) var requestThroughputs: [Double] = []
    /// How many samples are kept.
    public let capacity: Int

    /// A history keeping the last `capacity` samples.
    public init(capacity: Int) { self.capacity = max(capacity, 1) }

    /// Records a finished (not abandoned) download.
    public mutating func add(_ t: ABRTransfer) {
        guard !t.abandoned, t.now > t.start else { return }
        throughputs.append(t.transferThroughput > 0 ? t.transferThroughput : t.throughput)
        latencies.append(t.firstBit - t.start)
        requestThroughputs.append(t.throughput)
        if throughputs.count > capacity {
            throughputs.removeFirst()
            latencies.removeFirst()
            requestThroughputs.removeFirst()
        }
    }

    /// The arithmetic mean of the transfer throughputs kept, nil with none.
    public var mean: Double? { throughputs.isEmpty ? nil : throughputs.reduce(0, +) / Double(throughputs.count) }
    /// The mean latency kept (0 with none).
    public var meanLatency: Double { latencies.isEmpty ? 0 : latencies.reduce(0, +) / Double(latencies.count) }
}

/// dash.js's `ThroughputRule` (v2.x, the "throughput" strategy that Sabre reproduces): the mean transfer
/// throughput of the last 4 segments (dash.js's sliding window for VOD) times the bandwidth safety factor 0.9,
/// reduced by the share of a segment's duration the mean latency takes (`getQualityForBitrate`), picks the
/// highest rung within it; the lowest before any measurement. With dash.js's `AbandonRequestsRule`: after a
/// 0.5 s grace time, a download whose projected total time exceeds 1.8 × the segment duration is abandoned for the
/// rung the measured throughput supports. A value type owned by one simulation.
public struct ThroughputRule: ABRController {
    /// dash.js's `bandwidthSafetyFactor` (0.9).
    public var safetyFactor = 0.9
    /// The samples averaged (4, dash.js's VOD sliding window).
    public var history = ThroughputHistory(capacity: 4)

    /// The rule with dash.js's defaults.
    public init() {}

    /// Abandons, as dash.js's `AbandonRequestsRule`.
    public var checksAbandonment: Bool { true }

    /// The rung the current estimate supports, or nil before any measurement.
    public func throughputRung(_ movie: ABRMovie) -> Int? {
        guard let mean = history.mean else { return nil }
        return Self.rung(movie, throughput: mean * safetyFactor, latency: history.meanLatency)
    }

    /// The highest rung within `throughput` once `latency` has taken its share of a segment's duration.
    static func rung(_ movie: ABRMovie, throughput: Double, latency: Double) -> Int {
        let d = movie.segmentDuration
        guard latency < d else { return 0 }
        return movie.highestRung(within: throughput * (1 - latency / d))
    }

    /// The throughput choice.
    public mutating func decide(_ context: ABRContext) -> ABRDecision {
        ABRDecision(rung: throughputRung(context.movie) ?? 0)
    }

    /// Records the throughput.
    public mutating func didDownload(_ transfer: ABRTransfer, context: ABRContext) { history.add(transfer) }

    /// dash.js's `AbandonRequestsRule`.
    public mutating func abandon(_ transfer: ABRTransfer, context: ABRContext) -> Int? {
        Self.dashAbandon(transfer, movie: context.movie, safetyFactor: safetyFactor)
    }

    /// dash.js's `AbandonRequestsRule`: grace time 0.5 s, abandon multiplier 1.8; the replacement is the rung the
    /// measured throughput supports, when lower.
    static func dashAbandon(_ t: ABRTransfer, movie: ABRMovie, safetyFactor: Double) -> Int? {
        guard t.elapsed >= 0.5, t.rung > 0 else { return nil }
        let measured = t.throughput
        guard measured > 0 else {
            return t.elapsed > 1.8 * movie.segmentDuration ? 0 : nil
        }
        let projected = t.size / measured
        guard projected > 1.8 * movie.segmentDuration else { return nil }
        let lower = movie.highestRung(within: measured * safetyFactor)
        return lower < t.rung ? lower : nil
    }
}
