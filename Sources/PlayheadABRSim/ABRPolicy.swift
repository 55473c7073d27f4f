import Foundation

/// The policies the simulator compares, by their command-line names. A value type, safe anywhere.
public enum ABRPolicy: String, CaseIterable, Sendable {
    /// The player's own `AdaptiveBitratePolicy` and `BandwidthEstimator` (`PlayheadController`) as the player runs
    /// them: the plan, over segment sizes estimated from the ladder's bit rates.
    case playhead
    /// dash.js's throughput rule (`ThroughputRule`).
    case throughput
    /// BOLA-E (`BolaE`).
    case bolaE = "bola-e"
    /// hls.js's dual EWMA (`HLSEwmaRule`).
    case hlsEwma = "hls-ewma"
    /// dash.js's DYNAMIC (`DynamicRule`).
    case dynamic
    /// RobustMPC (`RobustMPC`).
    case robustMPC = "robust-mpc"
    /// The offline optimum (`OfflineOptimal`).
    case optimal

    /// Plays `session` with this policy.
    public func run(_ session: ABRSession) -> ABRRun {
        switch self {
        case .playhead: return session.run(PlayheadController())
        case .throughput: return session.run(ThroughputRule())
        case .bolaE: return session.run(BolaE())
        case .hlsEwma: return session.run(HLSEwmaRule())
        case .dynamic: return session.run(DynamicRule())
        case .robustMPC: return session.run(RobustMPC())
        case .optimal: return OfflineOptimal().run(session)
        }
    }
}

/// Runs policies over traces and averages their measures. A value type; `run` spreads the traces over the
/// machine's cores (`DispatchQueue.concurrentPerform`) and returns on the caller's thread.
public struct ABRBenchmark: Sendable {
    /// The movie.
    public var movie: ABRMovie
    /// The traces.
    public var traces: [ABRTrace]
    /// The policies, in output order.
    public var policies: [ABRPolicy]
    /// The buffer in seconds.
    public var maximumBuffer: Double

    /// A benchmark of `policies` playing `movie` over `traces` with `maximumBuffer` seconds of buffer.
    public init(movie: ABRMovie, traces: [ABRTrace], policies: [ABRPolicy], maximumBuffer: Double = 25) {
        self.movie = movie
        self.traces = traces
        self.policies = policies
        self.maximumBuffer = maximumBuffer
    }

    /// Each policy's measures on each trace: `result[trace][policy index]`.
    public func runAll() -> [[ABRMetrics]] {
        let out = ResultBox(count: traces.count)
        let (movie, traces, policies, buffer) = (movie, traces, policies, maximumBuffer)
        DispatchQueue.concurrentPerform(iterations: traces.count) { i in
            let session = ABRSession(movie: movie, trace: traces[i], maximumBuffer: buffer)
            out.set(i, policies.map { ABRMetrics($0.run(session), movie: movie) })
        }
        return out.values
    }

    /// Each policy's measures averaged over the traces, in `policies` order.
    public func run() -> [ABRMetrics] {
        let all = runAll()
        return policies.indices.map { p in ABRMetrics.mean(all.map { $0[p] }) }
    }

    /// The offline optimum run with each of `penalties` as its charge for a stalled second (`OfflineOptimal`'s
    /// `stallPenalty`), measured by the linear QoE and averaged over the traces, in `penalties` order: the best
    /// `qoe_lin` knowing the future at each level of rebuffering, against which an online policy's trade of stalls
    /// for bit rate is judged.
    public func frontier(penalties: [Double]) -> [ABRMetrics] {
        let out = ResultBox(count: traces.count)
        let (movie, traces, buffer) = (movie, traces, maximumBuffer)
        DispatchQueue.concurrentPerform(iterations: traces.count) { i in
            let session = ABRSession(movie: movie, trace: traces[i], maximumBuffer: buffer)
            out.set(i, penalties.map { ABRMetrics(OfflineOptimal(stallPenalty: $0).run(session), movie: movie) })
        }
        let all = out.values
        return penalties.indices.map { k in ABRMetrics.mean(all.map { $0[k] }) }
    }
}

/// Results written from several threads, one slot each. Locked; safe from any thread.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [[ABRMetrics]]

    init(count: Int) { slots = Array(repeating: [], count: count) }

    func set(_ i: Int, _ value: [ABRMetrics]) { lock.withLock { slots[i] = value } }

    var values: [[ABRMetrics]] { lock.withLock { slots } }
}
