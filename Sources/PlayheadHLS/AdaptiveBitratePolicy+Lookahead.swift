import Foundation

extension AdaptiveBitratePolicy {
    /// The sizes of the segments ahead, when the caller knows them: `sizes[k][rung]` is the size in bits of the
    /// `k`-th segment from the next one on `rung` (the policy's rung indices). A value type, safe anywhere.
    public struct UpcomingSegments: Sendable, Hashable {
        /// Bits per segment ahead and rung.
        public var sizes: [[Double]]
        /// Whether the last of `sizes` is the stream's last segment (a VOD or ended playlist): nothing follows it,
        /// so a plan that reaches it keeps no buffer for after it and costs no switch back.
        public var reachesEnd: Bool

        /// Sizes of the segments ahead, nearest first; `reachesEnd` when the last is the stream's last.
        public init(sizes: [[Double]], reachesEnd: Bool = false) {
            self.sizes = sizes
            self.reachesEnd = reachesEnd
        }

        /// Sizes estimated from the ladder, as a player knows them from a playlist without byte ranges: each rung's
        /// `bitRate` (`AVERAGE-BANDWIDTH`, else `BANDWIDTH`) × each segment's duration (`EXTINF`), nearest first;
        /// `reachesEnd` when the last is the stream's last.
        public init(estimatedFrom rungs: [Rung], durations: [Double], reachesEnd: Bool = false) {
            sizes = durations.map { d in rungs.map { $0.bitRate * max(d, 0) } }
            self.reachesEnd = reachesEnd
        }
    }

    /// The rung that starts the best plan over the next `lookaheadSegments` segments (model predictive control):
    /// every sequence of allowed rungs is played against a constant throughput of `estimate`, each download
    /// waiting `latency` seconds before its first byte (and once more for each request a switch to its rung makes
    /// first, `requestsBeforeFirstSegment`: its playlist, its init section; at whichever step the switch comes),
    /// and scored as the
    /// linear QoE scores a stream: the bit rate it brings, minus `stallCost` per second the buffer would stand below
    /// `reserveBuffer` before a segment arrives and, for each segment that takes it there, `stallEventSeconds` ×
    /// `stallCost` times how far below (an interruption: none at the reserve, all of it at an empty buffer), minus the size of each change, minus what the buffer it ends with lacks (each second
    /// short of `targetBuffer` costs `stallCost` × `riskScale` × `slowShare`, between `minimumRisk` and 1 stalled
    /// second: what a second of buffer may save on a link that runs below the lowest rung that share of the time),
    /// minus the change from its last rung to the highest one `estimate` sustains with the latency paid per
    /// segment (the switch that the plans after
    /// it will make: a plan that ends below it pays for the climb back, one that ends above it for its way down);
    /// a plan that reaches the stream's end (`UpcomingSegments.reachesEnd`) pays neither of these last two, as
    /// nothing follows it. The first rung of the best sequence is returned; of sequences that score the same, the one
    /// that leaves the most buffer. Scores are in units of the top allowed rung. Sizes are
    /// `upcoming`'s when given, else bit rate × duration. The reserve is at most 40 % of `lowBuffer` and the target
    /// at most 80 % of `bufferToRideOutDrop`, which the player fits to its reach. The search is exhaustive, pruned
    /// by a bound no sequence can beat.
    func plan(
        allowed: [Int], current: Int, estimate: Double, buffer: Double, segmentDuration: Double,
        upcoming: UpcomingSegments?, slowShare: Double = 0, latency: Double = 0,
        requestsBeforeFirstSegment: [Int: Int] = [:]
    ) -> Int {
        let c = configuration
        let top = rungs[allowed[allowed.count - 1]].bitRate
        guard estimate > 0, top > 0 else { return allowed[0] }
        let steps = max(min(c.lookaheadSegments, upcoming.map { max($0.sizes.count, 1) } ?? c.lookaheadSegments), 1)
        let rates = allowed.map { rungs[$0].bitRate / top }
        let currentRate = rungs[current].bitRate / top
        func size(_ k: Int, _ i: Int) -> Double {
            if let sizes = upcoming?.sizes, k < sizes.count, sizes[k].indices.contains(allowed[i]) {
                return sizes[k][allowed[i]]
            }
            return rungs[allowed[i]].bitRate * segmentDuration
        }
        let wait = latency.isFinite ? max(latency, 0) : 0
        // Where the plans after this one will go back to: the highest rung the throughput sustains, a segment's
        // bytes and its request's wait within its duration.
        let carried = segmentDuration > 0 ? estimate * max(1 - wait / segmentDuration, 0) : estimate
        let sustained = rates[allowed.lastIndex { rungs[$0].bitRate <= carried } ?? 0]
        var best = -Double.infinity
        var bestFirst = 0
        var bestBuffer = -Double.infinity
        let tie = 1e-9
        var first = 0
        // A player that can buffer little (live, a short forward buffer) has its thresholds fitted down: so do these.
        let target = min(c.targetBuffer, 0.8 * c.bufferToRideOutDrop)
        let reserve = min(c.reserveBuffer, 0.4 * c.lowBuffer)
        // The metric's costs in units of the top rung.
        let stall = max(c.stallCost, 0) / top
        let event = stall * max(c.stallEventSeconds, 0)
        let shortfall = stall * shortfallWeight(slowShare: slowShare)
        let endsStream = upcoming.map { $0.reachesEnd && steps >= $0.sizes.count } ?? false
        // An interruption is as likely as the buffer is near empty: none at the reserve, certain at 0 (a step
        // would make a hundredth of a second decide between plans, and the player's timing differ from a model's).
        func eventCost(_ short: Double) -> Double {
            guard short > 0 else { return 0 }
            return reserve > 0 ? event * min(short / reserve, 1) : event
        }
        func search(_ k: Int, _ buffer: Double, _ lastIndex: Int, _ score: Double) {
            let last = rates.indices.contains(lastIndex) ? rates[lastIndex] : currentRate
            if k == steps {
                let final = endsStream ? score : score - shortfall * max(target - buffer, 0) - abs(last - sustained)
                // Plans that score the same (up for two segments and back costs what it brings) differ in the
                // buffer they leave: the one that leaves more is the better bet.
                if final > best + tie || (final >= best - tie && buffer > bestBuffer) {
                    (best, bestFirst, bestBuffer) = (final, first, buffer)
                }
                return
            }
            guard score + Double(steps - k) >= best - tie else { return }
            for i in stride(from: rates.count - 1, through: 0, by: -1) {
                // A switch pays its rung's requests at whichever step it comes: were they charged only to the
                // first, each plan would put the switch one step later, and the next decision again (a player on a
                // rung it cannot carry, stalling at every segment, that always means to step down next time).
                let switches = i != lastIndex && allowed[i] != current
                let before = switches ? max(requestsBeforeFirstSegment[allowed[i]] ?? 0, 0) : 0
                let download = Double(1 + before) * wait + size(k, i) / estimate
                let short = max(download - max(buffer - reserve, 0), 0)
                if k == 0 { first = i }
                search(
                    k + 1, max(buffer - download, 0) + segmentDuration, i,
                    score + rates[i] - stall * short - eventCost(short) - abs(rates[i] - last))
            }
        }
        search(0, buffer, allowed.firstIndex(of: current) ?? -1, 0)
        return allowed[bestFirst]
    }

    /// What a second of buffer short of the target costs, in stalled seconds: `riskScale` × `slowShare` (the share of
    /// recent time the link ran below the lowest rung), at least `minimumRisk` and at most 1.
    func shortfallWeight(slowShare: Double) -> Double {
        let c = configuration
        return min(max(slowShare.isFinite ? c.riskScale * slowShare : 0, c.minimumRisk), 1)
    }
}
