import Foundation
import PlayheadABRSim

/// The command line: `--movie PATH --traces DIR|FILE... [--policy NAME]... [--buffer SECONDS] [--frontier] [--segments]
/// [--json]`.
/// Parsed on the main thread.
struct Options {
    var movie = ""
    var traces: [String] = []
    var policies: [ABRPolicy] = []
    var buffer = 25.0
    var json = false
    /// Instead of the policies: the offline optimum at each of these charges per stalled second (`--frontier`).
    var frontier: [Double] = []
    /// Instead of the means: each trace's run, segment by segment, each policy beside the others (`--segments`).
    var segments = false

    /// The charges `--frontier` tries: the metric's own 4.3 Mbit/s, then 2, 5, 10 and 100 times it.
    static let frontierPenalties = [1.0, 2, 5, 10, 100].map { $0 * ABRMetrics.rebufferPenalty }

    static let usage =
        "usage: playhead-abr-sim --movie PATH --traces DIR|FILE... [--policy NAME]... [--buffer SECONDS] "
        + "[--frontier] [--segments] [--json]"

    /// Parses `arguments` (without the program name); throws a one-line `ABRInputError` for anything wrong.
    init(_ arguments: [String]) throws {
        var i = 0
        func value(_ flag: String) throws -> String {
            i += 1
            guard i < arguments.count, !arguments[i].hasPrefix("--") else {
                throw ABRInputError("\(flag) needs a value")
            }
            return arguments[i]
        }
        while i < arguments.count {
            let a = arguments[i]
            switch a {
            case "--movie": movie = try value(a)
            case "--traces":
                let before = traces.count
                while i + 1 < arguments.count, !arguments[i + 1].hasPrefix("--") {
                    i += 1
                    traces.append(arguments[i])
                }
                if traces.count == before { throw ABRInputError("--traces needs at least one folder or file") }
            case "--policy":
                let name = try value(a)
                guard let p = ABRPolicy(rawValue: name) else {
                    let known = ABRPolicy.allCases.map(\.rawValue).joined(separator: ", ")
                    throw ABRInputError("--policy: unknown policy \"\(name)\" (known: \(known))")
                }
                if !policies.contains(p) { policies.append(p) }
            case "--buffer":
                let text = try value(a)
                guard let b = Double(text), b.isFinite else {
                    throw ABRInputError("--buffer: \"\(text)\" is not a number of seconds")
                }
                guard (1...3600).contains(b) else {
                    throw ABRInputError("--buffer: \(text) s is out of range (1 to 3600 seconds)")
                }
                buffer = b
            case "--json": json = true
            case "--frontier": frontier = Self.frontierPenalties
            case "--segments": segments = true
            case "-h", "--help": throw ABRInputError(Self.usage)
            default: throw ABRInputError("unknown argument \"\(a)\"; \(Self.usage)")
            }
            i += 1
        }
        guard !movie.isEmpty else { throw ABRInputError("--movie is required; \(Self.usage)") }
        guard !traces.isEmpty else { throw ABRInputError("--traces is required; \(Self.usage)") }
        if !frontier.isEmpty, !policies.isEmpty {
            throw ABRInputError("--frontier runs the offline optimum only: it takes no --policy")
        }
        if segments, json || !frontier.isEmpty {
            throw ABRInputError("--segments prints each run as text: it takes no --json or --frontier")
        }
        if policies.isEmpty { policies = ABRPolicy.allCases }
    }
}
