import Foundation

/// What a controller sees when it chooses the next segment's rung. A value type, safe anywhere.
public struct ABRContext: Sendable {
    /// The movie (segment sizes are known to the player, as in a DASH manifest with a segment index).
    public var movie: ABRMovie
    /// The segment about to be requested.
    public var segment: Int
    /// Seconds of media buffered ahead of the play head.
    public var buffer: Double
    /// The rung of the last segment fetched, nil before the first.
    public var current: Int?
    /// Simulated seconds since the session began.
    public var time: Double
    /// Whether playback has started (the first segment arrived).
    public var isPlaying: Bool
    /// The most media the buffer may hold, in seconds.
    public var maximumBuffer: Double
    /// The rungs whose media playlists have been fetched, when the session fetches them
    /// (`ABRSession.fetchesVariantPlaylists`); nil when every rung is known from the start.
    public var playlistsLoaded: Set<Int>? = nil
}

/// The next request: a rung, and seconds to wait before sending it (BOLA's "delay"; never longer than the buffer).
/// A value type, safe anywhere.
public struct ABRDecision: Sendable, Hashable {
    /// The rung to fetch.
    public var rung: Int
    /// Seconds to wait first.
    public var delay: Double

    /// Fetch `rung` after `delay` seconds.
    public init(rung: Int, delay: Double = 0) {
        self.rung = rung
        self.delay = delay
    }
}

/// A download as the player would have measured it, finished or in flight. A value type, safe anywhere.
public struct ABRTransfer: Sendable {
    /// The trace it ran over (to replay the chunks already received; controllers never look beyond `now`).
    public var trace: ABRTrace
    /// The segment and rung fetched.
    public var segment: Int
    /// The rung fetched.
    public var rung: Int
    /// When the request was sent.
    public var start: Double
    /// When its first bit arrived (the request's latency after `start`).
    public var firstBit: Double
    /// Now: the end of the download, or the moment of a check while it runs.
    public var now: Double
    /// The segment's full size in bits.
    public var size: Double
    /// Whether it was given up (the bits are wasted).
    public var abandoned = false

    /// Bits received by `now`.
    public var loaded: Double { now > firstBit ? min(trace.bits(at: now) - trace.bits(at: firstBit), size) : 0 }
    /// Seconds since the request was sent.
    public var elapsed: Double { now - start }
    /// The throughput of the whole request in bits per second, latency included (what a player measures).
    public var throughput: Double { elapsed > 0 ? loaded / elapsed : 0 }
    /// The throughput of the transfer alone, latency excluded.
    public var transferThroughput: Double { now > firstBit ? loaded / (now - firstBit) : 0 }

    /// The network chunks received between `from` and `now` as (bits, arrival): one per trace period and at most
    /// `step` seconds each, none before the first bit. How they become throughput samples is
    /// `PlayheadHLS.TransferMeter`'s, as in the player's loader (`PlayheadController` measures them with it).
    public func chunks(from: Double, step: Double = 0.25) -> [(bits: Double, arrival: Double)] {
        var out: [(bits: Double, arrival: Double)] = []
        var t = max(from, firstBit)
        while t < now - 1e-9 {
            let end = min(t + step, now)
            let bits = trace.bits(at: end) - trace.bits(at: t)
            if bits > 0 { out.append((bits, end)) }
            t = end
        }
        return out
    }
}

/// An ABR algorithm as the simulator drives it: asked for each segment's rung, told of each download, and (when
/// `checksAbandonment`) asked every quarter second while a download runs whether to give it up.
/// Controllers are value types owned by one simulation; each runs on the thread that runs its simulation.
public protocol ABRController: Sendable {
    /// Whether `abandon` is asked during downloads.
    var checksAbandonment: Bool { get }
    /// The next request.
    mutating func decide(_ context: ABRContext) -> ABRDecision
    /// A download ended (complete, or abandoned).
    mutating func didDownload(_ transfer: ABRTransfer, context: ABRContext)
    /// While `transfer` runs with `context.buffer` left: a lower rung to fetch instead, or nil to keep loading.
    mutating func abandon(_ transfer: ABRTransfer, context: ABRContext) -> Int?
}

extension ABRController {
    /// No abandonment unless a controller says so.
    public var checksAbandonment: Bool { false }
    /// Never abandons.
    public mutating func abandon(_ transfer: ABRTransfer, context: ABRContext) -> Int? { nil }
}

extension ABRMovie {
    /// The highest rung whose nominal bit rate (kbit/s × 1000) is at most `bitsPerSecond`, or the lowest.
    public func highestRung(within bitsPerSecond: Double) -> Int {
        bitratesKbps.lastIndex { $0 * 1000 <= bitsPerSecond } ?? 0
    }
}
