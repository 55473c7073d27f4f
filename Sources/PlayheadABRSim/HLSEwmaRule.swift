import Foundation
import PlayheadHLS

/// hls.js's ABR controller (`abr-controller.ts`, defaults of hls.js 1.x): a dual EWMA of per-fragment throughput
/// (`abrEwmaFastVoD` 3 s and `abrEwmaSlowVoD` 9 s half-lives, weighted by load time, the lower of the two read;
/// `abrEwmaDefaultEstimate` 500 kbit/s until measured), and `findBestLevel`: from the top, the first rung whose bit
/// rate is below the estimate times `abrBandWidthUpFactor` 0.7 (above the current rung) or `abrBandWidthFactor`
/// 0.95 (at or below it), and whose fetch at that rate takes less than the buffer (`maxStarvationDelay` 4 s when
/// the buffer is empty). Emergency abandonment as hls.js's `_abandonRulesCheck`: when the rest of a download will
/// not arrive before the buffer runs out, switch to the highest lower rung whose whole segment would, at 0.8 of
/// the measured rate. The averages are `PlayheadHLS.BandwidthEstimator` configured as hls.js (one sample per
/// fragment, no idle weighting). A value type owned by one simulation.
public struct HLSEwmaRule: ABRController {
    /// hls.js's `abrBandWidthFactor` (0.95).
    public var downFactor = 0.95
    /// hls.js's `abrBandWidthUpFactor` (0.7).
    public var upFactor = 0.7
    /// hls.js's `maxStarvationDelay` (4 s).
    public var maxStarvationDelay = 4.0
    /// The dual EWMA.
    public var estimator = BandwidthEstimator(
        configuration: .init(
            fastHalfLife: 3, slowHalfLife: 9, minimumSampleBytes: 16_000, minimumSampleDuration: 0.05,
            defaultEstimate: 500_000, minimumTotalWeight: 0.001, maximumIdleWeight: 0))

    /// The rule with hls.js's defaults.
    public init() {}

    /// Abandons, as hls.js.
    public var checksAbandonment: Bool { true }

    /// `findBestLevel`.
    public mutating func decide(_ c: ABRContext) -> ABRDecision {
        let estimate = estimator.estimate
        let current = c.current ?? 0
        let maxFetch = c.buffer > 0 ? c.buffer : maxStarvationDelay
        for m in c.movie.bitratesKbps.indices.reversed() {
            let rate = (m <= current ? downFactor : upFactor) * estimate
            let bitrate = c.movie.bitratesKbps[m] * 1000
            let fetch = bitrate * c.movie.segmentDuration / rate
            if rate > bitrate, fetch < maxFetch { return ABRDecision(rung: m) }
        }
        return ABRDecision(rung: 0)
    }

    /// One sample per fragment: its bits over its load time (latency included, as hls.js's `stats.loading`).
    public mutating func didDownload(_ transfer: ABRTransfer, context: ABRContext) {
        guard !transfer.abandoned else { return }
        estimator.addSample(bytes: Int(transfer.size / 8), duration: transfer.elapsed)
    }

    /// `_abandonRulesCheck`.
    public mutating func abandon(_ t: ABRTransfer, context c: ABRContext) -> Int? {
        guard t.rung > 0, t.elapsed >= 0.5 else { return nil }
        let measured = t.loaded > 0 ? t.loaded / t.elapsed : estimator.estimate
        guard measured > 0 else { return nil }
        let remaining = (t.size - t.loaded) / measured
        guard remaining > c.buffer else { return nil }
        for m in stride(from: t.rung - 1, through: 0, by: -1) {
            let delay = c.movie.segmentSizes[t.segment][m] / (0.8 * measured)
            if delay < c.buffer || m == 0 { return delay < remaining ? m : nil }
        }
        return nil
    }
}

/// dash.js's `DYNAMIC` strategy (Spiteri et al., MMSys 2018, §5): the throughput rule while the buffer is low,
/// BOLA-E once it has grown. It starts with the throughput rule; it moves to BOLA when the buffer reaches 10 s and
/// BOLA's choice is at least the throughput rule's, and back when the buffer falls below 10 s and BOLA's choice
/// is below the throughput rule's. Both rules see every download; abandonment as dash.js's `AbandonRequestsRule`.
/// A value type owned by one simulation.
public struct DynamicRule: ABRController {
    /// The buffer level at which the rules switch (10 s).
    public var threshold = 10.0
    /// The throughput side.
    public var throughput = ThroughputRule()
    /// The BOLA side.
    public var bola = BolaE()
    /// Whether BOLA is in charge.
    public private(set) var usingBola = false

    /// The strategy with dash.js's defaults.
    public init() {}

    /// Abandons, as dash.js.
    public var checksAbandonment: Bool { true }

    /// The rule in charge decides; both are asked so that BOLA's placeholder stays current.
    public mutating func decide(_ c: ABRContext) -> ABRDecision {
        let t = throughput.decide(c)
        let b = bola.decide(c)
        if usingBola, c.buffer < threshold, b.rung < t.rung {
            usingBola = false
        } else if !usingBola, c.buffer >= threshold, b.rung >= t.rung {
            usingBola = true
        }
        return usingBola ? b : t
    }

    /// Both rules learn from the download.
    public mutating func didDownload(_ transfer: ABRTransfer, context: ABRContext) {
        throughput.didDownload(transfer, context: context)
        bola.didDownload(transfer, context: context)
    }

    /// dash.js's `AbandonRequestsRule`.
    public mutating func abandon(_ transfer: ABRTransfer, context: ABRContext) -> Int? {
        ThroughputRule.dashAbandon(transfer, movie: context.movie, safetyFactor: throughput.safetyFactor)
    }
}
