import Foundation
import Testing

@testable import PlayheadHLS

/// `LinkHistory` by hand, through `BandwidthEstimator`, and as the plan weighs it.
@Suite("Link history: the share of time below a rate")
struct LinkHistoryTests {
    @Test("time at each rate and idle time count; slower than the rate is slow; nothing before a sample")
    func share() {
        var history = LinkHistory(halfLife: 1e12)
        #expect(history.slowShare(below: 1e6) == 0)
        history.add(rate: 500_000, duration: 10, idle: 0)
        history.add(rate: 5_000_000, duration: 10, idle: 0)
        #expect(abs(history.slowShare(below: 1e6) - 0.5) < 1e-9)
        #expect(history.slowShare(below: 400_000) == 0)
        #expect(abs(history.slowShare(below: 6e6) - 1) < 1e-9)
        // 20 s idle (a full buffer waiting) counts as not slow.
        history.add(rate: 5_000_000, duration: 0, idle: 20)
        #expect(abs(history.slowShare(below: 1e6) - 0.25) < 1e-9)
        // Bad values are ignored.
        history.add(rate: .nan, duration: 10, idle: 0)
        history.add(rate: 100, duration: -1, idle: 0)
        #expect(abs(history.slowShare(below: 1e6) - 0.25) < 1e-9)
        #expect(history.slowShare(below: 0) == 0 && history.slowShare(below: .infinity) == 0)
    }

    /// Half-life 10 s: a slow span that ended 10 s ago weighs half a fast one that just ended: 5 / (5 + 10).
    /// After 1000 fast seconds more the slow one has faded out (and been dropped).
    @Test("older time weighs less, with the half-life")
    func fades() {
        var history = LinkHistory(halfLife: 10)
        history.add(rate: 100_000, duration: 10, idle: 0)
        history.add(rate: 9_000_000, duration: 10, idle: 0)
        #expect(abs(history.slowShare(below: 1e6) - 1.0 / 3) < 1e-9)
        for _ in 0..<1000 { history.add(rate: 9_000_000, duration: 1, idle: 0) }
        #expect(history.slowShare(below: 1e6) < 1e-9)
    }

    /// 2 s at 0.5 Mbit/s, 8 s idle, 2 s at 8 Mbit/s, with arrival times: the slow 2 s (faded by the 10 s since,
    /// at the default half-life of 120 s) against themselves, the idle 8 s and the fast 2 s.
    @Test("the estimator keeps it from its samples, the gaps between them idle")
    func estimator() {
        var estimator = BandwidthEstimator()
        estimator.addSample(bytes: 125_000, duration: 2, at: 2)
        estimator.addSample(bytes: 2_000_000, duration: 2, at: 12)
        let expected = 2.0 / 12 * pow(0.5, 10 / 120) / (2.0 / 12 * pow(0.5, 10 / 120) + 10.0 / 12)
        #expect(abs(estimator.history.slowShare(below: 1e6) - expected) < 1e-9)
    }

    /// Slow samples and the time between them make one spell; the wait before its first sample does not count, a
    /// sample at the rate or faster ends it, and a spell that ended more than two half-lives ago is forgotten.
    @Test("the longest recent spell below a rate")
    func longestSpell() {
        var history = LinkHistory(halfLife: 10)
        #expect(history.longestSlowSpell(below: 1e6) == 0)
        history.add(rate: 100_000, duration: 5, idle: 0)
        history.add(rate: 5e6, duration: 1, idle: 0)
        history.add(rate: 200_000, duration: 3, idle: 7)
        history.add(rate: 0, duration: 4, idle: 1)
        #expect(history.longestSlowSpell(below: 1e6) == 8)
        #expect(history.longestSlowSpell(below: 150_000) == 5)
        #expect(history.longestSlowSpell(below: 0) == 0 && history.longestSlowSpell(below: .nan) == 0)
        history.add(rate: 5e6, duration: 21, idle: 0)
        #expect(history.longestSlowSpell(below: 1e6) == 0)
    }

    /// The plan's ladder of `AdaptiveBitratePlanTests` (1 and 2 Mbit/s, 2 s segments) at 3 Mbit/s from 6 s of
    /// buffer climbs on a link with no history. On one that ran below the lowest rung half the time, each second
    /// short of 20 s costs a stalled second (2.15): 1,1,1,1,1 ends at 8.593 s (4.5 - 2.15 × 11.407 = -20.0), 0,0,0,0,0
    /// at 12.296 s (2.5 - 0.5 for the climb back - 2.15 × 7.704 = -14.6): it keeps rung 0 to fill the buffer.
    @Test("a link that ran below the lowest rung makes the plan keep its buffer")
    func planKeepsTheBuffer() {
        let policy = AdaptiveBitratePolicy(rungs: [.init(peakBitRate: 1_000_000), .init(peakBitRate: 2_000_000)])
        let ahead = AdaptiveBitratePolicy.UpcomingSegments(estimatedFrom: policy.rungs, durations: [2, 2, 2, 2, 2])
        var slow = LinkHistory(halfLife: 120)
        slow.add(rate: 300_000, duration: 30, idle: 0)
        slow.add(rate: 3_000_000, duration: 30, idle: 0)
        func pick(_ history: LinkHistory?) -> Int? {
            policy.nextRung(
                current: 0, estimate: 3e6, buffer: 6, segmentDuration: 2, upcoming: ahead, history: history)
        }
        #expect(pick(nil) == 1)
        #expect(pick(LinkHistory(halfLife: 120)) == 1)
        #expect(pick(slow) == 0)
    }

    /// The spell in progress: the samples since the last one on the other side, averaged as a 3 s average started
    /// with the spell (the newest 1 s sample weighs 1 - 2^(-1/3), the 3 s one before it 2^(-1/3) × 1/2).
    @Test("the state the link is in now, and the rate of that spell")
    func currentSpell() {
        var history = LinkHistory(halfLife: 120)
        #expect(history.currentSpell(relativeTo: 1e6) == nil)
        history.add(rate: 100_000, duration: 5, idle: 0)
        history.add(rate: 5e6, duration: 1, idle: 0)
        #expect(history.currentSpell(relativeTo: 1e6)! == (false, 5e6, 5))
        history.add(rate: 200_000, duration: 3, idle: 2)
        history.add(rate: 600_000, duration: 1, idle: 1)
        let (a, b) = (1 - pow(0.5, 1.0 / 3), pow(0.5, 1.0 / 3) * 0.5)
        let spell = history.currentSpell(relativeTo: 1e6)!
        #expect(spell.isSlow && abs(spell.rate - (600_000 * a + 200_000 * b) / (a + b)) < 1e-6 && spell.before == 1)
        // Back above 1 Mbit/s: the spell before is the 3 s and 1 s samples and the 1 s between them.
        history.add(rate: 5e6, duration: 1, idle: 0)
        #expect(history.currentSpell(relativeTo: 1e6)! == (false, 5e6, 5))
        #expect(history.currentSpell(relativeTo: .nan) == nil)
    }

    /// sd_fs trace0590 with `bbb4k` (1, 2.5, 5, 8 Mbit/s, 3 s segments): 8 s into a slow minute (0.7 Mbit/s) after
    /// one the same two minutes before, the averages still hold 5 Mbit/s, × 0.67 availability × 0.9: 3 Mbit/s, on
    /// which 2.5 Mbit/s segments keep 15 s of buffer. The link gives 0.7: each takes 10.7 s. The plan runs against the
    /// outage's own rate once it is in one that will outlast the buffer, and takes the lowest rung.
    @Test("in an outage that outlasts the buffer, the plan runs against the rate the outage gives")
    func planInAnOutage() {
        let policy = AdaptiveBitratePolicy.fourK(rungs: 4)
        let ahead = AdaptiveBitratePolicy.UpcomingSegments(estimatedFrom: policy.rungs, durations: [3, 3, 3, 3, 3])
        var history = LinkHistory.slowSpell(700_000, seconds: 60, then: 11_000_000, for: 60, idle: 60)
        var after = history
        history.add(rate: 700_000, duration: 8, idle: 0)
        after.add(rate: 700_000, duration: 8, idle: 0)
        after.add(rate: 11_000_000, duration: 1, idle: 0)
        func pick(_ history: LinkHistory) -> Int? {
            policy.nextRung(
                current: 1, estimate: 6e6, buffer: 15, segmentDuration: 3, upcoming: ahead, recentEstimate: 5e6,
                availability: 0.67, history: history)
        }
        #expect(pick(history) == 0)
        #expect(pick(after) == 1, "back at 11 Mbit/s: the averages decide again")
    }

    /// sd_fs trace0328 with `bbb4k`'s lower rungs (1, 2.5, 5, 8 Mbit/s, 3 s segments): a minute at 0.3 Mbit/s, then
    /// 1.2 s of downloads at 10.9. The averages hold 1.5 Mbit/s (recent 3 Mbit/s, × 0.67 availability): the plan would
    /// stay on the lowest rung for segments more. Out of an outage, it runs against at least what the link has given
    /// since, × the availability (7.3 Mbit/s; × 0.9: 6.6), and climbs at once, to 2.5 Mbit/s: 5 would fill the buffer
    /// the next outage needs (20 s) too slowly.
    @Test("out of an outage that outlasts the buffer, the plan runs against what the link has given since")
    func planAfterAnOutage() {
        let policy = AdaptiveBitratePolicy.fourK(rungs: 4)
        let ahead = AdaptiveBitratePolicy.UpcomingSegments(estimatedFrom: policy.rungs, durations: [3, 3, 3, 3, 3])
        var history = LinkHistory.slowSpell(10_900_000, seconds: 60, then: 300_000, for: 60, idle: 0)
        var still = history
        for _ in 0..<4 { history.add(rate: 10_900_000, duration: 0.3, idle: 0) }
        still.add(rate: 300_000, duration: 1.2, idle: 0)
        func pick(_ history: LinkHistory) -> Int? {
            policy.nextRung(
                current: 0, estimate: 1.5e6, buffer: 12, segmentDuration: 3, upcoming: ahead, recentEstimate: 3e6,
                availability: 0.67, history: history)
        }
        #expect(pick(history) == 1)
        #expect(pick(still) == 0)
        // After a dip of 2 s, which the buffer rides out, the link has not changed state: the averages decide.
        var dip = history
        dip.add(rate: 300_000, duration: 2, idle: 0)
        for _ in 0..<4 { dip.add(rate: 10_900_000, duration: 0.3, idle: 0) }
        #expect(pick(dip) == 0)
    }

    /// Outages of 4 s and 8 s between 10 s at 10 Mbit/s and 5 s at 16: a spell below 1 Mbit/s that begins now ends as
    /// one of them did, after 4 or 8 s, and then the link gives 11.2 Mbit/s, the mean of its time above ((10 × 10 +
    /// 10 × 10 + 16 × 5) / 25; no decay with a half-life this long). 3 s into one, 1 or 5 s are left; 9 s into one,
    /// longer than any seen, nothing says when it ends.
    @Test("a spell below a rate ends as the past ones did")
    func slowSpellOutlook() {
        var history = LinkHistory(halfLife: 1e12)
        history.add(rate: 50_000, duration: 2, idle: 0)
        #expect(history.slowSpellOutlook(below: 1e6) == nil, "no time above the rate yet")
        for (rate, seconds) in [(10e6, 10.0), (50_000, 4), (10e6, 10), (50_000, 8), (16e6, 5)] {
            history.add(rate: rate, duration: seconds, idle: 0)
        }
        let outlook = history.slowSpellOutlook(below: 1e6)
        #expect(outlook?.elapsed == 0 && outlook?.remaining == [2, 4, 8])
        #expect(abs((outlook?.fastRate ?? 0) - 11.2e6) < 1)
        history.add(rate: 50_000, duration: 3, idle: 0)
        #expect(history.slowSpellOutlook(below: 1e6)?.elapsed == 3)
        #expect(history.slowSpellOutlook(below: 1e6)?.remaining == [1, 5])
        history.add(rate: 50_000, duration: 6, idle: 0)
        #expect(history.slowSpellOutlook(below: 1e6) == nil, "9 s: longer than any seen")
        #expect(history.slowSpellOutlook(below: 0) == nil && history.slowSpellOutlook(below: .nan) == nil)
    }
}
