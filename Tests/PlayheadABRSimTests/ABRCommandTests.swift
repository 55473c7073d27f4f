import Foundation
import PlayheadTestSupport
import Testing

/// `playhead-abr-sim` as a command: the `--json` shape the issue fixes, and one-line errors with a non-zero exit
/// for bad files and flags.
@Suite("playhead-abr-sim command")
struct ABRCommandTests {
    func sim(_ arguments: [String]) throws -> Run.Result {
        let path = Paths.packageRoot.appendingPathComponent(".build/debug/playhead-abr-sim").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw TestSupportError("\(path) is missing: run 'swift build' before the tests")
        }
        return try Run.command(path, arguments, timeout: 60)
    }

    /// A 6-segment, 3-rung movie and a 2-period trace in a scratch folder.
    func files() throws -> (movie: String, trace: String, folder: URL) {
        let folder = Paths.scratch("abr-cmd")
        let movie = folder.appendingPathComponent("movie.json")
        let sizes = Array(repeating: "[600000, 1500000, 3000000]", count: 6).joined(separator: ", ")
        try #"{"segment_duration_ms": 3000, "bitrates_kbps": [200, 500, 1000], "segment_sizes_bits": [\#(sizes)]}"#
            .write(to: movie, atomically: true, encoding: .utf8)
        let traces = folder.appendingPathComponent("traces")
        try FileManager.default.createDirectory(at: traces, withIntermediateDirectories: true)
        let trace = traces.appendingPathComponent("a.json")
        try
            #"[{"duration_ms": 4000, "bandwidth_kbps": 1500, "latency_ms": 50}, {"duration_ms": 2000, "bandwidth_kbps": 300, "latency_ms": 50}]"#
            .write(to: trace, atomically: true, encoding: .utf8)
        try "0 1.2\n5 0.4\n".write(to: traces.appendingPathComponent("b.txt"), atomically: true, encoding: .utf8)
        return (movie.path, traces.path, folder)
    }

    @Test("--json: the traces counted and every policy's measures, by the exact names, as numbers")
    func jsonShape() throws {
        let (movie, traces, _) = try files()
        let r = try sim(["--movie", movie, "--traces", traces, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["traces"] as? Int == 2)
        // Numbers, never strings or booleans.
        #expect(!r.stdout.contains("true") && !r.stdout.contains("false") && !r.stdout.contains(": \""), "\(r.stdout)")
        let policies = try #require(object["policies"] as? [String: [String: Any]])
        #expect(
            Set(policies.keys)
                == ["playhead", "throughput", "bola-e", "hls-ewma", "dynamic", "robust-mpc", "optimal"])
        let keys: Set = [
            "bitrate_kbps", "rebuffer_ratio", "rebuffer_events", "switches", "switch_kbps", "startup_s", "qoe_lin",
        ]
        for (name, m) in policies {
            #expect(Set(m.keys) == keys, "\(name): \(m.keys)")
            #expect(m.values.allSatisfy { $0 is NSNumber }, "\(name): \(m)")
        }
        let optimal = try #require(policies["optimal"]?["qoe_lin"] as? Double)
        for (name, m) in policies { #expect((m["qoe_lin"] as? Double ?? .infinity) <= optimal + 1e-9, "\(name)") }
        // One policy asked for: only that one.
        let one = try sim(["--movie", movie, "--traces", traces, "--policy", "bola-e", "--json"])
        let only = try JSONSerialization.jsonObject(with: Data(one.stdout.utf8)) as? [String: Any]
        #expect((only?["policies"] as? [String: Any])?.keys.sorted() == ["bola-e"])
    }

    @Test("--frontier --json: the optimum at each charge per stalled second, the metric's first, as numbers")
    func frontierShape() throws {
        let (movie, traces, _) = try files()
        let r = try sim(["--movie", movie, "--traces", traces, "--frontier", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any])
        #expect(object["traces"] as? Int == 2 && object["policies"] == nil)
        let points = try #require(object["frontier"] as? [[String: Double]])
        let charges = points.map { $0["stall_penalty"] ?? 0 }
        #expect(charges.count == 5 && zip(charges, [4.3, 8.6, 21.5, 43, 430]).allSatisfy { abs($0 - $1) < 1e-9 })
        // The metric's own charge is the optimum's: the same run as `--policy optimal`.
        let plain = try sim(["--movie", movie, "--traces", traces, "--policy", "optimal", "--json"])
        let optimal = try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any]
        let best = (optimal?["policies"] as? [String: [String: Double]])?["optimal"]
        #expect(
            best?["qoe_lin"] == points.first?["qoe_lin"] && best?["rebuffer_ratio"] == points.first?["rebuffer_ratio"])
        // Charged more, it never scores higher by the metric, nor stalls more (on these traces: merging buffer states
        // within buckets makes each point a lower bound, which may break the order elsewhere by a bucket's worth).
        for (a, b) in zip(points, points.dropFirst()) {
            #expect(
                b["qoe_lin"]! <= a["qoe_lin"]! + 1e-9 && b["rebuffer_ratio"]! <= a["rebuffer_ratio"]! + 1e-9,
                "\(points)")
        }
    }

    @Test("--segments: each trace's runs segment by segment, telling the same runs as the means")
    func segments() throws {
        let (movie, traces, _) = try files()
        let trace = traces + "/a.json"
        let r = try sim([
            "--movie", movie, "--traces", trace, "--policy", "playhead", "--policy", "optimal", "--segments",
        ])
        #expect(r.status == 0, "\(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "trace a", "\(r.stdout)")
        // The movie's 6 segments, each with a request time, a buffer and a bit rate of the ladder per policy.
        let rows = lines.filter { $0.first == " " && Int($0.split(separator: " ").first ?? "") != nil }
        #expect(rows.count == 6, "\(r.stdout)")
        var kbps: [[Double]] = [[], []]
        for row in rows {
            let cells = row.split(separator: " ").map { String($0).replacingOccurrences(of: "*", with: "") }
            #expect(cells.count == 7, "\(row)")
            guard cells.count == 7 else { continue }
            for p in 0..<2 {
                let rate = Double(cells[3 + 3 * p]) ?? -1
                #expect([200, 500, 1000].contains(rate), "\(row)")
                kbps[p].append(rate)
            }
        }
        // Both request the first segment at once, with nothing buffered.
        let first = rows.first?.split(separator: " ").map(String.init) ?? []
        #expect(first.count == 7 && first[1] == "0.0" && first[2] == "0.0" && first[4] == "0.0" && first[5] == "0.0")
        // The same runs as the means: each column's bit rate and the summary's qoe_lin are what --json reports.
        let means = try sim([
            "--movie", movie, "--traces", trace, "--policy", "playhead", "--policy", "optimal", "--json",
        ])
        let object = try JSONSerialization.jsonObject(with: Data(means.stdout.utf8)) as? [String: Any]
        let policies = try #require(object?["policies"] as? [String: [String: Double]])
        for (p, name) in ["playhead", "optimal"].enumerated() {
            let m = try #require(policies[name])
            let mean = kbps[p].reduce(0, +) / Double(max(kbps[p].count, 1))
            #expect(abs(mean - (m["bitrate_kbps"] ?? -1)) < 0.5, "\(name): \(kbps[p]) against \(m)")
            let summary = lines.first { $0.hasPrefix("  \(name): ") } ?? ""
            #expect(summary.contains(String(format: "qoe_lin %.3f", m["qoe_lin"] ?? .nan)), "\(summary) against \(m)")
        }
    }

    @Test("bad files and flags: one line naming the file or flag, exit 2")
    func badInput() throws {
        let (movie, traces, folder) = try files()
        let garbled = folder.appendingPathComponent("garbled.json")
        try "[{\"duration_ms\": ".write(to: garbled, atomically: true, encoding: .utf8)
        let cases: [([String], String)] = [
            (["--movie", "/nonexistent/movie.json", "--traces", traces], "/nonexistent/movie.json"),
            (["--movie", movie, "--traces", garbled.path], garbled.path),
            (["--movie", movie, "--traces", "/nonexistent/traces"], "/nonexistent/traces"),
            (["--movie", movie, "--traces", traces, "--buffer", "-5"], "--buffer"),
            (["--movie", movie, "--traces", traces, "--buffer", "1e9"], "--buffer"),
            (["--movie", movie, "--traces", traces, "--buffer", "2"], "shorter than one segment"),
            (["--movie", movie, "--traces", traces, "--buffer", "abc"], "--buffer"),
            (["--movie", movie, "--traces", traces, "--policy", "bola"], "unknown policy"),
            (["--traces", traces], "--movie is required"),
            (["--movie", movie], "--traces is required"),
            (["--movie", movie, "--traces", traces, "--frobnicate"], "--frobnicate"),
            (["--movie", movie, "--traces", traces, "--frontier", "--policy", "optimal"], "--frontier"),
            (["--movie", movie, "--traces", traces, "--segments", "--json"], "--segments"),
        ]
        for (arguments, culprit) in cases {
            let r = try sim(arguments)
            #expect(r.status == 2, "\(arguments): exit \(r.status)")
            let lines = r.stderr.split(separator: "\n")
            #expect(lines.count == 1 && r.stderr.contains(culprit), "\(arguments): \(r.stderr)")
            #expect(r.stdout.isEmpty, "\(arguments): \(r.stdout)")
        }
    }
}
