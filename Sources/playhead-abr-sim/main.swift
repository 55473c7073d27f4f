import Foundation
import PlayheadABRSim

/// `playhead-abr-sim`: simulates each policy over each trace and prints their mean measures (a table, or JSON with
/// `--json`). Bad input: one line on stderr naming the file or flag, exit status 2. Runs on the main thread.
func main() -> Int32 {
    do {
        let options = try Options(Array(CommandLine.arguments.dropFirst()))
        let movie = try ABRMovie.load(URL(fileURLWithPath: options.movie))
        guard options.buffer >= movie.segmentDuration else {
            throw ABRInputError(
                "--buffer: \(options.buffer) s is shorter than one segment of \(options.movie) "
                    + "(\(movie.segmentDuration) s)")
        }
        let traces = try ABRTrace.load(paths: options.traces)
        let benchmark = ABRBenchmark(
            movie: movie, traces: traces, policies: options.policies, maximumBuffer: options.buffer)
        if !options.frontier.isEmpty {
            let results = benchmark.frontier(penalties: options.frontier)
            if options.json {
                let points = zip(options.frontier, results).map { p, m in
                    m.jsonObject.merging(["stall_penalty": p]) { a, _ in a }
                }
                let object: [String: Any] = ["traces": traces.count, "frontier": points]
                let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
                print(String(decoding: data, as: UTF8.self))
            } else {
                let names = options.frontier.map { String(format: "opt@%g", $0) }
                print(table(names, results, traces: traces.count))
            }
            return 0
        }
        if options.segments {
            for trace in traces {
                let session = ABRSession(movie: movie, trace: trace, maximumBuffer: options.buffer)
                print(segmentTable(trace: trace.name, options.policies.map { ($0.rawValue, $0.run(session)) }, movie))
            }
            return 0
        }
        let results = benchmark.run()
        if options.json {
            var policies: [String: Any] = [:]
            for (p, m) in zip(options.policies, results) { policies[p.rawValue] = m.jsonObject }
            let object: [String: Any] = ["traces": traces.count, "policies": policies]
            let data = try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(table(options.policies.map(\.rawValue), results, traces: traces.count))
        }
        return 0
    } catch let e as ABRInputError {
        try? FileHandle.standardError.write(contentsOf: Data("playhead-abr-sim: \(e.description)\n".utf8))
        return 2
    } catch {
        try? FileHandle.standardError.write(contentsOf: Data("playhead-abr-sim: \(error)\n".utf8))
        return 1
    }
}

/// The measures as a fixed-width table.
func table(_ policies: [String], _ results: [ABRMetrics], traces: Int) -> String {
    func cell(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(width - s.count, 0)) + s }
    var lines = [
        "\(traces) traces",
        cell("policy", 11) + cell("kbps", 9) + cell("rebuf", 9) + cell("events", 8) + cell("switches", 9)
            + cell("sw kbps", 9) + cell("start s", 8) + cell("qoe_lin", 9),
    ]
    for (p, m) in zip(policies, results) {
        lines.append(
            cell(p, 11) + cell(String(format: "%.0f", m.bitrateKbps), 9)
                + cell(String(format: "%.4f", m.rebufferRatio), 9) + cell(String(format: "%.2f", m.rebufferEvents), 8)
                + cell(String(format: "%.1f", m.switches), 9) + cell(String(format: "%.0f", m.switchKbps), 9)
                + cell(String(format: "%.2f", m.startup), 8) + cell(String(format: "%.3f", m.qoeLin), 9))
    }
    return lines.joined(separator: "\n")
}

exit(main())
