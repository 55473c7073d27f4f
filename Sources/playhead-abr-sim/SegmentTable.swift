import Foundation
import PlayheadABRSim

/// `--segments`: one trace's runs, each policy beside the others, so that a difference in the means can be traced to
/// the segments where the policies parted. First a line per policy (its `qoe_lin`, stalls and abandoned downloads),
/// then a row per segment with, for each policy, when it was requested (simulated seconds), the buffer then
/// (seconds) and the bit rate fetched (kbit/s; `*` after it: a download of that segment was given up first).
/// Runs on the caller's thread.
func segmentTable(trace: String, _ runs: [(name: String, run: ABRRun)], _ movie: ABRMovie) -> String {
    var lines = ["trace \(trace)"]
    for (name, run) in runs {
        let m = ABRMetrics(run, movie: movie)
        var line = "  \(name): qoe_lin \(fixed(m.qoeLin, 3)), start-up \(fixed(run.startup, 2)) s, "
        line += "\(fixed(run.rebufferSeconds, 2)) s stalled in \(run.rebufferEvents) stall"
        line += run.rebufferEvents == 1 ? "" : "s"
        if !run.stalls.isEmpty {
            line += " (at " + run.stalls.map { fixed($0, 1) + " s" }.joined(separator: ", ") + ")"
        }
        if !run.abandons.isEmpty {
            line += "; abandoned: "
            line += run.abandons.map { a in
                "segment \(a.segment) at \(fixed(a.time, 1)) s, \(kbps(a.from, movie)) -> \(kbps(a.to, movie)) kbit/s"
            }.joined(separator: ", ")
        }
        lines.append(line)
    }
    let width = 24
    func cell(_ s: String, _ w: Int) -> String { String(repeating: " ", count: max(w - s.count, 0)) + s }
    lines.append(cell("segment", 7) + runs.map { cell($0.name, width) }.joined())
    lines.append(cell("", 7) + runs.map { _ in cell("at s", 9) + cell("buffer", 7) + cell("kbps", 8) }.joined())
    for segment in 0..<movie.segmentCount {
        var row = cell("\(segment)", 7)
        for (_, run) in runs {
            guard run.rungs.indices.contains(segment) else {
                row += cell("-", width)
                continue
            }
            let mark = run.abandons.contains { $0.segment == segment } ? "*" : " "
            row += cell(fixed(run.requestTimes[segment], 1), 9) + cell(fixed(run.buffers[segment], 1), 7)
            row += cell(kbps(run.rungs[segment], movie) + mark, 8)
        }
        lines.append(row)
    }
    return lines.joined(separator: "\n")
}

/// `value` with `digits` decimals.
private func fixed(_ value: Double, _ digits: Int) -> String { String(format: "%.\(digits)f", value) }

/// A rung's bit rate in kbit/s, as the movie declares it.
private func kbps(_ rung: Int, _ movie: ABRMovie) -> String {
    movie.bitratesKbps.indices.contains(rung) ? String(format: "%.0f", movie.bitratesKbps[rung]) : "?"
}
