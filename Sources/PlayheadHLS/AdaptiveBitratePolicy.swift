import Foundation

/// Chooses the variant of a multivariant playlist to fetch next from the throughput estimate and the buffer level.
///
/// **The rule** (Media3's `AdaptiveTrackSelection` gates with a buffer-scaled throughput budget, as BOLA lowers
/// its choice when the buffer drains):
/// - Only *allowed* rungs are candidates: codec supported here, `BANDWIDTH` at most the peak bit-rate cap, resolution
///   within the maximum resolution (or, when there is none, within the window: the smallest rung covering the
///   window is allowed too). When caps leave nothing, the lowest supported rung is the only candidate.
/// - Start-up (no current rung): the highest rung within `estimate × startupBandwidthFraction × scale(buffer)`.
/// - Budget: `estimate × fraction × scale(buffer)`, where `scale` is 1 from `lowBuffer` up and falls linearly to
///   `emptyBufferScale` at an empty buffer, so a draining buffer lowers the choice before it runs dry.
///   `fraction` is `upBandwidthFraction` when looking above the current rung, `downBandwidthFraction` (larger)
///   when checking whether the current one still fits: the gap between the two keeps it from oscillating.
/// - Up: to the highest rung within the budget, several rungs at once, but only when the buffer holds at least
///   `minimumBufferForUpSwitch` and would still hold `lowBuffer` after fetching one segment of it at the estimate.
/// - Down: to the highest rung within the budget, unless the buffer holds `bufferToRideOutDrop` or more
///   (a short dip is absorbed by the buffer instead); immediately when the current rung is no longer allowed.
///
/// **When the sizes of the next segments are known or estimated** (`upcoming`: a simulator or a playlist with byte
/// ranges knows them, `UpcomingSegments(estimatedFrom:durations:)` estimates them from each variant's bit rate ×
/// each segment's `EXTINF`, as `HLSSource` does outside low-latency parts), the rung after start-up comes
/// instead from a plan over the next `lookaheadSegments` segments (model predictive control as RobustMPC, Yin et
/// al. 2015, with the buffer target of BOLA, Spiteri et al. 2016): every sequence of allowed
/// rungs is played against `downBandwidthFraction` × the recent throughput (`recentEstimate`: the estimator's
/// `recentEstimate`, which follows a rise sooner than the estimate; else the estimate), times the link's
/// `availability` (the share of time it carried data: what it delivers over minutes) while its recent outages
/// outlast the buffer (`LinkHistory.longestSlowSpell(below:)` the lowest rung, longer than the buffer: the next one
/// will empty it, so it is kept fuller; and such a link is taken to be in one of two states that last,
/// `LinkHistory.currentSpell(relativeTo:)`: in an outage, no more than the outage gives, and out of one that outlasted
/// the buffer, at least what it has given since, × the availability: the averages, full of the other state, follow
/// either only slowly; a dip shorter than the buffer is no change of state),
/// and scored as the linear QoE scores a stream: its bit rate,
/// its switches (with the switch back to the rung the throughput sustains that a plan ending elsewhere leaves to
/// the plans after it), `stallCost` for each second it would run under `reserveBuffer` and for each interruption
/// (`stallEventSeconds`, as likely as the buffer is near empty), and, for each second it would end short of `targetBuffer`, what that second may save: the
/// stall cost times how much of the recent time the link ran below the lowest rung (`LinkHistory.slowShare(below:)`,
/// scaled by `riskScale`; see `plan`). Abandonment weighs the stall a download in flight will cost against a lower
/// rung's segment the same way (`shouldAbandon`). Every download the plan and abandonment expect waits the link's
/// latency before its first byte (`BandwidthEstimator.latency`: the throughput samples leave the wait out), so on a
/// link that answers after a second, a two-second segment leaves one second for its bytes (until 2026-12-05 the
/// wait was left out: on such a link the player climbed to a rung the link could not carry, gave the segment up
/// when its first byte had not come within a second, and did so again every few seconds). The plan's model of the buffer is what keeps it from climbing too
/// early: it is not also held until `minimumBufferForUpSwitch`, a margin that costs bit rate for stalls the buffer
/// model already avoids. Its up-switches go no higher than the recent throughput sustains (BOLA-E's BOLA-O) only on a link with
/// outages (`outageAvailability`) that outlast the buffer, where the buffer a full one would spend is what the next
/// outage needs; elsewhere the switch back, costed at the plan's end, does that cap's work (until 2026-12-03 the cap
/// held on every link, and cost bit rate on every trace set; until 2026-12-04 the cap and the availability held on
/// every link with outages, and on outages of seconds under a full buffer kept the plan a rung or two below what the
/// link carried: `BENCHMARKS.md`).
///
/// A value type with no clock and no I/O: safe on any thread.
public struct AdaptiveBitratePolicy: Sendable, Hashable {
    /// One variant as the policy sees it. A value type, safe anywhere.
    public struct Rung: Sendable, Hashable {
        /// `BANDWIDTH`: the peak bit rate in bits per second; the peak bit-rate cap compares against it.
        public var peakBitRate: Double
        /// `AVERAGE-BANDWIDTH` when known, else the peak: what must fit the throughput.
        public var bitRate: Double
        /// `RESOLUTION`, when the variant has video and says so.
        public var resolution: Resolution?
        /// Whether its codecs can be decoded here; unsupported rungs are never chosen.
        public var isSupported: Bool

        /// A rung with these properties; `averageBitRate` defaults to the peak.
        public init(
            peakBitRate: Double, averageBitRate: Double? = nil, resolution: Resolution? = nil, isSupported: Bool = true
        ) {
            self.peakBitRate = peakBitRate
            self.bitRate = averageBitRate ?? peakBitRate
            self.resolution = resolution
            self.isSupported = isSupported
        }

        /// The rung of a playlist variant; a variant with no `BANDWIDTH` counts as 0.
        public init(_ variant: Variant, isSupported: Bool) {
            let peak = Double(variant.stream.bandwidth ?? 0)
            self.init(
                peakBitRate: peak, averageBitRate: variant.stream.averageBandwidth.map(Double.init) ?? peak,
                resolution: variant.stream.resolution, isSupported: isSupported)
        }
    }

    /// Limits set by the application and the display. A value type, safe anywhere.
    public struct Caps: Sendable, Hashable {
        /// `preferredPeakBitRate`: bits per second, 0 for none.
        public var peakBitRate: Double
        /// `preferredMaximumResolution`: `.zero` for none.
        public var maximumResolution: CGSize
        /// The video window's size in pixels, `.zero` when there is none; ignored when `maximumResolution` is set.
        public var windowSize: CGSize

        /// No caps unless given.
        public init(peakBitRate: Double = 0, maximumResolution: CGSize = .zero, windowSize: CGSize = .zero) {
            self.peakBitRate = peakBitRate
            self.maximumResolution = maximumResolution
            self.windowSize = windowSize
        }
    }

    /// The ladder, in the caller's order; indices returned refer to it.
    public var rungs: [Rung]
    /// The caps in force.
    public var caps: Caps
    /// The rule's constants.
    public var configuration: Configuration

    /// A policy over `rungs` with `caps`.
    public init(rungs: [Rung], caps: Caps = Caps(), configuration: Configuration = Configuration()) {
        self.rungs = rungs
        self.caps = caps
        self.configuration = configuration
    }

    /// Indices of the rungs that may be chosen, lowest bit rate first: supported and within the caps, or else the
    /// lowest supported rung alone; empty only when no rung is supported.
    public var allowedRungs: [Int] {
        let supported = rungs.indices.filter { rungs[$0].isSupported }.sorted(by: lowerFirst)
        guard let lowest = supported.first else { return [] }
        var allowed = supported.filter { i in
            caps.peakBitRate <= 0 || rungs[i].peakBitRate <= caps.peakBitRate
        }
        if caps.maximumResolution != .zero {
            allowed = allowed.filter { fits(rungs[$0].resolution, within: caps.maximumResolution) }
        } else if caps.windowSize != .zero {
            // What fits in the window, and the smallest rung beyond it unless one that fits already fills the
            // window in width or height (scaling that one up would blur it).
            let window = caps.windowSize
            let within = allowed.filter { fits(rungs[$0].resolution, within: window) }
            let fills = within.contains { i in
                guard let r = rungs[i].resolution else { return false }
                return Double(r.width) >= Double(window.width) || Double(r.height) >= Double(window.height)
            }
            let covering = fills ? nil : allowed.first { !fits(rungs[$0].resolution, within: window) }
            allowed = within + (covering.map { [$0] } ?? [])
        }
        return allowed.isEmpty ? [lowest] : allowed
    }

    /// The rung to fetch next, or nil when no rung is supported.
    /// - Parameters:
    ///   - current: the rung being played (nil at start-up).
    ///   - estimate: the throughput estimate in bits per second.
    ///   - buffer: seconds of media buffered ahead of the play head.
    ///   - segmentDuration: the length of the next segment (the target duration will do), in seconds.
    ///   - upcoming: the sizes of the segments ahead, known or estimated; nil: the budget rule decides.
    ///   - recentEstimate: the recent throughput (`BandwidthEstimator.recentEstimate` once it has measured), which
    ///     the plan runs against; nil: `estimate`.
    ///   - availability: the share of time the link carries data (`BandwidthEstimator.availability`); the plan
    ///     expects `availability` × the recent throughput while the link's outages outlast the buffer.
    ///   - history: the link's recent history (`BandwidthEstimator.history`): how much of the time it ran below the
    ///     lowest allowed rung sets what the buffer the plan ends with is worth, and how long it stayed there whether
    ///     the outages outlast the buffer, and, when they do, which state the link is in now; nil: none seen
    ///     (`minimumRisk`; outages are taken to outlast any buffer).
    ///   - latency: seconds each request waits for its response (`BandwidthEstimator.latency`): the plan adds it
    ///     to every download it expects, and once more for each of `requestsBeforeFirstSegment`.
    ///   - requestsBeforeFirstSegment: for each rung, the requests a switch to it waits for before its first
    ///     segment's (an HLS player loads a variant's playlist first, and reloads a live one; an fMP4 variant's init
    ///     section); a rung not listed waits for none (a DASH manifest lists every rung).
    public func nextRung(
        current: Int?, estimate: Double, buffer: Double, segmentDuration: Double, upcoming: UpcomingSegments? = nil,
        recentEstimate: Double? = nil, availability: Double = 1, history: LinkHistory? = nil, latency: Double = 0,
        requestsBeforeFirstSegment: [Int: Int] = [:]
    ) -> Int? {
        let allowed = allowedRungs
        guard let lowest = allowed.first else { return nil }
        let c = configuration
        guard let current, allowed.contains(current) else {
            if let current, rungs.indices.contains(current) {
                // The current rung lost its place (caps changed): the best allowed one within the budget.
                return highest(in: allowed, within: estimate * c.downBandwidthFraction * scale(buffer)) ?? lowest
            }
            return highest(in: allowed, within: estimate * c.startupBandwidthFraction * scale(buffer)) ?? lowest
        }
        if c.lookaheadSegments > 0, let upcoming, !upcoming.sizes.isEmpty {
            // Outages the buffer rides out need no discount: the plan's price on a short buffer keeps it.
            let outagesOutlastBuffer = (history?.longestSlowSpell(below: rungs[lowest].bitRate) ?? .infinity) > buffer
            let share = outagesOutlastBuffer && availability.isFinite ? min(max(availability, 0), 1) : 1
            var recent = (recentEstimate.flatMap { $0 > 0 && $0.isFinite ? $0 : nil } ?? estimate) * share
            if outagesOutlastBuffer, let spell = history?.currentSpell(relativeTo: rungs[lowest].bitRate) {
                // A link in one of two states that last: in an outage the plan runs against what it gives; out of
                // one the buffer could not ride out, against at least what the link has given since (the averages
                // still hold the outage).
                if spell.isSlow {
                    recent = min(recent, spell.rate)
                } else if spell.before > buffer {
                    recent = max(recent, spell.rate * share)
                }
            }
            let pick = plan(
                allowed: allowed, current: current, estimate: recent * c.downBandwidthFraction, buffer: buffer,
                segmentDuration: segmentDuration, upcoming: upcoming,
                slowShare: history?.slowShare(below: rungs[lowest].bitRate) ?? 0, latency: latency,
                requestsBeforeFirstSegment: requestsBeforeFirstSegment)
            guard share < c.outageAvailability, rungs[pick].bitRate > rungs[current].bitRate else { return pick }
            // BOLA-O on a link with outages: an up-switch goes no higher than the recent throughput sustains.
            let sustained = highest(in: allowed, within: recent) ?? allowed[0]
            let ceiling = rungs[sustained].bitRate > rungs[current].bitRate ? sustained : current
            return rungs[pick].bitRate <= rungs[ceiling].bitRate ? pick : ceiling
        }
        let here = rungs[current].bitRate
        if here > estimate * c.downBandwidthFraction * scale(buffer) {
            guard buffer < c.bufferToRideOutDrop else { return current }
            let down = highest(in: allowed, within: estimate * c.downBandwidthFraction * scale(buffer)) ?? lowest
            return rungs[down].bitRate < here ? down : current
        }
        guard buffer >= c.minimumBufferForUpSwitch, estimate > 0,
            let up = highest(in: allowed, within: estimate * c.upBandwidthFraction * scale(buffer)),
            rungs[up].bitRate > here
        else { return current }
        let fetchTime = segmentDuration * rungs[up].bitRate / estimate
        return buffer - fetchTime >= c.lowBuffer ? up : current
    }

    /// The budget's scale at `buffer` seconds: 1 from `lowBuffer` up, falling linearly to `emptyBufferScale` at 0.
    func scale(_ buffer: Double) -> Double {
        let c = configuration
        guard c.lowBuffer > 0, buffer < c.lowBuffer else { return 1 }
        let share = max(buffer, 0) / c.lowBuffer
        return c.emptyBufferScale + (1 - c.emptyBufferScale) * share
    }

    /// The allowed rung with the highest bit rate at most `budget`, if any.
    func highest(in allowed: [Int], within budget: Double) -> Int? {
        allowed.last { rungs[$0].bitRate <= budget }
    }

    func lowerFirst(_ a: Int, _ b: Int) -> Bool {
        rungs[a].bitRate != rungs[b].bitRate ? rungs[a].bitRate < rungs[b].bitRate : a < b
    }

    func fits(_ resolution: Resolution?, within size: CGSize) -> Bool {
        guard let resolution else { return true }
        return Double(resolution.width) <= Double(size.width) && Double(resolution.height) <= Double(size.height)
    }
}
