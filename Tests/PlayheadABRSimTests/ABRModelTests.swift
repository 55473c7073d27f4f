import Foundation
import PlayheadABRSim
import PlayheadHLS
import Testing

/// The simulator's model on cases computed by hand, so that the benchmark cannot silently measure the wrong thing.
@Suite("ABR simulator model, hand-computed cases")
struct ABRModelTests {
    /// Two rungs (1 and 2 Mbit/s), 2 s segments of exactly bit rate × duration, over a constant 3 Mbit/s with no
    /// latency. By hand: the first segment (no measurement yet) is on the lowest rung and takes 2 Mbit / 3 Mbit/s =
    /// 0.667 s; the link measures 3 Mbit/s, which fits the 2 Mbit/s rung with every baseline's margin (0.9 × 3,
    /// hls.js's 0.7 × 3 = 2.1 with a 1.9 s fetch under 2 s of buffer, RobustMPC's 3 Mbit/s exactly, BOLA-E's
    /// start-up throughput choice and then its placeholder level of 15.75 s for rung 1), so segments 1-4 are on
    /// rung 1, each taking 1.333 s while playing 2 s: no stall. QoE: (1 + 4 × 2 − 1 switch − 4.3 × 0.667 start)
    /// / 5 = 1.02667; the optimum is the same (starting on rung 1 costs 4.3 × 1.333 s of start-up).
    @Test("a constant trace: every baseline and the optimum play rung 0 then rung 1, with no stall")
    func constantTrace() throws {
        let movie = try flatMovie(kbps: [1000, 2000], duration: 2, count: 5)
        let session = ABRSession(movie: movie, trace: try .constant(kbps: 3000))
        for policy in ABRPolicy.allCases where policy != .playhead {
            let run = policy.run(session)
            #expect(run.rungs == [0, 1, 1, 1, 1], "\(policy)")
            #expect(run.rebufferSeconds == 0 && run.rebufferEvents == 0 && run.abandons.isEmpty, "\(policy)")
            #expect(abs(run.startup - 2.0 / 3) < 1e-9, "\(policy): \(run.startup)")
            let m = ABRMetrics(run, movie: movie)
            #expect(abs(m.qoeLin - (9.0 - 1 - 4.3 * 2 / 3) / 5) < 1e-9, "\(policy): \(m.qoeLin)")
            #expect(m.bitrateKbps == 1800 && m.switches == 1 && m.switchKbps == 1000, "\(policy)")
            #expect(m.rebufferRatio == 0 && m.startup == run.startup, "\(policy)")
        }
    }

    /// The budget rule (what the player ran before the plan, and runs for low-latency parts) on the same link:
    /// start-up on the lowest rung (500 kbit/s assumed × 0.7 × 0.5 fits nothing); it then measures 3 Mbit/s, whose
    /// 0.7 fits rung 1, but an up-switch must leave 10 s of buffer after fetching it (2 × 2 / 3 = 1.333 s), and the
    /// buffer grows by 2 − 0.667 = 1.333 s a segment from 2 s: at segment 8 it is 11.333 s, 10 s after the fetch
    /// (equal up to rounding, so not asserted), at segment 9 12.667 s: segments 0-7 are on rung 0, 9-11 on rung 1.
    @Test("a constant trace: the budget rule climbs once 10 s of buffer would remain")
    func constantTracePlayheadBudget() throws {
        let movie = try flatMovie(kbps: [1000, 2000], duration: 2, count: 12)
        var controller = PlayheadController()
        controller.lookahead = false
        let run = ABRSession(movie: movie, trace: try .constant(kbps: 3000)).run(controller)
        #expect(run.rungs.prefix(8).allSatisfy { $0 == 0 }, "\(run.rungs) with buffers \(run.buffers)")
        #expect(run.rungs.suffix(3).allSatisfy { $0 == 1 }, "\(run.rungs) with buffers \(run.buffers)")
        #expect(run.rebufferSeconds == 0)
    }

    /// The plan (`lookahead`: sizes estimated from the bit rates) on the same link: the buffer at
    /// segments 1-4 is 2, 3.333, 4.667 and 6 s; `AdaptiveBitratePlanTests.climbs` computes that the plan keeps
    /// rung 0 at 2 and 3.333 s and climbs at 4.667 s. Then rung 1 adds 2 − 1.333 s a segment: no stall.
    @Test("a constant trace: the plan climbs at 4.667 s of buffer")
    func constantTracePlayheadPlan() throws {
        let movie = try flatMovie(kbps: [1000, 2000], duration: 2, count: 10)
        var controller = PlayheadController()
        controller.lookahead = true
        let run = ABRSession(movie: movie, trace: try .constant(kbps: 3000)).run(controller)
        #expect(run.rungs == [0, 0, 0, 1, 1, 1, 1, 1, 1, 1], "\(run.rungs) with buffers \(run.buffers)")
        #expect(run.rebufferSeconds == 0)
    }

    /// One rung of 1 Mbit/s, 2 s segments, 2 Mbit/s for 2 s, nothing for 3 s, then 2 Mbit/s. By hand: segment 0
    /// arrives at 1 s (start-up), segment 1 at 2 s (buffer 2 − 1 + 2 = 3 s); segment 2 starts at 2 s, waits out the
    /// outage and arrives at 6 s: the buffer ran dry at 5 s, a stall of 1 s; segment 3 arrives at 7 s.
    @Test("an outage produces the stall it must: one event of 1 s")
    func outage() throws {
        let movie = try flatMovie(kbps: [1000], duration: 2, count: 4)
        let trace = try stepTrace([(2, 2000), (3, 0), (1000, 2000)], latencyMs: 0)
        for policy in ABRPolicy.allCases {
            let run = policy.run(ABRSession(movie: movie, trace: trace))
            #expect(abs(run.rebufferSeconds - 1) < 1e-9 && run.rebufferEvents == 1, "\(policy): \(run)")
            #expect(run.stalls.count == 1 && abs(run.stalls[0] - 5) < 1e-9, "\(policy): \(run.stalls)")
            #expect(abs(run.startup - 1) < 1e-9)
            let m = ABRMetrics(run, movie: movie)
            #expect(abs(m.qoeLin - (4 - 4.3 * 2) / 4) < 1e-9, "\(policy): \(m.qoeLin)")
            #expect(abs(m.rebufferRatio - 1.0 / 8) < 1e-9)
        }
    }

    /// Latency delays the first bit: 100 ms, then 1 Mbit at 1 Mbit/s.
    @Test("a download takes the period's latency, then its bits at the trace's bandwidth, across periods")
    func transferTimes() throws {
        let trace = try ABRTrace(
            name: "t",
            periods: [
                .init(duration: 1, bandwidth: 1e6, latency: 0.1), .init(duration: 1, bandwidth: 0, latency: 0),
                .init(duration: 2, bandwidth: 4e6, latency: 0),
            ])
        #expect(abs(trace.completion(ofBits: 0.5e6, requestedAt: 0) - 0.6) < 1e-9)
        // 0.9 Mbit by 1 s, nothing until 2 s, then 4 Mbit/s: 1 Mbit more needs 0.25 s.
        #expect(abs(trace.completion(ofBits: 1.9e6, requestedAt: 0) - 2.25) < 1e-9)
        // The trace repeats: one pass carries 9 Mbit in 4 s.
        #expect(abs(trace.bits(at: 9) - (2 * 9e6 + 1e6)) < 1e-3)
        #expect(abs(trace.time(atBits: 18e6 + 1e6) - 9) < 1e-9)
        #expect(trace.period(at: 5.5).bandwidth == 0)
    }

    /// Rungs chosen in turn: 0, 1, 0, 1 (2 s segments of 1 and 2 Mbit/s over 4 Mbit/s with 100 ms of latency).
    /// An HLS player loads a variant's media playlist when it first switches to it: with `fetchesVariantPlaylists`
    /// segment 1 (the first on rung 1) starts one latency later and everything after it too; rung 0's playlist
    /// came before the first segment and rung 1's is kept, so nothing later waits again.
    @Test("a variant's playlist is fetched once, before its first segment, when the session models HLS playlists")
    func variantPlaylistsCostALatencyOnce() throws {
        struct Scripted: ABRController {
            let rungs: [Int]
            func decide(_ context: ABRContext) -> ABRDecision { ABRDecision(rung: rungs[context.segment]) }
            func didDownload(_ transfer: ABRTransfer, context: ABRContext) {}
        }
        let movie = try flatMovie(kbps: [1000, 2000], duration: 2, count: 4)
        let trace = try ABRTrace(name: "t", periods: [.init(duration: 100, bandwidth: 4e6, latency: 0.1)])
        var session = ABRSession(movie: movie, trace: trace)
        session.requestsBeforeFirstSegment = 2
        let dash = session.run(Scripted(rungs: [0, 1, 0, 1]))
        session.fetchesVariantPlaylists = true
        let hls = session.run(Scripted(rungs: [0, 1, 0, 1]))
        #expect(hls.rungs == [0, 1, 0, 1] && hls.rebufferSeconds == 0)
        #expect(abs(hls.startup - dash.startup) < 1e-9, "\(hls.startup) \(dash.startup)")
        // Segment 1 is asked for at the same time; it arrives 0.1 s later, so segments 2 and 3 are asked for later.
        let shifts = zip(hls.requestTimes, dash.requestTimes).map { $0 - $1 }
        #expect(shifts.count == 4 && abs(shifts[0]) < 1e-9 && abs(shifts[1]) < 1e-9, "\(shifts)")
        #expect(abs(shifts[2] - 0.1) < 1e-9 && abs(shifts[3] - 0.1) < 1e-9, "\(shifts)")
    }

    /// Rung 0 throughout: 2 s segments of 1 Mbit/s over 2 Mbit/s, no latency, each arriving 1 s after its request.
    /// An instant player asks for them at 0, 1, 2, 3 s with 0, 2, 3, 4 s of buffer; one that takes 0.25 s to act on
    /// each arrival asks at 0, 1.25, 2.5, 3.75 s with 0, 1.75, 2.5, 3.25 s.
    @Test("a player's reaction time delays each request after the first, and its buffer with it")
    func requestDelay() throws {
        let movie = try flatMovie(kbps: [1000], duration: 2, count: 4)
        var session = ABRSession(movie: movie, trace: try stepTrace([(1000, 2000)], latencyMs: 0))
        let instant = session.run(FixedSequence(rungs: [0, 0, 0, 0]))
        session.requestDelay = 0.25
        let slow = session.run(FixedSequence(rungs: [0, 0, 0, 0]))
        func close(_ a: [Double], _ b: [Double]) -> Bool {
            a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 1e-9 }
        }
        #expect(close(instant.requestTimes, [0, 1, 2, 3]) && close(instant.buffers, [0, 2, 3, 4]), "\(instant)")
        #expect(
            close(slow.requestTimes, [0, 1.25, 2.5, 3.75]) && close(slow.buffers, [0, 1.75, 2.5, 3.25]), "\(slow)")
        #expect(slow.rebufferSeconds == 0)
    }

    /// 2 s segments of 0.5 and 1 Mbit/s (1 and 2 Mbit) over 2 Mbit/s with 500 ms of latency: the first segment's
    /// request takes 0.5 s of wait and 0.5 s of transfer. The player's loader measures from the response
    /// (`TransferMeter`), so after it the player's estimator holds 2 Mbit/s; measured from the request it would
    /// hold 1 Mbit/s. The simulator must give the estimator what the player's loader gives it.
    @Test("the simulator measures a download as the player's loader does: the wait for the response left out")
    func measuredAsTheLoader() throws {
        let movie = try flatMovie(kbps: [500, 1000], duration: 2, count: 4)
        let log = EstimateLog()
        _ = ABRSession(movie: movie, trace: try .constant(kbps: 2000, latencyMs: 500)).run(Recording(log: log))
        let estimates = log.values
        #expect(estimates.count == 4 && estimates[0] == BandwidthEstimator().estimate)
        #expect(estimates.dropFirst().allSatisfy { abs($0 - 2e6) < 2e6 * 0.01 }, "\(estimates)")
    }

    /// The measures of a run given by hand: switches, their mean size, the ratio and the QoE.
    @Test("metrics of a given run")
    func metrics() throws {
        let movie = try flatMovie(kbps: [500, 1000, 3000], duration: 4, count: 4)
        var run = ABRRun()
        run.rungs = [0, 2, 2, 1]
        run.rebufferSeconds = 2
        run.rebufferEvents = 1
        run.startup = 0.5
        let m = ABRMetrics(run, movie: movie)
        #expect(m.bitrateKbps == 1875 && m.switches == 2 && m.switchKbps == 2250)
        #expect(m.rebufferRatio == 2.0 / 16)
        #expect(abs(m.qoeLin - (7.5 - 4.3 * 2.5 - 4.5) / 4) < 1e-12)
        let mean = ABRMetrics.mean([m, ABRMetrics()])
        #expect(mean.bitrateKbps == 937.5 && mean.switches == 1)
    }
}

/// The estimates `Recording` saw, one per decision. Locked; safe from any thread.
final class EstimateLog: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Double] = []

    func append(_ value: Double) { lock.withLock { storage.append(value) } }
    var values: [Double] { lock.withLock { storage } }
}

/// The player's controller, recording its estimator's estimate at each decision.
struct Recording: ABRController {
    var inner = PlayheadController()
    let log: EstimateLog

    var checksAbandonment: Bool { inner.checksAbandonment }

    mutating func decide(_ context: ABRContext) -> ABRDecision {
        log.append(inner.estimator.estimate)
        return inner.decide(context)
    }

    mutating func didDownload(_ transfer: ABRTransfer, context: ABRContext) {
        inner.didDownload(transfer, context: context)
    }

    mutating func abandon(_ transfer: ABRTransfer, context: ABRContext) -> Int? {
        inner.abandon(transfer, context: context)
    }
}
