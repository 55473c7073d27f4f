import Foundation

/// A network trace: periods of constant bandwidth and latency that repeat when they run out (Sabre's convention).
/// Precomputes the cumulative bits so that a transfer's end is found by binary search.
/// A value type, safe on any thread.
public struct ABRTrace: Sendable {
    /// One period. A value type, safe anywhere.
    public struct Period: Sendable, Hashable {
        /// Seconds it lasts.
        public var duration: Double
        /// Bits per second delivered during it.
        public var bandwidth: Double
        /// Seconds a request started during it waits before its first bit.
        public var latency: Double

        /// A period of `duration` seconds at `bandwidth` bits/s with `latency` seconds of request latency.
        public init(duration: Double, bandwidth: Double, latency: Double) {
            self.duration = duration
            self.bandwidth = bandwidth
            self.latency = latency
        }
    }

    /// Where it came from (a file name), for messages and grouping.
    public var name: String
    /// The periods, in order.
    public let periods: [Period]
    /// The end of each period in seconds from the trace's start.
    private let ends: [Double]
    /// Bits delivered by the end of each period.
    private let bitsByEnd: [Double]

    /// A trace of `periods`; throws when there is none, one is negative or not finite, or no period carries data.
    public init(name: String, periods: [Period]) throws {
        guard !periods.isEmpty else { throw ABRInputError("\(name): the trace has no periods") }
        var (t, bits) = (0.0, 0.0)
        var ends: [Double] = []
        var cumulative: [Double] = []
        for (i, p) in periods.enumerated() {
            _ = try checked(p.duration, 0...1e9, "period \(i)'s duration (s)", in: name)
            _ = try checked(p.bandwidth, 0...1e13, "period \(i)'s bandwidth (bit/s)", in: name)
            _ = try checked(p.latency, 0...3600, "period \(i)'s latency (s)", in: name)
            t += p.duration
            bits += p.duration * p.bandwidth
            ends.append(t)
            cumulative.append(bits)
        }
        guard t > 0, bits > 0 else { throw ABRInputError("\(name): the trace carries no data (no bandwidth)") }
        self.name = name
        self.periods = periods
        self.ends = ends
        self.bitsByEnd = cumulative
    }

    /// A trace of one period holding `kbps` with `latencyMs`, forever.
    public static func constant(kbps: Double, latencyMs: Double = 0, name: String = "constant") throws -> ABRTrace {
        try ABRTrace(name: name, periods: [Period(duration: 1, bandwidth: kbps * 1000, latency: latencyMs / 1000)])
    }

    /// The length of one pass, in seconds.
    public var cycle: Double { ends[ends.count - 1] }

    /// The lowest bandwidth of any period, in bits per second.
    public var minimumBandwidth: Double { periods.map(\.bandwidth).min() ?? 0 }

    /// The index of the period in force at `time` within one pass (0 ≤ time < cycle).
    private func index(at time: Double) -> Int {
        var (low, high) = (0, ends.count - 1)
        while low < high {
            let middle = (low + high) / 2
            if ends[middle] > time { high = middle } else { low = middle + 1 }
        }
        return low
    }

    /// The period in force at `time` seconds (the trace repeats).
    public func period(at time: Double) -> Period {
        periods[index(at: max(time, 0).truncatingRemainder(dividingBy: cycle))]
    }

    /// Bits delivered from time 0 to `time`.
    public func bits(at time: Double) -> Double {
        let t = max(time, 0)
        let passes = (t / cycle).rounded(.down)
        let within = t - passes * cycle
        let i = index(at: within)
        let before = i > 0 ? bitsByEnd[i - 1] : 0
        let start = i > 0 ? ends[i - 1] : 0
        return passes * bitsByEnd[bitsByEnd.count - 1] + before + (within - start) * periods[i].bandwidth
    }

    /// The time at which `bits` have been delivered since time 0 (the earliest such time).
    public func time(atBits bits: Double) -> Double {
        let total = bitsByEnd[bitsByEnd.count - 1]
        var passes = (bits / total).rounded(.down)
        var rest = bits - passes * total
        if rest <= 0, passes > 0 {
            passes -= 1
            rest += total
        }
        // The first period whose end reaches `rest`.
        var (low, high) = (0, bitsByEnd.count - 1)
        while low < high {
            let middle = (low + high) / 2
            if bitsByEnd[middle] >= rest { high = middle } else { low = middle + 1 }
        }
        let before = low > 0 ? bitsByEnd[low - 1] : 0
        let start = low > 0 ? ends[low - 1] : 0
        let p = periods[low]
        let within = p.bandwidth > 0 ? (rest - before) / p.bandwidth : 0
        return passes * cycle + start + min(within, p.duration)
    }

    /// When a request for `bits` sent at `start` completes: the latency of the period at `start`, then the bits at
    /// the trace's bandwidth.
    public func completion(ofBits bits: Double, requestedAt start: Double) -> Double {
        let first = start + period(at: start).latency
        guard bits > 0 else { return first }
        return max(time(atBits: self.bits(at: first) + bits), first)
    }
}
