import Foundation
import Testing

@testable import PlayheadHLS

/// The wait each request pays before its first byte (`BandwidthEstimator.latency`), which the throughput samples
/// leave out, in the plan and in abandonment: a link of 2.5 Mbit/s that answers after a second, 2 s segments.
@Suite("Adaptive bitrate on a link that answers late")
struct AdaptiveBitrateLatencyTests {
    /// 360p, 540p, 720p and 1080p as the HLS fixtures declare them.
    let policy = AdaptiveBitratePolicy(
        rungs: [510_000, 1_010_000, 1_910_000, 3_610_000].map { .init(peakBitRate: $0) })
    let segment = 2.0

    func upcoming() -> AdaptiveBitratePolicy.UpcomingSegments {
        .init(estimatedFrom: policy.rungs, durations: Array(repeating: segment, count: 5))
    }

    @Test("the latency is the recent requests' mean wait; one slow answer moves it a little, nonsense not at all")
    func estimatorLatency() {
        var estimator = BandwidthEstimator()
        #expect(estimator.latency == 0)
        for _ in 0..<20 { estimator.addLatency(1) }
        #expect(abs(estimator.latency - 1) < 1e-9)
        estimator.addLatency(5)
        #expect(estimator.latency > 1.3 && estimator.latency < 2, "\(estimator.latency)")
        let before = estimator.latency
        estimator.addLatency(-1)
        estimator.addLatency(.nan)
        estimator.addLatency(.infinity)
        #expect(estimator.latency == before)
        // It comes back down as answers are quick again.
        for _ in 0..<30 { estimator.addLatency(0.02) }
        #expect(estimator.latency < 0.05, "\(estimator.latency)")
    }

    /// On 720p with 3.5 s of buffer: its 3.8 Mbit take 1.7 s at 90 % of 2.5 Mbit/s, within a 2 s segment when the
    /// request costs nothing: it stays. Waiting a second first (2.7 s) it would drain the buffer: it steps down.
    @Test("the plan adds the wait to every download: a rung that fits without it but not with it is left")
    func planWithLatency() {
        func pick(latency: Double) -> Int? {
            policy.nextRung(
                current: 2, estimate: 2.5e6, buffer: 3.5, segmentDuration: segment, upcoming: upcoming(),
                recentEstimate: 2.5e6, latency: latency)
        }
        #expect(pick(latency: 0) == 2)
        #expect((pick(latency: 1) ?? 2) < 2)
    }

    /// From 360p with 4 s of buffer and a second's wait: 540p's first segment takes 1.9 s when its playlist (and
    /// init section) are at hand, 2.9 s when one must be fetched first.
    @Test("a switch to a rung that must fetch its playlist or init section first pays one more wait for each")
    func playlistWait() {
        func pick(before: [Int: Int]) -> Int? {
            policy.nextRung(
                current: 0, estimate: 2.5e6, buffer: 4, segmentDuration: segment, upcoming: upcoming(),
                recentEstimate: 2.5e6, latency: 1, requestsBeforeFirstSegment: before)
        }
        #expect(pick(before: [:]) == 1)
        #expect(pick(before: [2: 1, 3: 2]) == 1)
        #expect(pick(before: [1: 1, 2: 1, 3: 1]) == 0)
        // The current rung's requests are made: none counts.
        #expect(pick(before: [0: 2]) == 1)
    }

    /// Live, on 720p with 2 s of buffer and a second's wait, every other rung's playlist to load first: staying takes
    /// 2.7 s a segment (a stall at each), 360p 2.5 s once and 1.5 s after. When the plan charged the playlist's wait
    /// only to a switch at its first step, the best plan was 720p once more and then 360p, every time: the player
    /// stayed and stalled at every segment (14 stalls in 30 s on a live stream).
    @Test("a switch pays its rung's requests at whichever step of the plan it comes: the plan does not put it off")
    func switchRequestsAtAnyStep() {
        let before = [0: 1, 1: 1, 3: 1]
        for buffer in [1.0, 2.1] {
            let pick = policy.nextRung(
                current: 2, estimate: 2.49e6, buffer: buffer, segmentDuration: segment, upcoming: upcoming(),
                recentEstimate: 2.49e6, latency: 1, requestsBeforeFirstSegment: before)
            #expect((pick ?? 2) < 2, "stayed on 720p with \(buffer) s of buffer")
        }
    }

    @Test("a download still waiting for its answer within the link's wait is not given up; the rate counts from it")
    func abandonWithLatency() {
        let bytes = Int(1_010_000 * segment / 8)
        let waiting = AdaptiveBitratePolicy.DownloadProgress(loadedBytes: 0, expectedBytes: bytes, elapsed: 1.2)
        func decide(_ progress: AdaptiveBitratePolicy.DownloadProgress, latency: Double)
            -> AdaptiveBitratePolicy.AbandonDecision
        {
            policy.shouldAbandon(
                progress, rung: 1, segmentDuration: segment, buffer: 2, estimate: 2.5e6, latency: latency)
        }
        // Nothing after 1.2 s is stuck on a link that answers at once, normal on one that answers after a second.
        #expect(decide(waiting, latency: 0) == .abandon(switchTo: 0))
        #expect(decide(waiting, latency: 1) == .keepLoading)
        // Answered after a second, half the bytes in the 0.5 s since at 2 Mbit/s: the rest comes in 0.5 s.
        let half = AdaptiveBitratePolicy.DownloadProgress(
            loadedBytes: bytes / 2, expectedBytes: bytes, elapsed: 1.6, timeToFirstByte: 1)
        #expect(decide(half, latency: 1) == .keepLoading)
        // No answer long after the wait it should have taken: stuck, given up.
        let stuck = AdaptiveBitratePolicy.DownloadProgress(loadedBytes: 0, expectedBytes: bytes, elapsed: 3)
        #expect(decide(stuck, latency: 1) == .abandon(switchTo: 0))
    }

    /// A 1080p segment (7.2 Mbit) on an 8 Mbit/s link that answered in 50 ms, and now has not answered for 1.5 s
    /// (its latency rose): with 20 s of buffer it is waited for (it may wait as long again and take 0.9 s), as a
    /// replacement on a lower rung would wait too; with 2 s of buffer it cannot be (2.35 s), and 720p is fetched
    /// instead (0.05 s wait, 3.8 Mbit at 80 % of 8 Mbit/s: 0.65 s in all).
    @Test("a late answer on a full buffer is waited for; on a short one it is given up")
    func aLateAnswerOnAFullBuffer() {
        let bytes = Int(3_610_000 * segment / 8)
        let late = AdaptiveBitratePolicy.DownloadProgress(loadedBytes: 0, expectedBytes: bytes, elapsed: 1.5)
        func decide(buffer: Double) -> AdaptiveBitratePolicy.AbandonDecision {
            policy.shouldAbandon(late, rung: 3, segmentDuration: segment, buffer: buffer, estimate: 8e6, latency: 0.05)
        }
        #expect(decide(buffer: 20) == .keepLoading)
        #expect(decide(buffer: 6) == .keepLoading)
        #expect(decide(buffer: 2) == .abandon(switchTo: 2))
    }

    @Test("the rate over the last second counts from the answer, not from the request")
    func recentRateFromTheAnswer() {
        var rate = AdaptiveBitratePolicy.RecentRate()
        rate.add(bytes: 0, elapsed: 0.5, respondedAfter: nil)
        rate.add(bytes: 0, elapsed: 0.9, respondedAfter: nil)
        #expect(rate.bitsPerSecond == nil)
        rate.add(bytes: 62_500, elapsed: 1.5, respondedAfter: 1)
        rate.add(bytes: 125_000, elapsed: 2, respondedAfter: 1)
        #expect(rate.bitsPerSecond == 1_000_000)
    }
}
