import Foundation
import Testing

@testable import PlayheadHLS

@Suite("Bandwidth estimator")
struct BandwidthEstimatorTests {
    @Test("before any sample: the default, or the persisted value")
    func startingEstimate() {
        let fresh = BandwidthEstimator()
        #expect(!fresh.hasMeasurement)
        #expect(fresh.estimate == fresh.configuration.defaultEstimate)
        #expect(BandwidthEstimator(persistedEstimate: 7_000_000).estimate == 7_000_000)
        #expect(BandwidthEstimator(persistedEstimate: -1).estimate == fresh.configuration.defaultEstimate)
        #expect(BandwidthEstimator(persistedEstimate: .nan).estimate == fresh.configuration.defaultEstimate)
    }

    @Test("a steady rate is measured as that rate, from many small chunks")
    func steadyRate() {
        var estimator = BandwidthEstimator()
        let rate = 4_000_000.0  // bits per second
        for _ in 0..<400 {  // 4 KB chunks, 400 of them
            estimator.addSample(bytes: 4096, duration: 4096 * 8 / rate)
        }
        #expect(estimator.hasMeasurement)
        #expect(abs(estimator.estimate - rate) / rate < 0.001)
        #expect(estimator.totalBytes == 400 * 4096)
    }

    @Test("tiny samples alone do not move the estimate; pooled they count")
    func tinySamplesPooled() {
        var estimator = BandwidthEstimator(persistedEstimate: 1_000_000)
        // 1 KB delivered in 10 microseconds (800 Mbit/s, a loopback artefact): below both minimums.
        estimator.addSample(bytes: 1000, duration: 0.000_01)
        #expect(estimator.estimate == 1_000_000)
        #expect(!estimator.hasMeasurement)
        // Enough of them, at a real pace, add up to one counted sample.
        for _ in 0..<100 { estimator.addSample(bytes: 1000, duration: 0.01) }
        #expect(estimator.hasMeasurement)
        let measured = 100_000.0 * 8 / (100 * 0.01 + 0.000_01)
        #expect(abs(estimator.estimate - measured) / measured < 0.01)
    }

    @Test("a whole download counts when it ends, however short: a fast link is measured from its first segment")
    func wholeShortDownloadCounts() {
        var estimator = BandwidthEstimator()
        // A 150 KB segment in ten chunks within 1.5 ms (800 Mbit/s: a server on the LAN or this machine), under the
        // 50 ms the estimator pools small samples for.
        var t = 10.0
        for _ in 0..<10 {
            t += 0.000_15
            estimator.addSample(bytes: 15_000, duration: 0.000_15, at: t)
        }
        #expect(!estimator.hasMeasurement && estimator.estimate == 500_000)
        estimator.finishTransfer()
        #expect(estimator.hasMeasurement)
        #expect(abs(estimator.estimate - 800e6) / 800e6 < 0.001, "\(estimator.estimate)")
        // Too few bytes to measure stay pooled when their download ends.
        var small = BandwidthEstimator()
        small.addSample(bytes: 2000, duration: 0.000_1, at: 1)
        small.finishTransfer()
        #expect(!small.hasMeasurement && small.estimate == 500_000)
    }

    @Test("a drop shows at once (the lower average), a rise only once it lasts")
    func asymmetry() {
        var estimator = BandwidthEstimator()
        for _ in 0..<30 { estimator.addSample(bytes: 1_000_000, duration: 1) }  // 8 Mbit/s for 30 s
        var dropped = estimator
        dropped.addSample(bytes: 125_000, duration: 1)  // 1 Mbit/s for one second
        let drop = 8_000_000 - dropped.estimate
        #expect(drop > 0)
        var risen = estimator
        risen.addSample(bytes: 8_000_000, duration: 1)  // 64 Mbit/s for one second
        let rise = risen.estimate - 8_000_000
        // The same one-second sample moves the estimate down by the fast average, up only by the slow one.
        #expect(dropped.estimate == dropped.fastEstimate)
        #expect(risen.estimate == risen.slowEstimate)
        #expect(drop / 7_000_000 > rise / 56_000_000)
        // A lasting rise is followed.
        for _ in 0..<60 { risen.addSample(bytes: 2_000_000, duration: 1) }
        #expect(abs(risen.estimate - 16_000_000) / 16_000_000 < 0.05)
    }

    @Test("with times given, idle gaps age old samples: short fast downloads lift a slow estimate within a few")
    func idleAging() {
        var withTimes = BandwidthEstimator()
        var withoutTimes = BandwidthEstimator()
        var time = 0.0
        for _ in 0..<30 {  // 300 kbit/s, downloads back to back
            time += 1
            withTimes.addSample(bytes: 37_500, duration: 1, at: time)
            withoutTimes.addSample(bytes: 37_500, duration: 1)
        }
        // Now 8 Mbit/s: each 3 s segment of 1 Mbit takes 0.125 s, then the player idles.
        for _ in 0..<5 {
            time += 3
            withTimes.addSample(bytes: 125_000, duration: 0.125, at: time)
            withoutTimes.addSample(bytes: 125_000, duration: 0.125)
        }
        #expect(withTimes.estimate > 4_000_000, "\(withTimes.estimate)")
        #expect(withoutTimes.estimate < 1_000_000, "\(withoutTimes.estimate)")
        // A long pause counts no more than maximumIdleWeight: one sample does not replace the history.
        var paused = BandwidthEstimator()
        var gap = BandwidthEstimator()
        for i in 1...30 {
            paused.addSample(bytes: 37_500, duration: 1, at: Double(i))
            gap.addSample(bytes: 37_500, duration: 1, at: Double(i))
        }
        paused.addSample(bytes: 1_000_000, duration: 1, at: 10_000)
        gap.addSample(bytes: 1_000_000, duration: 1, at: 30 + gap.configuration.maximumIdleWeight + 1)
        #expect(paused.estimate == gap.estimate)
        #expect(paused.estimate < 4_000_000, "\(paused.estimate)")
    }

    /// Ten seconds at 8 Mbit/s, then 16 KB in 8 s (16 kbit/s, under a tenth of the estimate: an outage). Download
    /// time fades by 2^(−d/120) per sample of d seconds: 9.744 s of the first ten, × 0.9548 + 8 = 17.305 s, of which
    /// 8 s of outage: availability 0.5377. The averages forget the outage within seconds, availability over minutes:
    /// after 240 s more at 8 Mbit/s the outage weighs a quarter of its 8 s (2 s) of 134.5 s: 0.9851.
    @Test("availability: the share of recent download time the link carried data")
    func availability() {
        var estimator = BandwidthEstimator()
        var time = 0.0
        for _ in 0..<10 {
            time += 1
            estimator.addSample(bytes: 1_000_000, duration: 1, at: time)
        }
        #expect(estimator.availability == 1)
        time += 8
        estimator.addSample(bytes: 16_000, duration: 8, at: time)
        #expect(abs(estimator.availability - 0.5377) < 0.001, "\(estimator.availability)")
        for _ in 0..<240 {
            time += 1
            estimator.addSample(bytes: 1_000_000, duration: 1, at: time)
        }
        #expect(estimator.estimate > 7_900_000)
        #expect(abs(estimator.availability - 0.9851) < 0.001, "\(estimator.availability)")
        // A slower link is not an outage: 800 kbit/s after 8 Mbit/s is a tenth, not less.
        var slower = BandwidthEstimator()
        for _ in 0..<10 { slower.addSample(bytes: 1_000_000, duration: 1) }
        slower.addSample(bytes: 100_000, duration: 1)
        #expect(slower.availability == 1)
    }

    @Test("invalid samples are ignored")
    func invalidSamples() {
        var estimator = BandwidthEstimator()
        estimator.addSample(bytes: 0, duration: 1)
        estimator.addSample(bytes: -5, duration: 1)
        estimator.addSample(bytes: 100_000, duration: -1)
        estimator.addSample(bytes: 100_000, duration: .infinity)
        #expect(estimator.totalBytes == 0)
        #expect(estimator.estimate == estimator.configuration.defaultEstimate)
    }
}
