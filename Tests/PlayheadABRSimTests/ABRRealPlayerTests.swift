import Foundation
import PlayheadABRSim
import PlayheadTestSupport
import Testing

/// The real player against the simulator's prediction: a ladder with `bbb.json`'s bit rates and exact segment
/// sizes (`HLSFixtures.paddedLadder`) served by the test origin replaying a Sabre trace; `playhead --log-json`
/// plays it and the linear QoE of its events is compared with the simulator's for the same movie and trace.
/// The origin delays each request by the latency of the trace's period (as the simulator does); bandwidth 0 (an
/// outage) is served as 1 kbit/s on both sides. The player reads 30 s ahead (its automatic forward buffer for
/// network media): the simulator's buffer is 33 s, so that a request starts below 30 s. The player knows no segment
/// sizes before fetching, so the simulated policy plans over sizes estimated from the bit rates, as the player does
/// (`PlayheadController`'s default); it fetches two playlists before the first segment, so the simulated session
/// makes two requests first (`requestsBeforeFirstSegment`), and a variant's playlist when it first switches to it
/// (`fetchesVariantPlaylists`). The player's time from a segment's arrival to its next request is measured from its
/// log and given to the simulated session (`requestDelay`): on a loaded machine (a debug build, other programs) it
/// grows to tens of milliseconds a segment, which over ten segments leaves the buffer half a second lower than a
/// model of an instant player, enough to turn a close choice.
@Suite(.serialized) struct ABRRealPlayerTests {
    struct Comparison {
        var player: ABRMetrics
        var simulated: ABRMetrics
        var playerRun: ABRRun
        var simulatedRun: ABRRun
        /// The player's reaction time, measured from its log and given to the simulated session.
        var reaction: Double
        /// The most the simulated QoE moves, relative to its value, when the trace's bandwidth is 2 % lower or
        /// higher: what an error of that size in the player's measurement of the link (a loaded machine) may cost.
        var sensitivity: Double

        /// |player − simulated| / |simulated| of the linear QoE.
        var error: Double { abs(player.qoeLin - simulated.qoeLin) / max(abs(simulated.qoeLin), 1e-9) }
    }

    func compare(_ folder: String, _ traceName: String, segments: Int) throws -> Comparison {
        let movie = try loadMovie().prefix(segments)
        let bytes = movie.segmentSizes.map { $0.map { Int($0 / 8) / 188 * 188 } }
        let exact = try ABRMovie(
            name: movie.name, segmentDuration: movie.segmentDuration, bitratesKbps: movie.bitratesKbps,
            segmentSizes: bytes.map { $0.map { Double($0 * 8) } })
        let master = try HLSFixtures.paddedLadder(
            "abr-bbb-\(segments)", segmentDuration: movie.segmentDuration, bitratesKbps: movie.bitratesKbps,
            sizes: bytes)
        let source = try ABRTrace.load(sabre.appendingPathComponent("\(folder)/\(traceName).json"))
        // Enough of the trace for the whole run (it repeats, as in the simulator), at least 1 kbit/s.
        var periods: [ABRTrace.Period] = []
        var covered = 0.0
        while covered < Double(segments) * movie.segmentDuration * 6 + 60 {
            for p in source.periods {
                periods.append(.init(duration: p.duration, bandwidth: max(p.bandwidth, 1000), latency: p.latency))
                covered += p.duration
            }
        }
        let trace = try ABRTrace(name: source.name, periods: periods)
        let origin = try TestOrigin(
            serving: try HLSFixtures.root(), latencyTrace: periods.map { ($0.duration, $0.bandwidth, $0.latency) })
        let scratch = Paths.scratch("abr-real")
        let log = scratch.appendingPathComponent("events.jsonl")
        let r = try Run.command(
            Paths.playheadBinary(),
            ["--ao=null", "--vo=null", "--no-mpris", "--log-json=\(log.path)", origin.url(master).absoluteString],
            environment: ["XDG_STATE_HOME": scratch.path], timeout: Double(segments) * movie.segmentDuration * 6 + 60)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let events = try String(contentsOf: log, encoding: .utf8)
        let playerRun = try ABRPlayerLog.run(jsonLines: events, bytes: bytes)
        let reaction = ABRPlayerLog.reactionTime(jsonLines: events)
        let simulatedRun = simulate(exact, trace, reaction: reaction)
        let simulated = ABRMetrics(simulatedRun, movie: exact)
        // The same simulation on the link 2 % slower and 2 % faster.
        let nearby = try [0.98, 1.02].map { scale in
            let scaled = try ABRTrace(
                name: trace.name,
                periods: trace.periods.map {
                    .init(duration: $0.duration, bandwidth: $0.bandwidth * scale, latency: $0.latency)
                })
            return ABRMetrics(simulate(exact, scaled, reaction: reaction), movie: exact).qoeLin
        }
        return Comparison(
            player: ABRMetrics(playerRun, movie: exact), simulated: simulated, playerRun: playerRun,
            simulatedRun: simulatedRun, reaction: reaction,
            sensitivity: nearby.map { abs($0 - simulated.qoeLin) / max(abs(simulated.qoeLin), 1e-9) }.max() ?? 0)
    }

    /// The simulated session of the player's policy on `movie` over `trace`, set as the player runs (see the suite's
    /// comment), with the player's measured `reaction` time.
    func simulate(_ movie: ABRMovie, _ trace: ABRTrace, reaction: Double) -> ABRRun {
        var session = ABRSession(movie: movie, trace: trace, maximumBuffer: 33)
        session.requestsBeforeFirstSegment = 2
        session.fetchesVariantPlaylists = true
        session.requestDelay = reaction
        return session.run(PlayheadController())
    }

    func describe(_ c: Comparison) -> String {
        "player \(c.playerRun.rungs) stalls \(c.playerRun.rebufferSeconds) s start \(c.playerRun.startup) s "
            + "qoe \(c.player.qoeLin); simulated \(c.simulatedRun.rungs) stalls \(c.simulatedRun.rebufferSeconds) s "
            + "start \(c.simulatedRun.startup) s qoe \(c.simulated.qoeLin); reaction \(c.reaction) s; player stalls at "
            + "\(c.playerRun.stalls) s; simulated QoE moves \(c.sensitivity) with the link 2 % off"
    }

    /// hd_fs trace0262's first 14 segments climb through five rungs on a link of 1.0 to 1.7 Mbit/s. A comparison is
    /// a check of the model only where a small error in the player's measurement of the link does not turn a
    /// decision, so the test first asserts that the simulated QoE moves less than 2 % when the link is 2 % slower or
    /// faster (this trace was picked among Sabre's for that, over reaction times of 10 to 30 ms too). Until
    /// 2026-12-06 this was hd_fs trace0010, on which 1 % more bandwidth moved the third segment from rung 4 to rung
    /// 5 (its link, 1.51 Mbit/s, x 0.9 sat that close to rung 5's 1.43): a response noticed a few milliseconds late
    /// on a loaded machine (its first chunk then measures the link faster) was enough, and it failed once in a
    /// clean-machine run. Before it, 3Glogs report.2010-09-13_1003CEST rode the same kind of edge (rung 6 against a
    /// 1.9 Mbit/s link).
    @Test("the simulator predicts the real player's QoE within 10 % on a short trace")
    func oneShortTrace() throws {
        let c = try compare("hd_fs", "trace0262", segments: 14)
        print("ABR compare hd_fs/trace0262, 14 segments: error \(c.error); \(describe(c))")
        #expect(c.sensitivity < 0.02, "the trace is on a knife edge for this policy, pick another: \(describe(c))")
        #expect(c.playerRun.rungs.count == 14, "\(describe(c))")
        #expect(c.error <= 0.1, "\(describe(c))")
    }

    /// The comparison on traces of every set (`PLAYHEAD_ABR_COMPARE=1`: about ten minutes of real playback): at
    /// least 5 of them within 10 %, from at least 3 sets. Each comparison is printed. On 2026-12-03, after the
    /// plan's switch-back cost, it passed: 8 traces within 10 % from all 4 sets; sd_fs trace0002 is not, on a QoE
    /// near zero (BENCHMARKS.md says why).
    @Test(
        "the simulator predicts the real player's QoE within 10 % on traces of several sets",
        .enabled(if: ProcessInfo.processInfo.environment["PLAYHEAD_ABR_COMPARE"] != nil))
    func severalTraces() throws {
        let picks = [
            ("3Glogs", "report.2010-09-13_1003CEST"), ("3Glogs", "report.2010-09-14_1038CEST"),
            ("4Glogs", "report_bus_0001"), ("4Glogs", "report_bus_0005"), ("sd_fs", "trace0002"),
            ("sd_fs", "trace0012"), ("hd_fs", "trace0003"), ("hd_fs", "trace0009"), ("hd_fs", "trace0010"),
        ]
        var close: [String] = []
        for (folder, name) in picks {
            let c = try compare(folder, name, segments: 20)
            print("ABR compare \(folder)/\(name): error \(String(format: "%.3f", c.error)); \(describe(c))")
            if c.error <= 0.1 { close.append(folder) }
        }
        #expect(close.count >= 5 && Set(close).count >= 3, "within 10 %: \(close)")
    }
}
