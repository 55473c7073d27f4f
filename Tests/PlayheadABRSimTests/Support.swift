import Foundation
import PlayheadABRSim
import PlayheadTestSupport

/// The Sabre corpus (`../shared/corpora/traces/sabre/example/mmsys18`).
let sabre = Paths.corpora.appendingPathComponent("traces/sabre/example/mmsys18")

/// `bbb.json` (or another movie of the corpus).
func loadMovie(_ name: String = "bbb.json") throws -> ABRMovie {
    try ABRMovie.load(sabre.appendingPathComponent(name))
}

/// The first `limit` traces of `folder` (sorted by name) that pass `filter`.
func traces(_ folder: String, limit: Int, where filter: (ABRTrace) -> Bool = { _ in true }) throws -> [ABRTrace] {
    let names = try FileManager.default.contentsOfDirectory(atPath: sabre.appendingPathComponent(folder).path)
        .filter { $0.hasSuffix(".json") }.sorted()
    var picked: [ABRTrace] = []
    for name in names where picked.count < limit {
        let trace = try ABRTrace.load(sabre.appendingPathComponent(folder).appendingPathComponent(name))
        if filter(trace) { picked.append(trace) }
    }
    return picked
}

/// A trace of `steps` (seconds, kbit/s) with `latencyMs` of latency; the last step repeats with the others.
func stepTrace(_ steps: [(Double, Double)], latencyMs: Double = 20) throws -> ABRTrace {
    try ABRTrace(
        name: "steps",
        periods: steps.map { .init(duration: $0.0, bandwidth: $0.1 * 1000, latency: latencyMs / 1000) })
}

/// A movie of `count` segments of `duration` seconds whose sizes are exactly bit rate × duration.
func flatMovie(kbps: [Double], duration: Double, count: Int) throws -> ABRMovie {
    try ABRMovie(
        name: "flat", segmentDuration: duration, bitratesKbps: kbps,
        segmentSizes: Array(repeating: kbps.map { $0 * 1000 * duration }, count: count))
}

/// The online policies.
let onlinePolicies = ABRPolicy.allCases.filter { $0 != .optimal }
