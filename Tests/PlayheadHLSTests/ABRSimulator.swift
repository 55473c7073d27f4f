import Foundation

@testable import PlayheadHLS

/// A Sabre network trace: periods of `{duration_ms, bandwidth_kbps, latency_ms}` that repeat when they run out.
struct NetworkTrace: Decodable {
    struct Period: Decodable {
        var duration_ms: Double
        var bandwidth_kbps: Double
        var latency_ms: Double
    }
    let periods: [Period]
    var name = ""
    /// The end of each period in seconds, for a binary search.
    private let ends: [Double]

    init(periods: [Period], name: String) {
        self.periods = periods
        self.name = name
        var total = 0.0
        ends = periods.map {
            total += $0.duration_ms / 1000
            return total
        }
    }

    init(from decoder: any Decoder) throws { self.init(periods: try [Period](from: decoder), name: "") }

    static func load(_ url: URL) throws -> NetworkTrace {
        var trace = try JSONDecoder().decode(NetworkTrace.self, from: Data(contentsOf: url))
        trace.name = url.deletingPathExtension().lastPathComponent
        return trace
    }

    var minimumKbps: Double { periods.map(\.bandwidth_kbps).min() ?? 0 }

    /// The period in force at `time` seconds (the trace repeats).
    func period(at time: Double) -> Period {
        let total = ends.last ?? 0
        let t = total > 0 ? time.truncatingRemainder(dividingBy: total) : 0
        var (low, high) = (0, ends.count - 1)
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] > t { high = middle } else { low = middle + 1 }
        }
        return periods[low]
    }
}

/// A Sabre movie: fixed-length segments, a ladder, and each segment's size on each rung.
struct Movie: Decodable {
    var segment_duration_ms: Double
    var bitrates_kbps: [Double]
    var segment_sizes_bits: [[Double]]

    var segmentDuration: Double { segment_duration_ms / 1000 }
}

/// Plays a movie over a trace with the estimator and the policy, in simulated time steps: downloads one segment
/// at a time (latency, then bytes at the trace's bandwidth), feeds per-step throughput samples to the estimator,
/// drains the buffer while playing, asks `shouldAbandon` every quarter second and waits while the buffer is full.
struct ABRSimulation {
    struct Request {
        var time: Double
        var segment: Int
        var rung: Int
        var buffer: Double
        var estimate: Double
    }

    var movie: Movie
    var trace: NetworkTrace
    var policy: AdaptiveBitratePolicy
    var maximumBuffer = 30.0
    var step = 0.05

    private(set) var requests: [Request] = []
    private(set) var abandons: [(time: Double, from: Int, to: Int)] = []
    private(set) var rebufferSeconds = 0.0
    private(set) var rebufferEvents = 0
    /// Simulated seconds at which the buffer ran dry while playing.
    private(set) var stalls: [Double] = []
    private(set) var playedBitrateSum = 0.0

    init(movie: Movie, trace: NetworkTrace, caps: AdaptiveBitratePolicy.Caps = .init()) {
        self.movie = movie
        self.trace = trace
        policy = AdaptiveBitratePolicy(
            rungs: movie.bitrates_kbps.map { AdaptiveBitratePolicy.Rung(peakBitRate: $0 * 1000) }, caps: caps)
    }

    /// Time-average bit rate played, in kbit/s.
    var averageKbps: Double { playedBitrateSum / Double(max(requests.count, 1)) }

    mutating func run(segments: Int? = nil) {
        var estimator = BandwidthEstimator()
        var time = 0.0
        var buffer = 0.0
        var playing = false
        var stalled = false
        var current: Int?
        let duration = movie.segmentDuration

        func advance(_ dt: Double) {
            time += dt
            guard playing else { return }
            if buffer >= dt {
                buffer -= dt
                stalled = false
            } else {
                if !stalled {
                    rebufferEvents += 1
                    stalls.append(time)
                }
                stalled = true
                rebufferSeconds += dt - buffer
                buffer = 0
            }
        }

        for segment in 0..<min(segments ?? movie.segment_sizes_bits.count, movie.segment_sizes_bits.count) {
            while buffer > maximumBuffer - duration { advance(step) }
            var rung = policy.nextRung(
                current: current, estimate: estimator.estimate, buffer: buffer, segmentDuration: duration)!
            requests.append(
                .init(time: time, segment: segment, rung: rung, buffer: buffer, estimate: estimator.estimate))
            var loaded = 0.0
            var elapsed = 0.0
            var latency = trace.period(at: time).latency_ms / 1000
            var nextCheck = 0.25
            while loaded < movie.segment_sizes_bits[segment][rung] {
                let bits = latency > 0 ? 0 : trace.period(at: time).bandwidth_kbps * 1000 * step
                latency -= step
                advance(step)
                elapsed += step
                if bits > 0 {
                    loaded += bits
                    estimator.addSample(bytes: Int(bits / 8), duration: step, at: time)
                }
                guard playing, elapsed >= nextCheck else { continue }
                nextCheck += 0.25
                let progress = AdaptiveBitratePolicy.DownloadProgress(
                    loadedBytes: Int(loaded / 8), expectedBytes: Int(movie.segment_sizes_bits[segment][rung] / 8),
                    elapsed: elapsed)
                if case .abandon(let lower) = policy.shouldAbandon(
                    progress, rung: rung, segmentDuration: duration, buffer: buffer, estimate: estimator.estimate)
                {
                    abandons.append((time, rung, lower))
                    rung = lower
                    requests[requests.count - 1].rung = lower
                    (loaded, elapsed, nextCheck) = (0, 0, 0.25)
                    latency = trace.period(at: time).latency_ms / 1000
                }
            }
            buffer += duration
            playing = true
            current = rung
            playedBitrateSum += movie.bitrates_kbps[rung]
        }
    }
}
