import Foundation
import PlayheadTestSupport
import Testing

/// `playhead` on HLS: bad inputs end in one line naming the URL at fault; the variant options are obeyed; the
/// bandwidth estimate is remembered across runs.
@Suite(.serialized) struct HLSCommandTests {
    func run(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 40) throws -> Run.Result {
        try Run.command(
            Paths.playheadBinary(), ["--ao=null", "--vo=null", "--no-mpris"] + arguments, environment: environment,
            timeout: timeout)
    }

    func expectOneLineError(_ r: Run.Result, naming culprit: String, _ words: String) {
        #expect(r.status == 1, "exit \(r.status); stderr: \(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("playhead:") }
        #expect(lines.count == 1, "expected one error line, got: \(r.stderr)")
        #expect(lines.first?.contains(culprit) == true, "the error does not name \(culprit): \(r.stderr)")
        #expect(r.stderr.contains(words), "'\(words)' missing from: \(r.stderr)")
    }

    @Test func eachBadInputIsOneLineNamingTheURL() throws {
        try HLSFixtures.badInputs()
        // A switch, so that a new bad input cannot be left without its words (a dictionary's missing entry
        // crashed the test process).
        func words(_ input: HLSFixtures.BadInput) -> String {
            switch input {
            case .noPlayableVariant: "no playable variant"
            case .noSegments: "no segments"
            case .htmlSegment: "an HTML page, not a media segment"
            case .missingVariant: "HTTP 404"
            case .missingVariants: "no variant could be loaded (2 tried: "
            case .hugePlaylist: "larger than 16 MiB"
            case .playlistAsInitSection: "a playlist, not a media segment"
            }
        }
        for input in HLSFixtures.BadInput.allCases {
            let r = try run([try HLSFixtures.url("bad/" + input.rawValue).absoluteString])
            expectOneLineError(r, naming: try HLSFixtures.url(input.culprit).absoluteString, words(input))
        }
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let loop = origin.url("bad/no-segments.m3u8", ["redirect": "loop"]).absoluteString
        expectOneLineError(try run([loop]), naming: loop, "redirect loop")
        let (playlist, segment) = try HLSFixtures.endlessSegment()
        let log = Paths.scratch("hls-errors").appendingPathComponent("events.jsonl")
        let endless = try run([
            "--network-timeout=2", "--hls-retries=1", "--log-json=\(log.path)", origin.url(playlist).absoluteString,
        ])
        expectOneLineError(endless, naming: segment, "no data for 2 s")
        // The error log in --log-json: the time-out tried again, then the one that ended playback.
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        let events = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let entries = events.filter { $0["event"] as? String == "error-log" }
        #expect(entries.count == 2, "\(entries)")
        for entry in entries {
            #expect((entry["uri"] as? String)?.contains(segment) == true, "\(entry)")
            #expect(entry["domain"] as? String == "network" && entry["status"] as? Int == 0, "\(entry)")
            #expect((entry["comment"] as? String)?.contains("no data for 2 s") == true, "\(entry)")
            #expect(entry["date"] is Double, "\(entry)")
        }
    }

    /// The `variant-switch` bit rates of a run's `--log-json`.
    func variants(_ options: [String], environment: [String: String] = [:], master: String? = nil) throws -> [Int] {
        try variants(side: [options], environment: environment, master: master)[0]
    }

    /// The `variant-switch` bit rates of runs of `playhead OPTIONS MASTER`, one list per entry of `runs`, which
    /// play side by side (each on a thread of its own: they are independent), with `environment`; when there are
    /// several, each has a state folder of its own (`XDG_STATE_HOME`), so none starts from another's estimate.
    func variants(
        side runs: [[String]], environment: [String: String] = [:], master: String? = nil
    ) throws -> [[Int]] {
        let master = try master ?? HLSFixtures.url(try HLSFixtures.tsLadder()).absoluteString
        let logs = runs.map { _ in Paths.scratch("hls-log").appendingPathComponent("events.jsonl") }
        let binary = try Paths.playheadBinary()
        let results = Slots<Result<Run.Result, any Error>>(runs.count)
        let group = DispatchGroup()
        for (i, options) in runs.enumerated() {
            let arguments =
                ["--ao=null", "--vo=null", "--no-mpris"] + options + ["--log-json=\(logs[i].path)", master]
            var env = environment
            if runs.count > 1 { env["XDG_STATE_HOME"] = Paths.scratch("hls-state-side").path }
            group.enter()
            Thread.detachNewThread { [env] in
                results[i] = Result { try Run.command(binary, arguments, environment: env, timeout: 40) }
                group.leave()
            }
        }
        group.wait()
        return try runs.indices.map { i in
            let r = try #require(results[i]).get()
            #expect(r.status == 0, "\(runs[i]): stderr: \(r.stderr)")
            let lines = try String(contentsOf: logs[i], encoding: .utf8).split(separator: "\n")
            let events = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
            if !runs[i].contains(where: { $0.hasPrefix("--length") }) {
                #expect(events.contains { $0["event"] as? String == "ended" }, "\(runs[i]): did not end")
            }
            return events.filter { $0["event"] as? String == "variant-switch" }.compactMap { $0["bitrate"] as? Int }
        }
    }

    @Test func variantOptionsAreObeyed() throws {
        // Four runs side by side, each remembering its bandwidth estimate in a state folder of its own.
        let runs = [
            ["--hls-bitrate=min"], ["--hls-bitrate=max"], ["--hls-bitrate=max", "--hls-max-resolution=1280x720"],
            ["--hls-bitrate=1.5M"],
        ]
        let heard = try variants(side: runs)
        let (lowest, highest, capped, rate) = (heard[0], heard[1], heard[2], heard[3])
        #expect(lowest == [510_000], "\(lowest)")
        #expect(highest.first == 3_610_000, "\(highest)")
        #expect(capped.first == 1_910_000 && capped.allSatisfy { $0 <= 1_910_000 }, "\(capped)")
        #expect(!rate.isEmpty && rate.allSatisfy { $0 <= 1_500_000 }, "\(rate)")
        let bad = try run(["--hls-max-resolution=wide", "x.m3u8"])
        #expect(bad.status == 2 && bad.stderr.contains("--hls-max-resolution"), "\(bad.stderr)")
    }

    @Test func theBandwidthEstimateIsRememberedAcrossRuns() throws {
        let folder = Paths.scratch("hls-state-memory")
        try? FileManager.default.removeItem(at: folder)
        let state = ["XDG_STATE_HOME": folder.path]
        // A 4 Mb/s origin: loopback at full speed is too quick to measure.
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let ladder = try HLSFixtures.tsLadder("ladder-paced", seconds: 20, segmentQuery: "rate=500000")
        let master = origin.url(ladder).absoluteString
        let first = try variants(["--length=6"], environment: state, master: master)
        #expect(first.first == 510_000, "a first run starts on the lowest variant: \(first)")
        let file = folder.appendingPathComponent("playhead/hls-bandwidth")
        let text = (try? String(contentsOf: file, encoding: .utf8)) ?? ""
        let remembered = Double(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(remembered > 2_500_000 && remembered < 5_000_000, "remembered \(remembered) b/s of a 4 Mb/s origin")
        let second = try variants(["--length=2"], environment: state, master: master)
        #expect((second.first ?? 0) > 510_000, "the second run starts higher: \(second) (remembered \(remembered))")
        // A cap holds from the first request on with an estimate remembered: the asset's loads (chapters) took the
        // player's capped open, not one of their own that fetched the remembered estimate's variant.
        let before = origin.requests.count
        let capped = try variants(["--length=2", "--hls-bitrate=min"], environment: state, master: master)
        #expect(capped == [510_000], "\(capped)")
        let asked = origin.requests.dropFirst(before)
        let above = asked.filter { $0.contains("/v1/") || $0.contains("/v2/") || $0.contains("/v3/") }
        #expect(above.isEmpty && asked.contains { $0.contains("/v0/") }, "asked beyond the cap: \(Array(asked))")
        #expect(asked.filter { $0.contains("master.m3u8") }.count == 1, "\(Array(asked))")
        // Nothing else is left in the state folder (a write the exit cut short left a temporary file each time).
        let left = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(left.filter { $0 != ".hls-bandwidth.new" } == ["hls-bandwidth"], "\(left)")
    }

    /// Runs `playhead ARGS` on a pseudo-terminal (`script`) and quits with `q` after `seconds` (its input closes
    /// 3 s later, or once it has ended).
    func runInTerminal(_ arguments: [String], quitAfter seconds: Double) throws -> Run.Result {
        // A fresh state folder: no estimate remembered from another test, so it starts on 360p.
        try Run.inTerminal(
            [try Paths.playheadBinary(), "--no-mpris"] + arguments, keys: [(seconds, "q")], tail: 3,
            environment: ["XDG_STATE_HOME": Paths.scratch("hls-state-terminal").path], timeout: seconds + 20)
    }

    @Test func theStatusLineShowsTheVariantTheEstimateTheBufferAndLiveness() throws {
        // The live stream starts writing now: it lists its first segments by the time the VOD run is over.
        let stream = try LiveHLSStream("live-status", tone: 440)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let ladder = try HLSFixtures.tsLadder("ladder-paced", seconds: 20, segmentQuery: "rate=500000")
        let vod = try runInTerminal(["--ao=null", origin.url(ladder).absoluteString], quitAfter: 4)
        #expect(vod.status == 0, "\(vod.stdout)")
        // e.g. "▶ 00:03 / 00:20 [===---] 15% (+12s) 640x360 0.5 Mb/s est 3.9 Mb/s x1.00 vol 100"
        #expect(vod.stdout.contains("640x360 0.5 Mb/s est "), "\(vod.stdout.suffix(400))")
        #expect(vod.stdout.range(of: #"\(\+[0-9]+s\)"#, options: .regularExpression) != nil, "no buffer shown")
        // Its window is known before its duration: it was shown as "live -20s" for a moment at the start.
        #expect(!vod.stdout.contains(" live -"), "\(vod.stdout.prefix(600))")
        try stream.waitForSegments(4)
        let live = try runInTerminal(["--ao=null", try HLSFixtures.url(stream.path).absoluteString], quitAfter: 5)
        #expect(live.status == 0, "\(live.stdout)")
        #expect(
            live.stdout.range(of: #"live -[0-9]+s"#, options: .regularExpression) != nil, "\(live.stdout.suffix(400))")
    }

    /// "live -Ns" holds within a second while a live stream plays steadily 5 s behind its live start point (the
    /// Left key): it was counted from the window's end, which moves a segment (2 s) at each reload, so it ran down
    /// and jumped back by a segment (-5 s, -4 s, -3 s, -5 s...). At the live start point it shows 0 either way, so
    /// the seek back is what lets the test see it.
    @Test func theLiveDistanceHoldsWhilePlayingSteadily() throws {
        let stream = try LiveHLSStream("live-distance", tone: 440, listSize: 10)
        try stream.waitForSegments(6)
        let url = try HLSFixtures.url(stream.path).absoluteString
        let live = try Run.inTerminal(
            [try Paths.playheadBinary(), "--no-mpris", "--ao=null", url],
            keys: [(3, "\u{1B}[D"), (10, "q")], tail: 3,
            environment: ["XDG_STATE_HOME": Paths.scratch("hls-state-terminal").path], timeout: 45)
        #expect(live.status == 0, "\(live.stdout.suffix(400))")
        let shown = live.stdout.matches(of: /live -([0-9]+)s/).compactMap { Int($0.1) }
        // The second half of what was drawn: well after the seek (and the first reloads set the pace).
        let steady = shown.suffix(shown.count / 2)
        #expect(steady.count >= 10 && steady.allSatisfy { $0 >= 3 }, "not behind after the seek: \(shown)")
        #expect((steady.max() ?? 0) - (steady.min() ?? 99) <= 1, "\(Array(steady))")
    }
}

/// Values that threads fill in, each its own slot. Safe from any thread.
final class Slots<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value?]

    init(_ count: Int) { values = Array(repeating: nil, count: count) }

    subscript(i: Int) -> Value? {
        get { lock.withLock { values[i] } }
        set { lock.withLock { values[i] = newValue } }
    }
}
