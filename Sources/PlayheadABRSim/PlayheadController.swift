import Foundation
import PlayheadHLS

/// The player's own adaptation, driven as `HLSSource` drives it: `PlayheadHLS.BandwidthEstimator` fed one sample
/// per network chunk (with its arrival time, so idle time ages the averages), `AdaptiveBitratePolicy.nextRung`
/// asked at each segment boundary with the buffer ahead of the play head (and, with `lookahead`, the estimator's
/// recent estimate and the segments ahead with sizes the ladder's declared bit rates imply, as a player reads them
/// from a playlist without byte ranges: the plan; the player does not pass them yet, so `ABRPolicy.playhead` turns
/// it off), and `shouldAbandon` asked while a download runs during playback. The same code the player runs, not a
/// copy. A value type owned by one simulation.
public struct PlayheadController: ABRController {
    /// The policy (its ladder is set from the movie on first use).
    public var policy: AdaptiveBitratePolicy
    /// The throughput estimate.
    public var estimator: BandwidthEstimator
    /// The next chunk time not yet fed to the estimator, for the download in flight.
    private var fedUntil: Double?
    /// Whether the policy is told of the segments ahead, so that it plans (the player tells it none yet and runs
    /// the budget rule: `ABRPolicy.playhead` sets this false).
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
            upcoming =
                knowsSegmentSizes
                ? .init(sizes: Array(c.movie.segmentSizes[c.segment..<c.segment + count]))
                : .init(
                    estimatedFrom: policy.rungs, durations: Array(repeating: c.movie.segmentDuration, count: count))
        }
        let pick = policy.nextRung(
            current: c.current, estimate: estimator.estimate, buffer: c.buffer,
            segmentDuration: c.movie.segmentDuration, upcoming: upcoming,
            recentEstimate: estimator.hasMeasurement ? estimator.recentEstimate : nil)
        return ABRDecision(rung: pick ?? 0)
    }

    private mutating func feed(_ t: ABRTransfer) {
        let from = fedUntil.map { max($0, t.start) } ?? t.start
        for chunk in t.chunks(from: from) {
            estimator.addSample(bytes: Int(chunk.bits / 8), duration: chunk.duration, at: chunk.arrival)
        }
        fedUntil = t.now
    }

    /// Feeds the rest of the download's chunks.
    public mutating func didDownload(_ transfer: ABRTransfer, context: ABRContext) {
        feed(transfer)
        fedUntil = nil
    }

    /// `shouldAbandon`, after feeding the chunks received so far (as `HLSSource.abandonWatch`).
    public mutating func abandon(_ t: ABRTransfer, context c: ABRContext) -> Int? {
        feed(t)
        let progress = AdaptiveBitratePolicy.DownloadProgress(
            loadedBytes: Int(t.loaded / 8), expectedBytes: Int(t.size / 8), elapsed: t.elapsed)
        let decision = policy.shouldAbandon(
            progress, rung: t.rung, segmentDuration: c.movie.segmentDuration, buffer: c.buffer,
            estimate: estimator.estimate)
        if case .abandon(let lower) = decision {
            return lower
        }
        return nil
    }
}
