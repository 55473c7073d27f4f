import Foundation
import Testing

@testable import PlayheadHLS

/// A 5-rung ladder, deliberately out of order, with one rung whose codec is not supported.
let ladder: [AdaptiveBitratePolicy.Rung] = [
    .init(peakBitRate: 2_000_000, resolution: Resolution(width: 1280, height: 720)),  // 0
    .init(peakBitRate: 500_000, resolution: Resolution(width: 640, height: 360)),  // 1
    .init(peakBitRate: 5_000_000, resolution: Resolution(width: 1920, height: 1080)),  // 2
    .init(peakBitRate: 1_000_000, resolution: Resolution(width: 960, height: 540)),  // 3
    .init(peakBitRate: 9_000_000, resolution: Resolution(width: 3840, height: 2160), isSupported: false),  // 4
]

@Suite("Adaptive bitrate policy")
struct AdaptiveBitratePolicyTests {
    let policy = AdaptiveBitratePolicy(rungs: ladder)

    @Test("start-up fits the estimate with a margin; an empty buffer starts lower")
    func startup() {
        let fast = policy.nextRung(current: nil, estimate: 20_000_000, buffer: 10, segmentDuration: 4)
        #expect(fast == 2)  // never the unsupported 4K rung
        let defaultStart = policy.nextRung(
            current: nil, estimate: BandwidthEstimator().estimate, buffer: 0, segmentDuration: 4)
        #expect(defaultStart == 1)
        for estimate in stride(from: 100_000.0, to: 30_000_000, by: 250_000) {
            let pick = policy.nextRung(current: nil, estimate: estimate, buffer: 0, segmentDuration: 4)!
            #expect(ladder[pick].isSupported)
            #expect(ladder[pick].bitRate <= max(estimate, 500_000))
        }
    }

    @Test("up-switches need buffer to spare, then jump several rungs at once")
    func upSwitch() {
        #expect(policy.nextRung(current: 1, estimate: 10_000_000, buffer: 4, segmentDuration: 4) == 1)
        #expect(policy.nextRung(current: 1, estimate: 10_000_000, buffer: 20, segmentDuration: 4) == 2)
        // With buffer, but the estimate leaves no room: stay.
        #expect(policy.nextRung(current: 3, estimate: 1_300_000, buffer: 30, segmentDuration: 4) == 3)
    }

    @Test("down-switches come early when the buffer drains, not on a dip the buffer covers")
    func downSwitch() {
        // Throughput fell below the current rung.
        #expect(policy.nextRung(current: 2, estimate: 2_500_000, buffer: 8, segmentDuration: 4) == 0)
        #expect(policy.nextRung(current: 2, estimate: 2_000_000, buffer: 8, segmentDuration: 4) == 3)
        #expect(policy.nextRung(current: 2, estimate: 2_000_000, buffer: 28, segmentDuration: 4) == 2)
        // The same estimate that keeps a rung with a healthy buffer drops it when the buffer is nearly empty.
        #expect(policy.nextRung(current: 0, estimate: 2_500_000, buffer: 12, segmentDuration: 4) == 0)
        #expect(policy.nextRung(current: 0, estimate: 2_500_000, buffer: 1, segmentDuration: 4) == 3)
    }

    @Test("no oscillation: a steady estimate keeps the choice at every buffer level")
    func stable() {
        for estimate in stride(from: 300_000.0, to: 12_000_000, by: 100_000) {
            var current = policy.nextRung(current: nil, estimate: estimate, buffer: 0, segmentDuration: 4)!
            for buffer in [2.0, 6, 12, 20, 30, 30, 30] {
                current = policy.nextRung(current: current, estimate: estimate, buffer: buffer, segmentDuration: 4)!
            }
            let settled = current
            for buffer in [30.0, 25, 20, 15, 12, 20, 30] {
                current = policy.nextRung(current: current, estimate: estimate, buffer: buffer, segmentDuration: 4)!
                #expect(current == settled, "estimate \(estimate), buffer \(buffer)")
            }
        }
    }

    @Test("caps: peak bit rate, maximum resolution, window size; the lowest when nothing fits")
    func caps() {
        var capped = policy
        capped.caps = .init(peakBitRate: 1_500_000)
        #expect(capped.allowedRungs == [1, 3])
        #expect(capped.nextRung(current: 3, estimate: 50_000_000, buffer: 30, segmentDuration: 4) == 3)
        capped.caps = .init(maximumResolution: CGSize(width: 1280, height: 720))
        #expect(capped.allowedRungs == [1, 3, 0])
        // A window of 1000x600 allows what fits in it plus the smallest rung that covers it.
        capped.caps = .init(windowSize: CGSize(width: 1000, height: 600))
        #expect(capped.allowedRungs == [1, 3, 0])
        // A rung the window's size (in width or height) fills it: nothing larger.
        capped.caps = .init(windowSize: CGSize(width: 960, height: 600))
        #expect(capped.allowedRungs == [1, 3])
        capped.caps = .init(windowSize: CGSize(width: 640, height: 360))
        #expect(capped.allowedRungs == [1])
        // An explicit maximum wins over the window.
        capped.caps = .init(
            maximumResolution: CGSize(width: 4000, height: 3000), windowSize: CGSize(width: 600, height: 300))
        #expect(capped.allowedRungs == [1, 3, 0, 2])
        capped.caps = .init(peakBitRate: 100_000)
        #expect(capped.allowedRungs == [1])
        // A rung that lost its place to a new cap is left at once.
        capped.caps = .init(peakBitRate: 1_500_000)
        #expect(capped.nextRung(current: 2, estimate: 50_000_000, buffer: 30, segmentDuration: 4) == 3)
        // Nothing supported: no choice.
        let unsupported = AdaptiveBitratePolicy(rungs: [.init(peakBitRate: 1, isSupported: false)])
        #expect(unsupported.nextRung(current: nil, estimate: 1e9, buffer: 0, segmentDuration: 4) == nil)
    }

    @Test("rungs from playlist variants use BANDWIDTH, AVERAGE-BANDWIDTH and RESOLUTION")
    func fromVariants() throws {
        let playlist = try PlaylistParser().parseMultivariantPlaylist(
            """
            #EXTM3U
            #EXT-X-STREAM-INF:BANDWIDTH=3000000,AVERAGE-BANDWIDTH=2200000,RESOLUTION=1280x720,CODECS="avc1.64001f,mp4a.40.2"
            hi.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=800000,RESOLUTION=640x360
            lo.m3u8
            """)
        let rungs = playlist.variants.map { AdaptiveBitratePolicy.Rung($0, isSupported: true) }
        #expect(rungs[0].peakBitRate == 3_000_000 && rungs[0].bitRate == 2_200_000)
        #expect(rungs[0].resolution == Resolution(width: 1280, height: 720))
        #expect(rungs[1].bitRate == 800_000)
    }

    @Test("abandon a download that will not finish before the buffer runs out, for a rung that will")
    func abandon() {
        let segment = 4.0
        let expected = Int(5_000_000 * segment / 8)  // 2.5 MB on rung 2
        // 10% in after 2 s (1 Mbit/s): 18 s left, 4 s of buffer: finishing stalls 14 s. At 80 % of that rate the
        // 500 kbit/s rung's 2 Mbit take 2.5 s, the 1 Mbit/s rung's 4 Mbit 5 s (a 1 s stall and an interruption:
        // 1 - 4.3 × 4 Mbit/s, below the 500 kbit/s rung's 0.5).
        let slow = AdaptiveBitratePolicy.DownloadProgress(
            loadedBytes: expected / 10, expectedBytes: expected, elapsed: 2)
        #expect(
            policy.shouldAbandon(slow, rung: 2, segmentDuration: segment, buffer: 4, estimate: 5e6)
                == .abandon(switchTo: 1))
        // With 6 s of buffer the 1 Mbit/s rung arrives in time, and is the best.
        #expect(
            policy.shouldAbandon(slow, rung: 2, segmentDuration: segment, buffer: 6, estimate: 5e6)
                == .abandon(switchTo: 3))
        // With 30 s of buffer it can finish.
        #expect(
            policy.shouldAbandon(slow, rung: 2, segmentDuration: segment, buffer: 30, estimate: 5e6) == .keepLoading)
        // Too early to judge.
        let early = AdaptiveBitratePolicy.DownloadProgress(loadedBytes: 0, expectedBytes: expected, elapsed: 0.1)
        #expect(
            policy.shouldAbandon(early, rung: 2, segmentDuration: segment, buffer: 1, estimate: 5e6) == .keepLoading)
        // Nothing arrived for 3 s with 2 s of buffer: take the highest rung the estimate fetches in time.
        let silent = AdaptiveBitratePolicy.DownloadProgress(loadedBytes: 0, expectedBytes: nil, elapsed: 3)
        #expect(
            policy.shouldAbandon(silent, rung: 2, segmentDuration: segment, buffer: 2, estimate: 2e6)
                == .abandon(switchTo: 1))
        // Already on the lowest rung: nothing lower to take.
        #expect(
            policy.shouldAbandon(slow, rung: 1, segmentDuration: segment, buffer: 0.5, estimate: 5e6) == .keepLoading)
        // Almost done: finishing beats starting over even if the buffer runs out first.
        let nearlyDone = AdaptiveBitratePolicy.DownloadProgress(
            loadedBytes: expected - 20_000, expectedBytes: expected, elapsed: 20)
        #expect(
            policy.shouldAbandon(nearlyDone, rung: 2, segmentDuration: segment, buffer: 0.1, estimate: 1e6)
                == .keepLoading)
    }

    /// A 4K ladder (1, 2.5, 5, 8, 16 and 35 Mbit/s), 3 s segments: a 35 Mbit/s segment (105 Mbit) 3 s in, 1.75 s of
    /// buffer. At 20 Mbit/s (60 Mbit in) the 45 Mbit left take 2.25 s, a 0.5 s stall: finishing scores 35 - 4.3 ×
    /// (0.5 + 3) = 19.95 Mbit/s, and the best lower rung that arrives in time at 16 Mbit/s is 8 Mbit/s (1.5 s):
    /// finished (hls.js's rule would have thrown it away for the 8 Mbit/s rung). At 10 Mbit/s (30 Mbit in) the
    /// stall would be 5.75 s (35 - 4.3 × 8.75 = -2.6): abandoned for 2.5 Mbit/s, the highest rung that arrives in
    /// time at 8 Mbit/s (0.94 s; 5 Mbit/s takes 1.875 s).
    @Test("abandonment weighs the stall finishing costs against the bit rate a lower rung loses")
    func abandonWeighsTheStall() {
        let fourK = AdaptiveBitratePolicy(rungs: [1, 2.5, 5, 8, 16, 35].map { .init(peakBitRate: $0 * 1_000_000) })
        let expected = 105_000_000 / 8
        let fast = AdaptiveBitratePolicy.DownloadProgress(
            loadedBytes: 60_000_000 / 8, expectedBytes: expected, elapsed: 3)
        #expect(fourK.shouldAbandon(fast, rung: 5, segmentDuration: 3, buffer: 1.75, estimate: 20e6) == .keepLoading)
        let slow = AdaptiveBitratePolicy.DownloadProgress(
            loadedBytes: 30_000_000 / 8, expectedBytes: expected, elapsed: 3)
        #expect(
            fourK.shouldAbandon(slow, rung: 5, segmentDuration: 3, buffer: 1.75, estimate: 20e6)
                == .abandon(switchTo: 1))
    }

    /// The 4K ladder, a 24 Mbit segment at 8 Mbit/s 4 s in with 16 Mbit received (4 Mbit/s on average) and 10 s of
    /// buffer: at the average the 8 Mbit left take 2 s, in time. The last second brought 500 kbit/s: at that rate
    /// they take 16 s, a 6 s stall (8 - 4.3 × 9 = -30.7), while the 1 Mbit/s rung's 3 Mbit take 7.5 s at 80 % of it,
    /// in time (2.5 Mbit/s takes 18.75 s). The rate now decides only on a link whose outages have outlasted the
    /// buffer (a minute under the lowest rung); after one of 5 s, or with no history, the average does.
    @Test("a link with minute-long outages judges a download by the rate it gets now, others by its average")
    func abandonJudgesByTheRateNow() {
        let progress = AdaptiveBitratePolicy.DownloadProgress(
            loadedBytes: 16_000_000 / 8, expectedBytes: 24_000_000 / 8, elapsed: 4, recentRate: 500_000)
        let long = LinkHistory.slowSpell(500_000, seconds: 60, then: 10_000_000, for: 30, idle: 60)
        let short = LinkHistory.slowSpell(500_000, seconds: 5, then: 10_000_000, for: 30, idle: 60)
        func decide(_ history: LinkHistory?) -> AdaptiveBitratePolicy.AbandonDecision {
            AdaptiveBitratePolicy.fourK().shouldAbandon(
                progress, rung: 3, segmentDuration: 3, buffer: 10, estimate: 8e6, history: history)
        }
        #expect(decide(long) == .abandon(switchTo: 0))
        #expect(decide(short) == .keepLoading)
        #expect(decide(nil) == .keepLoading)
    }

    /// sd_fs trace0254 with `bbb` (230 kbit/s to 6 Mbit/s, 3 s segments): an 18 Mbit segment got 9 Mbit in its
    /// first 0.9 s, then the link fell to 0.29 Mbit/s, which the lowest rung still fits. After 6 s the average since
    /// the request (1.75 Mbit/s) says the rest comes in 4.3 s, before the 16 s of buffer run out; at the rate of the
    /// last five seconds it takes 26 s. On a link whose falls below the top rung have outlasted the buffer, that rate
    /// decides: a 991 kbit/s segment (12.8 s at 0.8 × 0.29) is fetched instead; where they have not, it is finished.
    @Test(
        "a fall that lasts is judged by the rate of the download's last five seconds where such falls outlast the buffer"
    )
    func abandonJudgesALastingFall() {
        let progress = AdaptiveBitratePolicy.DownloadProgress(
            loadedBytes: 10_500_000 / 8, expectedBytes: 18_000_000 / 8, elapsed: 6, recentRate: 290_000,
            steadyRate: 290_000)
        let long = LinkHistory.slowSpell(290_000, seconds: 60, then: 10_000_000, for: 30, idle: 90)
        let short = LinkHistory.slowSpell(290_000, seconds: 4, then: 10_000_000, for: 30, idle: 90)
        func decide(_ history: LinkHistory) -> AdaptiveBitratePolicy.AbandonDecision {
            AdaptiveBitratePolicy.bbb.shouldAbandon(
                progress, rung: 9, segmentDuration: 3, buffer: 16, estimate: 6e6, history: history)
        }
        #expect(decide(long) == .abandon(switchTo: 4))
        #expect(decide(short) == .keepLoading)
    }

    @Test("the recent rate is measured over the last second of progress reports")
    func recentRate() {
        var rate = AdaptiveBitratePolicy.RecentRate(window: 1)
        rate.add(bytes: 0, elapsed: 0)
        rate.add(bytes: 1_000_000, elapsed: 0.5)
        #expect(rate.bitsPerSecond == nil, "half a window is not enough")
        rate.add(bytes: 2_000_000, elapsed: 1)
        #expect(rate.bitsPerSecond == 16_000_000)
        // 10 MB in the first 2 s, then 62.5 kB a quarter second: the last second gave 2 Mbit/s.
        rate.add(bytes: 10_000_000, elapsed: 2)
        for k in 1...4 { rate.add(bytes: 10_000_000 + 62_500 * k, elapsed: 2 + 0.25 * Double(k)) }
        #expect(rate.bitsPerSecond == 2_000_000)
    }
}
