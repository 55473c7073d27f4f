import Foundation

/// What the link did over the last minutes of wall time: the rate of each counted download sample and the idle time
/// between downloads, so that a planner can ask how much of that time the link ran slower than a rung needs
/// (`slowShare(below:)`). `BandwidthEstimator` keeps one; its averages forget a slow minute within seconds, this
/// remembers it for minutes.
///
/// A value type with no clock (callers pass durations): safe on any thread.
public struct LinkHistory: Sendable, Hashable {
    struct Span: Sendable, Hashable {
        var rate: Double
        var duration: Double
        var idleBefore: Double
        var end: Double
    }

    /// Half-life of the memory, in seconds of wall time.
    public let halfLife: Double
    /// Half-life, in seconds of download time, of the average `currentSpell(relativeTo:)` gives.
    public let spellHalfLife: Double
    private var spans: [Span] = []
    private var now = 0.0

    /// An empty history that forgets with `halfLife` seconds of wall time and averages the current spell with
    /// `spellHalfLife` seconds of download time (3 s: the estimator's fast average).
    public init(halfLife: Double, spellHalfLife: Double = 3) {
        self.halfLife = max(halfLife, 0.001)
        self.spellHalfLife = max(spellHalfLife, 0.001)
    }

    /// Records `duration` seconds of download at `rate` bits per second after `idle` seconds without one; values
    /// that are negative or not finite are ignored.
    public mutating func add(rate: Double, duration: Double, idle: Double) {
        guard rate.isFinite, duration.isFinite, idle.isFinite, rate >= 0, duration >= 0, idle >= 0 else { return }
        now += idle + duration
        spans.append(Span(rate: rate, duration: duration, idleBefore: idle, end: now))
        // What has faded under 1/32 no longer counts: drop it in batches.
        let horizon = now - 5 * halfLife
        if spans.count > 64, spans[63].end < horizon {
            spans.removeFirst(spans.prefix { $0.end < horizon }.count)
        }
    }

    /// The share of recent wall time in which the link ran slower than `rate` bits per second, from 0 to 1 (0 before
    /// any sample): each sample's time counts at its rate, the time between downloads as not slow (a player that
    /// waits has a full buffer), each second weighted by how long ago it ended (`halfLife`). Asked with the lowest
    /// rung's bit rate, it is how much of the time the link ran where no rung keeps the buffer from draining: how
    /// likely the buffer a plan ends with is to be needed (`AdaptiveBitratePolicy.plan`).
    public func slowShare(below rate: Double) -> Double {
        guard rate > 0, rate.isFinite else { return 0 }
        var slow = 0.0
        var total = 0.0
        for span in spans {
            let weight = pow(0.5, (now - span.end) / halfLife)
            total += weight * (span.duration + span.idleBefore)
            if span.rate < rate { slow += weight * span.duration }
        }
        return total > 0 ? min(slow / total, 1) : 0
    }

    /// The longest spell of the recent past in which the link ran slower than `rate` bits per second without a
    /// break, in seconds (0 when there was none): consecutive slow samples, and the time between them, make one
    /// spell (a player fetching through an outage has a download in flight the whole time); a sample at `rate` or
    /// faster ends it. Spells that ended more than two half-lives ago do not count (a quarter of the weight). Asked
    /// with the lowest rung's bit rate, it is how long the link's outages last: longer than the buffer, the next
    /// one will use up all of it.
    public func longestSlowSpell(below rate: Double) -> Double {
        guard rate > 0, rate.isFinite else { return 0 }
        var longest = 0.0
        var spell = 0.0
        for span in spans {
            if span.rate < rate {
                // The wait before a spell's first sample (a full buffer idling) is not part of it.
                spell += (spell > 0 ? span.idleBefore : 0) + span.duration
                if now - span.end <= 2 * halfLife { longest = max(longest, spell) }
            } else {
                spell = 0
            }
        }
        return longest
    }

    /// The spell the link is in now relative to `rate` bits per second: whether it runs below it; its rate, from the
    /// samples since the last one on the other side (all of them when there is none), averaged over their download
    /// time as an average of `spellHalfLife` started with the spell would (the estimator's fast average, without the
    /// time before the spell); and how long the spell before it lasted (its samples and the time between them, as in
    /// `longestSlowSpell(below:)`; 0 when there was none). Nil before any sample. Asked with the lowest rung's bit rate
    /// on a link whose outages outlast the buffer, it is the state the link is in and what that state gives, which the
    /// estimator's averages, still full of the other state, follow only slowly: an outage's rate, or the rate since
    /// an outage ended and how long that outage was.
    public func currentSpell(relativeTo rate: Double) -> (isSlow: Bool, rate: Double, before: Double)? {
        guard rate > 0, rate.isFinite, let last = spans.last else { return nil }
        let isSlow = last.rate < rate
        let (average, k) = spellAverage(endingAt: spans.count - 1, relativeTo: rate)
        return (isSlow, average ?? last.rate, spellLength(endingAt: k, relativeTo: rate))
    }

    /// A slow spell, as a planner that takes the link's spells below a rate to recur like those of the recent past
    /// weighs it. A value type, safe anywhere.
    public struct SlowSpellOutlook: Sendable, Hashable {
        /// Seconds the spell has lasted (its samples and the time between them; 0 for one that begins now).
        public var elapsed: Double
        /// For each spell of the recent past that lasted longer than `elapsed`, how much longer it went on: the
        /// outcomes the planner weighs, equally likely (nothing else is known of how long this one will last).
        public var remaining: [Double]
        /// The mean rate of the recent time the link ran at or above the rate (each second weighted by how long ago
        /// it ended, as `slowShare(below:)` weighs it): what it gives when this spell ends.
        public var fastRate: Double
    }

    /// The outlook of a spell below `rate` bits per second: the one the link is in now, or, when its last samples ran
    /// at or above `rate`, one that begins now (a download that has just stalled, before its slow samples count).
    /// Its outcomes are how much longer than it has lasted each spell of the recent past lasted (spells as in
    /// `longestSlowSpell(below:)`, ended within two half-lives). Nil when no spell ran at or above `rate`, or when no
    /// past spell lasted longer than this one has so far (nothing seen says when it ends).
    public func slowSpellOutlook(below rate: Double) -> SlowSpellOutlook? {
        guard rate > 0, rate.isFinite, let last = spans.last else { return nil }
        let inSpell = last.rate < rate
        let elapsed = inSpell ? spellLength(endingAt: spans.count - 1, relativeTo: rate) : 0
        let k = inSpell ? spellAverage(endingAt: spans.count - 1, relativeTo: rate).before : spans.count - 1
        guard k >= 0 else { return nil }
        var remaining: [Double] = []
        var spell = 0.0
        var (bits, time) = (0.0, 0.0)
        for (i, span) in spans[...k].enumerated() {
            if span.rate < rate {
                spell += (spell > 0 ? span.idleBefore : 0) + span.duration
            } else {
                if spell > elapsed, now - spans[i - 1].end <= 2 * halfLife { remaining.append(spell - elapsed) }
                spell = 0
                let weight = pow(0.5, (now - span.end) / halfLife) * span.duration
                (bits, time) = (bits + weight * span.rate, time + weight)
            }
        }
        guard !remaining.isEmpty, time > 0 else { return nil }
        return SlowSpellOutlook(elapsed: elapsed, remaining: remaining, fastRate: bits / time)
    }

    /// The rate of the spell (samples on one side of `rate`) that ends with sample `end`, averaged over their download
    /// time as an average of `spellHalfLife` started with the spell would, and the index of the last sample before
    /// it (-1 when none). Nil rate when `end` is out of range.
    private func spellAverage(endingAt end: Int, relativeTo rate: Double) -> (average: Double?, before: Int) {
        guard spans.indices.contains(end) else { return (nil, end) }
        let isSlow = spans[end].rate < rate
        var bits = 0.0
        var weight = 0.0
        var age = 0.0
        var k = end
        while k >= 0, (spans[k].rate < rate) == isSlow {
            let span = spans[k]
            let w = pow(0.5, age / spellHalfLife) * (1 - pow(0.5, span.duration / spellHalfLife))
            bits += span.rate * w
            weight += w
            age += span.duration
            k -= 1
        }
        return (weight > 0 ? bits / weight : spans[end].rate, k)
    }

    /// How long the spell that ends with sample `end` lasted: its samples and the time between them (0 when `end` is
    /// out of range).
    private func spellLength(endingAt end: Int, relativeTo rate: Double) -> Double {
        guard spans.indices.contains(end) else { return 0 }
        let isSlow = spans[end].rate < rate
        var length = 0.0
        var k = end
        while k >= 0, (spans[k].rate < rate) == isSlow {
            length += spans[k].duration + (k > 0 && (spans[k - 1].rate < rate) == isSlow ? spans[k].idleBefore : 0)
            k -= 1
        }
        return length
    }
}
