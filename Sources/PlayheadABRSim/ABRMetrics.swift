import Foundation

/// The measures of one run, or their means over traces. A value type, safe anywhere.
///
/// - `bitrateKbps`: the mean bit rate of the segments played.
/// - `rebufferRatio`: seconds stalled after start-up divided by the movie's duration.
/// - `rebufferEvents`: times the buffer ran dry while playing.
/// - `switches`: rung changes between consecutive segments; `switchKbps`: their mean size (0 with none).
/// - `startup`: seconds until the first segment arrived.
/// - `qoeLin`: the linear QoE per segment (Yin et al. 2015, as Pensieve): the sum over segments of the bit rate in
///   Mbit/s, minus 4.3 × seconds stalled, minus the sum of |bit rate change| in Mbit/s, divided by the number of
///   segments. The wait for the first segment counts as stalled here, as in Pensieve's simulator (the first
///   segment's download is a stall of an empty buffer), so that no policy, the optimum included, gains by a long
///   start-up; `rebufferRatio` and `rebufferEvents` leave it out (it is `startup`).
public struct ABRMetrics: Sendable, Hashable {
    /// Mean bit rate played, kbit/s.
    public var bitrateKbps = 0.0
    /// Stalled seconds per second of movie.
    public var rebufferRatio = 0.0
    /// Stalls after start-up.
    public var rebufferEvents = 0.0
    /// Rung changes.
    public var switches = 0.0
    /// Mean size of a rung change, kbit/s.
    public var switchKbps = 0.0
    /// Seconds to the first segment.
    public var startup = 0.0
    /// Linear QoE per segment.
    public var qoeLin = 0.0

    /// The penalty per second of stall in the linear QoE (Pensieve's 4.3, the highest bit rate of its ladder).
    public static let rebufferPenalty = 4.3

    /// All zero.
    public init() {}

    /// The measures of `run` of `movie`.
    public init(_ run: ABRRun, movie: ABRMovie) {
        let rates = run.rungs.map { movie.bitratesKbps[$0] }
        let n = Double(max(rates.count, 1))
        let changes = zip(rates, rates.dropFirst()).map { abs($1 - $0) }.filter { $0 > 0 }
        bitrateKbps = rates.reduce(0, +) / n
        rebufferRatio = run.rebufferSeconds / (movie.segmentDuration * n)
        rebufferEvents = Double(run.rebufferEvents)
        switches = Double(changes.count)
        switchKbps = changes.isEmpty ? 0 : changes.reduce(0, +) / Double(changes.count)
        startup = run.startup
        qoeLin = Self.qoe(rates: rates, rebuffer: run.rebufferSeconds + run.startup)
    }

    /// The linear QoE per segment of these bit rates (kbit/s) and stalled seconds.
    public static func qoe(rates: [Double], rebuffer: Double) -> Double {
        let change = zip(rates, rates.dropFirst()).reduce(0) { $0 + abs($1.1 - $1.0) }
        let total = rates.reduce(0, +) / 1000 - rebufferPenalty * rebuffer - change / 1000
        return total / Double(max(rates.count, 1))
    }

    /// The mean of each measure over `all` (zero when empty).
    public static func mean(_ all: [ABRMetrics]) -> ABRMetrics {
        var m = ABRMetrics()
        guard !all.isEmpty else { return m }
        let n = Double(all.count)
        m.bitrateKbps = all.map(\.bitrateKbps).reduce(0, +) / n
        m.rebufferRatio = all.map(\.rebufferRatio).reduce(0, +) / n
        m.rebufferEvents = all.map(\.rebufferEvents).reduce(0, +) / n
        m.switches = all.map(\.switches).reduce(0, +) / n
        m.switchKbps = all.map(\.switchKbps).reduce(0, +) / n
        m.startup = all.map(\.startup).reduce(0, +) / n
        m.qoeLin = all.map(\.qoeLin).reduce(0, +) / n
        return m
    }

    /// The measures as the `--json` object: `bitrate_kbps`, `rebuffer_ratio`, `rebuffer_events`, `switches`,
    /// `switch_kbps`, `startup_s`, `qoe_lin`.
    public var jsonObject: [String: Double] {
        [
            "bitrate_kbps": bitrateKbps, "rebuffer_ratio": rebufferRatio, "rebuffer_events": rebufferEvents,
            "switches": switches, "switch_kbps": switchKbps, "startup_s": startup, "qoe_lin": qoeLin,
        ]
    }
}
