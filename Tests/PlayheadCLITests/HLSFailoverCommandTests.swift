import Foundation
import PlayheadTestSupport
import Testing

/// `playhead` when an HLS variant fails for good and its redundant copy takes over (issue 15).
@Suite(.serialized) struct HLSFailoverCommandTests {
    /// Two copies of one variant (the same attributes); the first one's segments answer 500 from the third on:
    /// playback moves to the copy at once (no retries: a copy is there), the whole stream is written, `playhead`
    /// says so in one line on stderr naming both, and `--log-json` has one `failover` event.
    @Test func aFailoverIsOneLineAndOneLoggedEvent() throws {
        try FaultFixtures.playlist("fault-500", segments: [2, 3, 4, 5], query: "status=500")
        let path = try FaultFixtures.redundant("redundant-500", primary: "fault-500.m3u8", backup: "clear/index.m3u8")
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let home = Paths.scratch("failover-home")
        let log = home.appendingPathComponent("events.jsonl")
        let wav = home.appendingPathComponent("out.wav")
        let url = origin.url(path)
        let r = try Run.command(
            Paths.playheadBinary(),
            [
                "--ao=wav:\(wav.path)", "--vo=null", "--no-mpris", "--log-json=\(log.path)", url.absoluteString,
            ], environment: ["HOME": home.path, "XDG_STATE_HOME": home.path], timeout: 40)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("playhead:") }
        let failing = origin.url("keys/clear/seg02.ts", ["status": "500"]).absoluteString
        let copy = origin.url("keys/clear/index.m3u8").absoluteString
        #expect(lines.count == 1, "\(r.stderr)")
        #expect(
            lines.first == "playhead: HLS failover: \(failing) failed (HTTP 500 Internal Server Error); now \(copy)",
            "\(r.stderr)")
        // seg02 asked once of the failing copy (no retry), then seg02-05 of the other.
        let segments = origin.requests.filter { $0.contains("/seg0") }.map { $0.split(separator: " ")[1] }
        #expect(segments.filter { $0 == "/keys/clear/seg02.ts" }.count == 2, "\(segments)")
        #expect(segments.count == 7, "\(segments)")
        let events = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let failovers = events.filter { $0["event"] as? String == "failover" }
        #expect(failovers.count == 1, "\(events)")
        #expect(failovers.first?["from"] as? String == failing && failovers.first?["to"] as? String == copy)
        #expect(failovers.first?["reason"] as? String == "HTTP 500 Internal Server Error")
        // 6 s of 48 kHz stereo float or 16-bit: at least 6 s of 16-bit stereo.
        let size = (try? FileManager.default.attributesOfItem(atPath: wav.path)[.size] as? Int) ?? 0
        #expect(size >= 6 * 48_000 * 4, "\(size) bytes of sound written")
    }

    /// The same failure with the copies in pathways A and B: `--log-json` has a `pathway-change` event from A to B,
    /// and `playhead probe` lists both pathways and each variant's.
    @Test func aPathwayChangeIsLoggedAndProbeListsThePathways() throws {
        try FaultFixtures.playlist("fault-500", segments: [2, 3, 4, 5], query: "status=500")
        let path = try FaultFixtures.redundant(
            "pathways-500", primary: "fault-500.m3u8", backup: "clear/index.m3u8", pathways: ("A", "B"))
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let home = Paths.scratch("pathway-home")
        let log = home.appendingPathComponent("events.jsonl")
        let r = try Run.command(
            Paths.playheadBinary(),
            ["--ao=null", "--vo=null", "--no-mpris", "--log-json=\(log.path)", origin.url(path).absoluteString],
            environment: ["HOME": home.path, "XDG_STATE_HOME": home.path], timeout: 40)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        let events = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let changes = events.filter { $0["event"] as? String == "pathway-change" }
        #expect(changes.count == 1, "\(events.map { $0["event"] ?? "" })")
        #expect(changes.first?["from"] as? String == "A" && changes.first?["to"] as? String == "B", "\(changes)")

        let probe = try Run.command(Paths.playheadBinary(), ["probe", origin.url(path).absoluteString], timeout: 20)
        #expect(probe.status == 0, "exit \(probe.status): \(probe.stderr)")
        let lines = probe.stdout.split(separator: "\n").map(String.init)
        #expect(lines.contains("  pathways: A (1 variant), B (1 variant)"), "\(probe.stdout)")
        #expect(lines.filter { $0.contains("pathway A") }.count == 1, "\(probe.stdout)")
    }

    /// The primary copy's every segment answers 500, from the first: nothing has played yet, and playback still
    /// moves to the copy at once, the whole stream written, with the one failover line.
    @Test func aFailoverBeforeAnythingPlayed() throws {
        try FaultFixtures.playlist("fault-500-all", segments: Set(0..<6), query: "status=500")
        let path = try FaultFixtures.redundant(
            "redundant-500-all", primary: "fault-500-all.m3u8", backup: "clear/index.m3u8")
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let home = Paths.scratch("failover-first-home")
        let wav = home.appendingPathComponent("out.wav")
        let r = try Run.command(
            Paths.playheadBinary(),
            ["--ao=wav:\(wav.path)", "--vo=null", "--no-mpris", origin.url(path).absoluteString],
            environment: ["HOME": home.path, "XDG_STATE_HOME": home.path], timeout: 40)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("playhead:") }
        let failing = origin.url("keys/clear/seg00.ts", ["status": "500"]).absoluteString
        #expect(lines.count == 1 && lines.first?.contains("HLS failover: \(failing) failed") == true, "\(r.stderr)")
        let segments = origin.requests.filter { $0.contains("/seg0") }.map { $0.split(separator: " ")[1] }
        #expect(segments.filter { $0 == "/keys/clear/seg00.ts" }.count == 2, "\(segments)")
        #expect(segments.count == 7, "\(segments)")
        let size = (try? FileManager.default.attributesOfItem(atPath: wav.path)[.size] as? Int) ?? 0
        #expect(size >= 6 * 48_000 * 4, "\(size) bytes of sound written")
    }

    /// The first copy's playlist cannot be had when the stream opens: the other copy plays, and the move is said
    /// as one mid-stream is (one line, one `failover` event); it was only in the error log.
    @Test func aFailoverAtTheStartIsOneLineAndOneLoggedEvent() throws {
        try KeyFixtures.make("keys-4s", seconds: 4)
        let path = try FaultFixtures.redundant(
            "redundant-start", in: "keys-4s", primary: "gone/index.m3u8", backup: "clear/index.m3u8")
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let home = Paths.scratch("failover-start")
        let log = home.appendingPathComponent("events.jsonl")
        let r = try Run.command(
            Paths.playheadBinary(),
            ["--ao=null", "--vo=null", "--no-mpris", "--log-json=\(log.path)", origin.url(path).absoluteString],
            environment: ["HOME": home.path, "XDG_STATE_HOME": home.path], timeout: 40)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        let failing = origin.url("keys-4s/gone/index.m3u8").absoluteString
        let copy = origin.url("keys-4s/clear/index.m3u8").absoluteString
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("playhead:") }
        #expect(
            lines == ["playhead: HLS failover: \(failing) failed (HTTP 404 Not Found); now \(copy)"], "\(r.stderr)")
        let events = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let failovers = events.filter { $0["event"] as? String == "failover" }
        #expect(failovers.count == 1, "\(events)")
        #expect(failovers.first?["from"] as? String == failing && failovers.first?["to"] as? String == copy)
    }
}
