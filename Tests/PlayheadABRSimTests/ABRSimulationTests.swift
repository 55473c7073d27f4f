import Foundation
import PlayheadTestSupport
import Testing

@testable import PlayheadHLS

/// The Sabre corpus (`../shared/corpora/traces/sabre/example/mmsys18`).
private let sabre = Paths.corpora.appendingPathComponent("traces/sabre/example/mmsys18")

private func loadMovie() throws -> Movie {
    try JSONDecoder().decode(Movie.self, from: Data(contentsOf: sabre.appendingPathComponent("bbb.json")))
}

/// The first `limit` traces of `folder` (sorted by name) that pass `filter`.
private func traces(_ folder: String, limit: Int, where filter: (NetworkTrace) -> Bool) throws -> [NetworkTrace] {
    let names = try FileManager.default.contentsOfDirectory(atPath: sabre.appendingPathComponent(folder).path)
        .filter { $0.hasSuffix(".json") }.sorted()
    var picked: [NetworkTrace] = []
    for name in names where picked.count < limit {
        let trace = try NetworkTrace.load(sabre.appendingPathComponent(folder).appendingPathComponent(name))
        if filter(trace) { picked.append(trace) }
    }
    return picked
}

/// A synthetic trace in Sabre's format: `steps` of (seconds, kbit/s), 20 ms latency.
private func stepTrace(_ steps: [(Double, Double)]) -> NetworkTrace {
    NetworkTrace(
        periods: steps.map { .init(duration_ms: $0.0 * 1000, bandwidth_kbps: $0.1, latency_ms: 20) }, name: "steps")
}

@Suite("ABR simulation over Sabre traces with bbb.json")
struct ABRSimulationTests {
    @Test("no rebuffering when the lowest rung fits the bandwidth; the ladder is climbed when there is room")
    func noRebufferWhenLowestFits() throws {
        let movie = try loadMovie()
        let lowestPeak = movie.segment_sizes_bits.map { $0[0] }.max()! / movie.segmentDuration / 1000
        var picked: [NetworkTrace] = []
        for folder in ["4Glogs", "hd_fs", "sd_fs"] {
            picked += try traces(folder, limit: 2) { $0.minimumKbps >= lowestPeak * 1.2 }
        }
        #expect(picked.count == 6)
        for trace in picked {
            var simulation = ABRSimulation(movie: movie, trace: trace)
            simulation.run()
            #expect(simulation.rebufferEvents == 0, "\(trace.name): stalls at \(simulation.stalls)")
            // Above the lowest rung on average: the policy used the room the trace gave.
            #expect(simulation.averageKbps > movie.bitrates_kbps[1], "\(trace.name): \(simulation.averageKbps) kbit/s")
        }
    }

    @Test("a step down switches down before the buffer empties, and back up after the step up")
    func stepDownAndUp() throws {
        let movie = try loadMovie()
        let drop = 90.0
        let recover = 180.0
        let trace = stepTrace([(drop, 8000), (recover - drop, 700), (600, 8000)])
        var simulation = ABRSimulation(movie: movie, trace: trace)
        simulation.run(segments: 110)
        #expect(simulation.rebufferEvents == 0, "stalls at \(simulation.stalls)")
        let before = simulation.requests.filter { $0.time < drop }
        let during = simulation.requests.filter { $0.time >= drop + 10 && $0.time < recover }
        let recovering = simulation.requests.filter { $0.time >= recover }
        let after = simulation.requests.filter { $0.time >= recover + 30 }
        let high = movie.bitrates_kbps.firstIndex { $0 >= 2900 }!
        #expect(before.contains { $0.rung >= high }, "climbed before the drop")
        // After the drop, every segment fits the new bandwidth, and the first such choice came with buffer left.
        #expect(!during.isEmpty && during.allSatisfy { movie.bitrates_kbps[$0.rung] <= 700 })
        let firstFit = simulation.requests.first { $0.time >= drop && movie.bitrates_kbps[$0.rung] <= 700 }
        #expect((firstFit?.buffer ?? 0) > 0)
        // Back up within 30 s of the step up (the slow average paces the climb), without stepping back down.
        #expect(!after.isEmpty && after.allSatisfy { $0.rung >= high }, "back up after the step up")
        #expect(zip(recovering, recovering.dropFirst()).allSatisfy { $0.rung <= $1.rung }, "no oscillation")
    }

    @Test("abandoning the segment in flight when the bandwidth collapses avoids the stall that waiting causes")
    func abandonOnCollapse() throws {
        let movie = try loadMovie()
        let trace = stepTrace([(60, 10_000), (600, 400)])
        var simulation = ABRSimulation(movie: movie, trace: trace)
        simulation.run(segments: 60)
        var patient = ABRSimulation(movie: movie, trace: trace)
        patient.policy.configuration.minimumElapsedBeforeAbandon = .infinity
        patient.run(segments: 60)
        #expect(!simulation.abandons.isEmpty && simulation.abandons.allSatisfy { $0.time >= 60 && $0.to < $0.from })
        #expect(simulation.rebufferEvents == 0, "stalls at \(simulation.stalls)")
        #expect(patient.abandons.isEmpty && patient.rebufferSeconds > 0)
    }

    @Test("on 3G traces with outages, rebuffering stays near the unavoidable (lowest rung only) at a higher bit rate")
    func outages() throws {
        let movie = try loadMovie()
        let lowest = movie.bitrates_kbps[0] * 1000
        for trace in try traces("3Glogs", limit: 4, where: { $0.minimumKbps < 100 }) {
            var baseline = ABRSimulation(movie: movie, trace: trace, caps: .init(peakBitRate: lowest))
            baseline.run(segments: 120)
            var simulation = ABRSimulation(movie: movie, trace: trace)
            simulation.run(segments: 120)
            #expect(
                simulation.rebufferSeconds <= baseline.rebufferSeconds + 15,
                "\(trace.name): \(simulation.rebufferSeconds) s against \(baseline.rebufferSeconds) s")
            #expect(simulation.averageKbps >= baseline.averageKbps, "\(trace.name)")
        }
    }

    @Test("caps are never exceeded, on broadband and on 3G traces")
    func capsHold() throws {
        let movie = try loadMovie()
        let cap = 1_500_000.0
        let allowed = movie.bitrates_kbps.filter { $0 * 1000 <= cap }.max()!
        let picked = try traces("4Glogs", limit: 2) { _ in true } + traces("3Glogs", limit: 3) { _ in true }
        var reachedCap = false
        for trace in picked {
            var simulation = ABRSimulation(movie: movie, trace: trace, caps: .init(peakBitRate: cap))
            simulation.run(segments: 80)
            let highest = simulation.requests.map { movie.bitrates_kbps[$0.rung] }.max()!
            #expect(highest <= cap / 1000, "\(trace.name)")
            reachedCap = reachedCap || highest == allowed
        }
        #expect(reachedCap, "the cap binds on the fast traces")
    }
}
