import Foundation
import PlayheadHLS

/// The player's own adaptation, driven as `HLSSource` drives it: `PlayheadHLS.BandwidthEstimator` fed one sample
/// per network chunk (with its arrival time, so idle time ages the averages), `AdaptiveBitratePolicy.nextRung`
/// asked at each segment boundary with the buffer ahead of the play head (and, with `lookahead`, the estimator's
/// recent estimate and availability and the segments ahead with sizes the ladder's declared bit rates imply, as the
/// player reads them from a playlist without byte ranges, and whether they reach the movie's end: the plan), and `shouldAbandon` asked while a download runs
/// during playback. Each chunk becomes a sample as the player's loader makes it (`TransferMeter`: from the first
/// bit, the request's latency left out). The same code the player runs, not a copy. A value type owned by one
/// simulation.
public struct PlayheadController: ABRController {
    /// The policy (its ladder is set from the movie on first use).
    public var policy: AdaptiveBitratePolicy
    /// The throughput estimate.
    public var estimator: BandwidthEstimator
    /// The download in flight as the player's loader measures it, and the time up to which it has been fed.
    private var meter: TransferMeter?
    private var fedUntil = 0.0
    /// The download in flight's rate over its last second and its last five, as `HLSSource.abandonWatch` measures
    /// them.
    private var recentRate = AdaptiveBitratePolicy.RecentRate()
    private var steadyRate = AdaptiveBitratePolicy.RecentRate(window: 5)
    /// Whether the policy is told of the segments ahead, so that it plans as the player does (false: the budget
    /// rule, which the player ran until 2026-12-02 and runs for low-latency parts).
    public var lookahead = true
    /// Whether what it is told is the movie's exact sizes (as a playlist with byte ranges, or a DASH segment index,
    /// gives them) instead of the sizes the ladder's declared bit rates imply.
    public var knowsSegmentSizes = false

    /// A controller with the player's default configuration, or `policy`'s rule constants and caps.
    public init(
        policy: AdaptiveBitratePolicy = AdaptiveBitratePolicy(rungs: []), estimator: BandwidthEstimator = .init()
    ) {
        self.policy = policy
        self.estimator = estimator
    }

    /// Abandons, as the player.
    public var checksAbandonment: Bool { true }

    private mutating func fit(_ movie: ABRMovie) {
        guard policy.rungs.count != movie.bitratesKbps.count else { return }
        policy.rungs = movie.bitratesKbps.map { AdaptiveBitratePolicy.Rung(peakBitRate: $0 * 1000) }
    }

    /// `nextRung`, as `HLSSource.adapt`.
    public mutating func decide(_ c: ABRContext) -> ABRDecision {
        fit(c.movie)
        let count = min(policy.configuration.lookaheadSegments, c.movie.segmentCount - c.segment)
        var upcoming: AdaptiveBitratePolicy.UpcomingSegments?
        if lookahead, count > 0 {
            let last = c.segment + count == c.movie.segmentCount
            upcoming =
                knowsSegmentSizes
                ? .init(sizes: Array(c.movie.segmentSizes[c.segment..<c.segment + count]), reachesEnd: last)
                : .init(
                    estimatedFrom: policy.rungs, durations: Array(repeating: c.movie.segmentDuration, count: count),
                    reachesEnd: last)
        }
        let pick = policy.nextRung(
            current: c.current, estimate: estimator.estimate, buffer: c.buffer,
            segmentDuration: c.movie.segmentDuration, upcoming: upcoming,
            recentEstimate: estimator.hasMeasurement ? estimator.recentEstimate : nil,
            availability: estimator.availability, history: estimator.history, latency: estimator.latency,
            requestsBeforeFirstSegment: c.playlistsLoaded.map { loaded in
                Dictionary(uniqueKeysWithValues: policy.rungs.indices.filter { !loaded.contains($0) }.map { ($0, 1) })
            } ?? [:])
        return ABRDecision(rung: pick ?? 0)
    }

    /// Feeds the chunks received since the last feed, measured by `TransferMeter` as `SegmentLoader` measures
    /// them (the response is the first bit: the origin answers after the period's latency, then sends the body).
    private mutating func feed(_ t: ABRTransfer) {
        var m = meter ?? TransferMeter(requestedAt: t.start)
        if meter == nil { fedUntil = t.start }
        if t.now >= t.firstBit { m.responded(at: t.firstBit) }
        for chunk in t.chunks(from: fedUntil) {
            let sample = m.chunk(bytes: Int(chunk.bits / 8), at: chunk.arrival)
            estimator.addSample(bytes: sample.bytes, duration: sample.duration, at: sample.arrival)
        }
        meter = m
        fedUntil = t.now
    }

    /// Feeds the rest of the download's chunks.
    public mutating func didDownload(_ transfer: ABRTransfer, context: ABRContext) {
        feed(transfer)
        estimator.finishTransfer()
        // A download given up counts too (all of its time when no answer came), as `HLSSource` counts it.
        let unanswered = transfer.abandoned ? transfer.elapsed : nil
        if let wait = meter?.timeToFirstByte ?? unanswered { estimator.addLatency(wait) }
        meter = nil
        recentRate = .init()
        steadyRate = .init(window: 5)
    }

    /// `shouldAbandon`, after feeding the chunks received so far (as `HLSSource.abandonWatch`).
    public mutating func abandon(_ t: ABRTransfer, context c: ABRContext) -> Int? {
        feed(t)
        let responded = meter?.timeToFirstByte
        recentRate.add(bytes: Int(t.loaded / 8), elapsed: t.elapsed, respondedAfter: responded)
        steadyRate.add(bytes: Int(t.loaded / 8), elapsed: t.elapsed, respondedAfter: responded)
        let progress = AdaptiveBitratePolicy.DownloadProgress(
            loadedBytes: Int(t.loaded / 8), expectedBytes: Int(t.size / 8), elapsed: t.elapsed,
            recentRate: recentRate.bitsPerSecond, steadyRate: steadyRate.bitsPerSecond, timeToFirstByte: responded)
        let decision = policy.shouldAbandon(
            progress, rung: t.rung, segmentDuration: c.movie.segmentDuration, buffer: c.buffer,
            estimate: estimator.estimate, history: estimator.history, latency: estimator.latency)
        if case .abandon(let lower) = decision {
            return lower
        }
        return nil
    }
}
