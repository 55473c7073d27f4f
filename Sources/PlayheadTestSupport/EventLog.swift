import Foundation

/// What `playhead --log-json=PATH` wrote: one JSON object per line.
public enum EventLog {
    /// Every event in the log at `url`, in order (lines that are not JSON objects left out).
    public static func read(_ url: URL) throws -> [[String: Any]] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
    }

    /// The events named `name` ("seek-done", "ended").
    public static func named(_ name: String, in events: [[String: Any]]) -> [[String: Any]] {
        events.filter { $0["event"] as? String == name }
    }

    /// Where each seek that finished landed (`seek-done` events whose `finished` is true), in order.
    public static func seeksLanded(in events: [[String: Any]]) -> [Double] {
        named("seek-done", in: events).filter { $0["finished"] as? Bool != false }.compactMap {
            $0["position"] as? Double
        }
    }
}
