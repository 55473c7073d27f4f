import Foundation
import PlayheadTestSupport

/// A `--log-json` file for one `playhead` run whose sound a test checks for gaps: its `audio-underflow` events say
/// in a failure message whether the player logged a dropout, and how long after its last write (near 0: it had
/// nothing to write, or the machine stood still; 0.3 s or more: the player itself was held back). Test thread.
struct DropoutLog {
    /// The log file.
    let url = Paths.scratch("dropouts").appendingPathComponent("events.jsonl")

    /// The option that writes it.
    var argument: String { "--log-json=\(url.path)" }

    /// The dropouts logged, one phrase: "no dropout logged", or each one's time and seconds since the last write.
    var summary: String {
        let text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        let dropouts = text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["event"] as? String == "audio-underflow" }
        guard !dropouts.isEmpty else { return "no dropout logged" }
        return "dropouts logged at "
            + dropouts.map { d in
                let time = (d["time"] as? Double).map { String(format: "%.3f s", $0) } ?? "?"
                let since = (d["since-write"] as? Double).map { String(format: "%.3f s", $0) } ?? "?"
                return "\(time) (\(since) after a write)"
            }.joined(separator: ", ")
    }
}
