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
}
