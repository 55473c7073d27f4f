import Foundation

/// RobustMPC (Yin, Jindal, Sekar, Sinopoli, "A Control-Theoretic Approach for Dynamic Adaptive Video Streaming
/// over HTTP", SIGCOMM 2015), as in Pensieve's reference implementation: the throughput of the next 5 segments is
/// predicted as the harmonic mean of the last 5 segment throughputs (bits over the whole request time) divided by
/// 1 + the largest relative prediction error of the last 5 predictions; every rung sequence over that horizon
/// (with the known sizes of those segments) is scored with the linear QoE (bit rate − 4.3 × stall − |change|,
/// Mbit/s) and the first rung of the best one is taken. The lowest rung before any measurement; no abandonment.
/// The search is exhaustive, pruned only by a bound no sequence can beat. A value type owned by one simulation.
public struct RobustMPC: ABRController {
    /// Segments looked ahead (5).
    public var horizon = 5
    /// Throughput samples, newest last (bits per second).
    public private(set) var samples: [Double] = []
    /// Relative errors of past predictions, newest last.
    public private(set) var errors: [Double] = []
    private var lastPrediction: Double?

    /// RobustMPC with the published defaults.
    public init() {}

    /// The robust prediction in bits per second, nil before any sample.
    public var prediction: Double? {
        harmonicMean.map { $0 / (1 + (errors.max() ?? 0)) }
    }

    /// The harmonic mean of the samples kept, nil before any.
    public var harmonicMean: Double? {
        samples.isEmpty ? nil : Double(samples.count) / samples.reduce(0) { $0 + 1 / max($1, 1) }
    }

    /// The first rung of the best sequence.
    public mutating func decide(_ c: ABRContext) -> ABRDecision {
        guard let rate = prediction, let current = c.current else { return ABRDecision(rung: 0) }
        lastPrediction = harmonicMean
        let steps = min(horizon, c.movie.segmentCount - c.segment)
        return ABRDecision(
            rung: Self.plan(
                c.movie, from: c.segment, steps: steps, rate: rate, buffer: c.buffer,
                current: current))
    }

    /// The first rung of the sequence of `steps` rungs from `segment` with the best linear QoE at `rate`.
    static func plan(_ movie: ABRMovie, from segment: Int, steps: Int, rate: Double, buffer: Double, current: Int)
        -> Int
    {
        let rates = movie.bitratesKbps.map { $0 / 1000 }
        let top = rates[rates.count - 1]
        let d = movie.segmentDuration
        var best = -Double.infinity
        var bestFirst = 0
        var first = 0
        func search(_ k: Int, _ buffer: Double, _ last: Int, _ score: Double) {
            if k == steps {
                if score > best { (best, bestFirst) = (score, first) }
                return
            }
            // No continuation can add more than the top bit rate per segment.
            guard score + Double(steps - k) * top > best else { return }
            for m in stride(from: rates.count - 1, through: 0, by: -1) {
                let download = movie.segmentSizes[segment + k][m] / rate
                let stall = max(download - buffer, 0)
                let next = max(buffer - download, 0) + d
                if k == 0 { first = m }
                search(
                    k + 1, next, m,
                    score + rates[m] - ABRMetrics.rebufferPenalty * stall - abs(rates[m] - rates[last]))
            }
        }
        search(0, buffer, current, 0)
        return bestFirst
    }

    /// Records the segment's throughput and the error of the prediction made for it.
    public mutating func didDownload(_ transfer: ABRTransfer, context: ABRContext) {
        guard !transfer.abandoned, transfer.throughput > 0 else { return }
        let actual = transfer.throughput
        if let p = lastPrediction { errors.append(abs(p - actual) / actual) }
        samples.append(actual)
        if samples.count > 5 { samples.removeFirst() }
        if errors.count > 5 { errors.removeFirst() }
    }
}
