import Foundation

/// The offline optimum of the linear QoE for one trace, by dynamic programming over buffer states with full
/// knowledge of the trace (the upper bound the online policies are measured against).
///
/// The state after each segment is (rung, buffer level in buckets of `bucket` seconds); each bucket keeps the
/// best path into it (highest QoE so far, then earliest time) with its exact time and buffer, so every path kept
/// is one the session model can play: the same waiting for buffer room, latency, transfer and stall rules as
/// `ABRSession`, without abandonment (knowing the future it never pays for one) or voluntary delays. The result
/// is replayed through `ABRSession`, so its measures come from the same code as every policy's. Merging states
/// within a bucket makes it a lower bound on the true optimum that tightens as `bucket` shrinks.
/// A value type; `run` runs on the caller's thread.
public struct OfflineOptimal: Sendable {
    /// Width of a buffer bucket in seconds (0.25 s).
    public var bucket: Double
    /// What the optimisation charges for a stalled second, in Mbit/s of bit rate (the linear QoE's 4.3 by default).
    /// A higher charge finds the best `qoe_lin` at less rebuffering: swept, it traces what any policy, knowing the
    /// future, can have at each rebuffer ratio (`playhead-abr-sim --frontier`). The run is measured by the metric
    /// as every policy's, whatever it was optimised for.
    public var stallPenalty: Double

    /// The optimiser with buckets of `bucket` seconds, charging `stallPenalty` per stalled second.
    public init(bucket: Double = 0.25, stallPenalty: Double = ABRMetrics.rebufferPenalty) {
        self.bucket = max(bucket, 0.01)
        self.stallPenalty = stallPenalty.isFinite ? max(stallPenalty, 0) : ABRMetrics.rebufferPenalty
    }

    private struct Cell {
        var value = -Double.infinity
        var time = 0.0
        var buffer = 0.0
        var parent = -1
    }

    /// The best rung sequence for `session`'s movie and trace.
    public func rungs(_ session: ABRSession) -> [Int] {
        let movie = session.movie
        let trace = session.trace
        let d = movie.segmentDuration
        let rungCount = movie.bitratesKbps.count
        let rates = movie.bitratesKbps.map { $0 / 1000 }
        let buckets = Int((session.maximumBuffer + d) / bucket) + 2
        let room = session.maximumBuffer - d
        var layers: [[Cell]] = []
        var layer = [Cell](repeating: Cell(), count: rungCount * buckets)
        func key(_ rung: Int, _ buffer: Double) -> Int { rung * buckets + min(Int(buffer / bucket), buckets - 1) }
        func offer(_ cell: Cell, rung: Int, into layer: inout [Cell]) {
            let k = key(rung, cell.buffer)
            let old = layer[k]
            if cell.value > old.value + 1e-12 || (abs(cell.value - old.value) <= 1e-12 && cell.time < old.time) {
                layer[k] = cell
            }
        }
        let firstBit = trace.period(at: 0).latency
        let bitsAtFirst = trace.bits(at: firstBit)
        for r in 0..<rungCount {
            let end = max(trace.time(atBits: bitsAtFirst + movie.segmentSizes[0][r]), firstBit)
            offer(
                Cell(value: rates[r] - stallPenalty * end, time: end, buffer: d, parent: -1), rung: r,
                into: &layer)
        }
        layers.append(layer)
        for segment in 1..<max(movie.segmentCount, 1) {
            var next = [Cell](repeating: Cell(), count: rungCount * buckets)
            let sizes = movie.segmentSizes[segment]
            for (k, cell) in layer.enumerated() where cell.value > -Double.infinity {
                let last = k / buckets
                let wait = max(cell.buffer - room, 0)
                let start = cell.time + wait
                let buffer = cell.buffer - wait
                let first = start + trace.period(at: start).latency
                let base = trace.bits(at: first)
                for r in 0..<rungCount {
                    let end = max(trace.time(atBits: base + sizes[r]), first)
                    let download = end - start
                    let stall = max(download - buffer, 0)
                    let value =
                        cell.value + rates[r] - stallPenalty * stall - abs(rates[r] - rates[last])
                    offer(
                        Cell(value: value, time: end, buffer: max(buffer - download, 0) + d, parent: k), rung: r,
                        into: &next)
                }
            }
            layers.append(next)
            layer = next
        }
        guard var k = layer.indices.max(by: { layer[$0].value < layer[$1].value }) else { return [] }
        var out: [Int] = []
        for l in layers.indices.reversed() {
            out.append(k / buckets)
            k = layers[l][k].parent
        }
        return out.reversed()
    }

    /// The optimum played through `session`.
    public func run(_ session: ABRSession) -> ABRRun {
        session.run(FixedSequence(rungs: rungs(session)))
    }
}

/// Plays a given rung sequence (the optimum's); never abandons or waits. A value type owned by one simulation.
public struct FixedSequence: ABRController {
    /// The rung of each segment.
    public var rungs: [Int]

    /// Plays `rungs`.
    public init(rungs: [Int]) { self.rungs = rungs }

    /// The planned rung.
    public mutating func decide(_ c: ABRContext) -> ABRDecision {
        ABRDecision(rung: rungs.indices.contains(c.segment) ? rungs[c.segment] : 0)
    }

    /// Nothing to learn.
    public mutating func didDownload(_ transfer: ABRTransfer, context: ABRContext) {}
}
