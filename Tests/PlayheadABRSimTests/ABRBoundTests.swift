import Foundation
import PlayheadABRSim
import Testing

/// The offline optimum against every online policy on a small subset of each set.
@Suite("ABR offline optimum")
struct ABRBoundTests {
    @Test("the optimum is never beaten by an online policy (2 traces of each set, 30 segments of each movie)")
    func optimumIsNeverBeaten() throws {
        for movieName in ["bbb.json", "bbb4k.json"] {
            let movie = try loadMovie(movieName).prefix(30)
            for folder in ["3Glogs", "4Glogs", "sd_fs", "hd_fs"] {
                for trace in try traces(folder, limit: 2) {
                    let session = ABRSession(movie: movie, trace: trace)
                    let best = ABRMetrics(ABRPolicy.optimal.run(session), movie: movie).qoeLin
                    for policy in onlinePolicies {
                        let q = ABRMetrics(policy.run(session), movie: movie).qoeLin
                        #expect(q <= best + 1e-9, "\(movieName) \(folder)/\(trace.name): \(policy) \(q) > \(best)")
                    }
                }
            }
        }
    }

    @Test("the optimum's plan is what its replay plays, and finer buckets never do worse on these traces")
    func replayMatchesPlan() throws {
        let movie = try loadMovie().prefix(30)
        for trace in try traces("3Glogs", limit: 2) {
            let session = ABRSession(movie: movie, trace: trace)
            let coarse = ABRMetrics(OfflineOptimal(bucket: 1).run(session), movie: movie).qoeLin
            let fine = ABRMetrics(OfflineOptimal(bucket: 0.1).run(session), movie: movie).qoeLin
            #expect(fine >= coarse - 1e-9, "\(trace.name): \(fine) < \(coarse)")
            #expect(OfflineOptimal().rungs(session).count == movie.segmentCount)
        }
    }

    /// Rungs of 1 and 10 Mbit/s, four 2 s segments, a constant 8 Mbit/s without latency. By hand, at the metric's
    /// 4.3 per stalled second all four on rung 1 score best: 2.5 s of start-up, then each segment takes 2.5 s while
    /// 2 s play, three stalls of 0.5 s: 40 − 4.3 × 4 = 22.8 (0, 1, 1, 1: 31 − 9 − 4.3 × 0.75 = 18.775). Charged 43 a
    /// second, the optimum stalls not at all: 0, 0, 1, 1 (the buffer at 2 s, then 3.75 s, then 3.25 s; 2.75 s left),
    /// which the metric scores 22 − 9 − 4.3 × 0.25 = 11.925.
    @Test("charged more for a stalled second, the optimum buys no stall with bit rate")
    func stallPenaltyTradesBitRateForStalls() throws {
        let movie = try flatMovie(kbps: [1000, 10000], duration: 2, count: 4)
        let session = ABRSession(movie: movie, trace: try stepTrace([(1000, 8000)], latencyMs: 0))
        let metric = OfflineOptimal().run(session)
        #expect(metric.rungs == [1, 1, 1, 1] && abs(metric.rebufferSeconds - 1.5) < 1e-9, "\(metric)")
        #expect(abs(ABRMetrics(metric, movie: movie).qoeLin - 22.8 / 4) < 1e-9)
        let strict = OfflineOptimal(stallPenalty: 43).run(session)
        #expect(strict.rungs == [0, 0, 1, 1] && strict.rebufferSeconds == 0, "\(strict)")
        #expect(abs(ABRMetrics(strict, movie: movie).qoeLin - 11.925 / 4) < 1e-9)
        let frontier = ABRBenchmark(movie: movie, traces: [session.trace], policies: [])
            .frontier(penalties: [4.3, 43])
        #expect(frontier.map(\.rebufferRatio) == [ABRMetrics(metric, movie: movie).rebufferRatio, 0])
    }
}
