import Foundation

/// A run of the real player read back from its `--log-json` events, for comparison with the simulator: the rung
/// of each media segment is found from its `segment-loaded` byte count (the ladder's segments have exact, known
/// sizes), stalls from `stalled`/`resumed`, start-up from the first event to the first `resumed` (or
/// `first-audio`). A value type, safe anywhere.
public enum ABRPlayerLog {
    /// Reads the JSON lines of a `--log-json` file into a run of `movie`, whose segment `k` on rung `r` is
    /// `bytes[k][r]` bytes long; throws a one-line `ABRInputError` when a line is not JSON or nothing was loaded.
    /// `segment-loaded` events whose size matches no rung of the next segment (an abandoned download) are skipped.
    public static func run(jsonLines text: String, bytes: [[Int]]) throws -> ABRRun {
        var run = ABRRun()
        var first: Double?
        var stalledAt: Double?
        var started: Double?
        for (n, line) in text.split(separator: "\n").enumerated() {
            guard let o = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                let event = o["event"] as? String, let time = (o["time"] as? NSNumber)?.doubleValue
            else { throw ABRInputError("--log-json line \(n + 1) is not an event object") }
            if first == nil { first = time }
            switch event {
            case "segment-loaded":
                let k = run.rungs.count
                guard k < bytes.count, let size = (o["bytes"] as? NSNumber)?.intValue,
                    let rung = bytes[k].firstIndex(of: size)
                else { continue }
                run.rungs.append(rung)
                run.requestTimes.append(time - (first ?? time))
            case "first-audio", "first-video":
                if started == nil { started = time }
            case "stalled":
                if started != nil, stalledAt == nil {
                    stalledAt = time
                    run.rebufferEvents += 1
                    run.stalls.append(time - (first ?? time))
                }
            case "resumed":
                if let s = stalledAt {
                    run.rebufferSeconds += time - s
                    stalledAt = nil
                }
            default: break
            }
        }
        guard !run.rungs.isEmpty else { throw ABRInputError("--log-json: no media segment of the ladder was loaded") }
        run.startup = (started ?? first ?? 0) - (first ?? 0)
        return run
    }

    /// The player's reaction time in a `--log-json` file, in seconds: the median, over consecutive `segment-loaded`
    /// events with no `variant-switch` between them (a switch adds a playlist request), of the time from one
    /// segment's arrival to the next one's request (its arrival less its transfer `seconds`), at least 0; 0 when
    /// there is no such pair. Lines that are not events are skipped (`run(jsonLines:bytes:)` reports them).
    public static func reactionTime(jsonLines text: String) -> Double {
        var gaps: [Double] = []
        var previous: Double?
        for line in text.split(separator: "\n") {
            guard let o = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any],
                let event = o["event"] as? String, let time = (o["time"] as? NSNumber)?.doubleValue
            else { continue }
            if event == "variant-switch" { previous = nil }
            guard event == "segment-loaded", let seconds = (o["seconds"] as? NSNumber)?.doubleValue else { continue }
            if let previous { gaps.append(max(time - seconds - previous, 0)) }
            previous = time
        }
        guard !gaps.isEmpty else { return 0 }
        gaps.sort()
        return gaps.count % 2 == 1 ? gaps[gaps.count / 2] : (gaps[gaps.count / 2 - 1] + gaps[gaps.count / 2]) / 2
    }
}
