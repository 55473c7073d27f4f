import Foundation

/// BOLA-E as published by Spiteri, Sitaraman and Sparacio, "From Theory to Practice: Improving Bitrate
/// Adaptation in the DASH Reference Player" (MMSys 2018), and as dash.js's `BolaRule` implements it:
///
/// - Utilities `u_m = ln(b_m / b_0) + 1`; `gp = (u_top − 1) / (target / 10 s − 1)` and `Vp = 10 s / gp`, so the
///   lowest rung is chosen below the 10 s minimum buffer and the top one from the buffer target. The target is
///   `max(buffer − one segment, 10 s + 2 s × rungs)` in dash.js; here the simulator's buffer less one segment
///   (the most a request can start with), at least 10 s plus one segment, so the top rung is reachable.
/// - The rung maximises `(Vp (u_m + gp) − Q) / S_m`, Q the buffer plus the placeholder buffer.
/// - BOLA-PL (placeholder): at start-up the throughput rule's choice is taken and a virtual buffer is set so that
///   BOLA agrees with it; idle time (waiting on a full buffer, or a delay BOLA asked for) adds to it; a stall
///   clears it.
/// - BOLA-O (oscillations): an up-switch beyond what the safe throughput supports goes only to the higher of that
///   and the current rung.
/// - When the effective buffer is above the level at which the chosen rung's score reaches zero, the request
///   waits (from the placeholder first).
/// - Abandonment: dash.js's `AbandonRequestsRule` (as the throughput rule).
/// A value type owned by one simulation.
public struct BolaE: ABRController {
    /// The dash.js `MINIMUM_BUFFER_S` (10 s).
    public static let minimumBuffer = 10.0
    /// The safe throughput (BOLA-O and start-up) is dash.js's throughput rule's estimate.
    public var throughput = ThroughputRule()
    /// Seconds of virtual buffer (BOLA-PL).
    public private(set) var placeholder = 0.0
    private var lastEnd: Double?
    private var started = false

    /// BOLA-E with the published defaults.
    public init() {}

    /// Abandons, as dash.js.
    public var checksAbandonment: Bool { true }

    /// (`Vp`, `gp`, utilities) for `movie` with a buffer of `maximumBuffer`.
    public static func parameters(_ movie: ABRMovie, maximumBuffer: Double) -> (vp: Double, gp: Double, u: [Double]) {
        let u = movie.bitratesKbps.map { log($0 / movie.bitratesKbps[0]) + 1 }
        let target = max(maximumBuffer - movie.segmentDuration, minimumBuffer + movie.segmentDuration)
        let gp = max((u[u.count - 1] - 1) / (target / minimumBuffer - 1), 1e-6)
        return (minimumBuffer / gp, gp, u)
    }

    /// The BOLA rung for an effective buffer of `level` seconds.
    public static func rung(_ movie: ABRMovie, maximumBuffer: Double, level: Double) -> Int {
        let (vp, gp, u) = parameters(movie, maximumBuffer: maximumBuffer)
        var best = 0
        var bestScore = -Double.infinity
        for m in u.indices {
            let score = (vp * (u[m] + gp) - level) / movie.bitratesKbps[m]
            if score > bestScore {
                (best, bestScore) = (m, score)
            }
        }
        return best
    }

    /// The buffer level at which rung `m`'s score reaches zero: above it BOLA waits rather than fetch `m`.
    static func maximumLevel(_ movie: ABRMovie, maximumBuffer: Double, rung m: Int) -> Double {
        let (vp, gp, u) = parameters(movie, maximumBuffer: maximumBuffer)
        return vp * (u[m] + gp)
    }

    /// The BOLA-E choice.
    public mutating func decide(_ c: ABRContext) -> ABRDecision {
        if let lastEnd, c.time > lastEnd { placeholder += c.time - lastEnd }
        let safe = throughput.throughputRung(c.movie)
        guard started, let current = c.current else {
            // Start-up: the throughput choice, with the placeholder that makes BOLA agree with it.
            let pick = safe ?? 0
            if safe != nil {
                started = true
                placeholder = max(0, Self.minimumLevel(c.movie, maximumBuffer: c.maximumBuffer, rung: pick) - c.buffer)
            }
            return ABRDecision(rung: pick)
        }
        var level = c.buffer + placeholder
        let top = Self.maximumLevel(c.movie, maximumBuffer: c.maximumBuffer, rung: c.movie.bitratesKbps.count - 1)
        if level > top {
            placeholder = max(0, top - c.buffer)
            level = c.buffer + placeholder
        }
        var pick = Self.rung(c.movie, maximumBuffer: c.maximumBuffer, level: level)
        if pick > current, let safe, pick > safe { pick = max(safe, current) }
        var delay = max(0, level - Self.maximumLevel(c.movie, maximumBuffer: c.maximumBuffer, rung: pick))
        if delay > placeholder {
            delay -= placeholder
            placeholder = 0
        } else {
            placeholder -= delay
            delay = 0
        }
        return ABRDecision(rung: pick, delay: delay)
    }

    /// The lowest buffer level at which BOLA picks rung `m` (0 for the lowest rung).
    static func minimumLevel(_ movie: ABRMovie, maximumBuffer: Double, rung m: Int) -> Double {
        guard m > 0 else { return 0 }
        let (vp, gp, u) = parameters(movie, maximumBuffer: maximumBuffer)
        // Where m's score meets each lower rung's: the highest such crossing.
        var level = 0.0
        for k in 0..<m {
            let (bm, bk) = (movie.bitratesKbps[m], movie.bitratesKbps[k])
            let crossing = vp * (bm * (u[k] + gp) - bk * (u[m] + gp)) / (bm - bk)
            level = max(level, crossing)
        }
        return level
    }

    /// Records the throughput; a stall during the download clears the placeholder.
    public mutating func didDownload(_ transfer: ABRTransfer, context: ABRContext) {
        throughput.didDownload(transfer, context: context)
        if !transfer.abandoned {
            if context.isPlaying, context.buffer <= context.movie.segmentDuration + 1e-9, transfer.segment > 0 {
                placeholder = 0
            }
            lastEnd = transfer.now
        }
    }

    /// dash.js's `AbandonRequestsRule`.
    public mutating func abandon(_ transfer: ABRTransfer, context: ABRContext) -> Int? {
        ThroughputRule.dashAbandon(transfer, movie: context.movie, safetyFactor: throughput.safetyFactor)
    }
}
