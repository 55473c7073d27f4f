import Foundation

extension AdaptiveBitratePolicy {
    /// The rule's constants (see the type's description). A value type, safe anywhere.
    public struct Configuration: Sendable, Hashable {
        /// Share of the estimate a start-up choice may use (0.7).
        public var startupBandwidthFraction: Double = 0.7
        /// Share of the estimate a higher rung may use (0.7).
        public var upBandwidthFraction: Double = 0.7
        /// Share of the estimate the current rung may use before switching down (0.9).
        public var downBandwidthFraction: Double = 0.9
        /// Seconds of buffer below which the budget shrinks (10 s).
        public var lowBuffer: Double = 10
        /// The budget's scale at an empty buffer (0.5).
        public var emptyBufferScale: Double = 0.5
        /// Seconds of buffer needed before switching up (10 s, as Media3).
        public var minimumBufferForUpSwitch: Double = 10
        /// Seconds of buffer from which a lower estimate does not switch down (25 s, as Media3).
        public var bufferToRideOutDrop: Double = 25
        /// Seconds a download must have run before `shouldAbandon` judges it (0.5 s), and at least this share of
        /// the segment's duration (0.5, as hls.js: a rate measured over less misreads a short gap as a collapse).
        public var minimumElapsedBeforeAbandon: Double = 0.5
        /// See `minimumElapsedBeforeAbandon` (0.5).
        public var abandonWaitShare: Double = 0.5
        /// Share of the measured rate a replacement download is assumed to get (0.8).
        public var abandonSafetyFraction: Double = 0.8
        /// Segments the plan looks ahead (5, as RobustMPC); 0 turns planning off.
        public var lookaheadSegments: Int = 5
        /// Seconds of buffer below which the plan counts a second as stalled (2 s: a margin for the estimate's
        /// error; it was 4 s until 2026-12-03, when a second below it cost a top-rung second).
        public var reserveBuffer: Double = 2
        /// What a stalled second costs, in bits per second of bit rate for a segment (4.3 Mbit/s: the linear QoE's
        /// weight, Pensieve's and MPC's, by which `playhead-abr-sim` judges policies). Until 2026-12-03 it was the
        /// top rung's bit rate, which on a high ladder (35 Mbit/s) valued a stall eight times above the metric.
        public var stallCost: Double = 4_300_000
        /// Stalled seconds that an interruption costs besides its length (3): viewers mind a stall's occurrence, not
        /// only its seconds, so a short stall is not bought for a higher rung (the metric counts only the seconds).
        /// The plan counts it in full for a segment due when the buffer is empty, and in part for one due under
        /// `reserveBuffer` (as the buffer that remains is to the reserve; until 2026-12-04 in full there too).
        public var stallEventSeconds: Double = 3
        /// Seconds of buffer the plan aims to end with (20 s), at most 80 % of `bufferToRideOutDrop` (which the
        /// player fits to the most the stream can buffer).
        public var targetBuffer: Double = 20
        /// How the link's slow share weighs each second the plan ends short of `targetBuffer` (4): that second costs
        /// `stallCost` × `riskScale` × the share of recent wall time the link ran below the lowest rung, at least
        /// `minimumRisk` and at most 1 (a second of buffer is worth the stall it may prevent, up to a stalled
        /// second). On a link that never fell below the lowest rung the plan spends more of the buffer on bit rate;
        /// on one that often does (a mobile link with outages, a slow minute each cycle), it keeps the buffer full.
        public var riskScale: Double = 4
        /// The least weight of a second short of `targetBuffer`, in stalled seconds (0.05): a link not yet seen to
        /// fall may still fall. This, `riskScale`, `stallEventSeconds` and the 2 s reserve were chosen on the
        /// tuning half of Sabre's traces, against the simulator's checks of what a viewer sees (`BENCHMARKS.md`).
        public var minimumRisk: Double = 0.05
        /// The link's availability below which it counts as a link with outages (0.9: down a tenth of its recent
        /// download time): while its outages outlast the buffer, the plan's up-switches go no higher than the
        /// recent throughput sustains (BOLA-E's BOLA-O), so that the buffer the next outage needs is not spent on a
        /// rung the link cannot carry.
        public var outageAvailability: Double = 0.9

        /// The defaults described on each property.
        public init() {}
    }
}
