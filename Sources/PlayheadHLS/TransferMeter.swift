import Foundation

/// How one download is measured for `BandwidthEstimator`: the one definition the player's `SegmentLoader` and the
/// simulator (`PlayheadABRSim`) share, so that the simulator predicts what the player's estimator is given.
///
/// A download is a wait for the response (the request's latency: `timeToFirstByte`) and then a transfer. Each chunk
/// of the body is a sample of the transfer alone: its bytes over the time since the previous chunk arrived, or,
/// for the first chunk, since the response arrived. The wait is left out of the samples because it does not grow
/// with the size: counted in, it makes a small segment look slower than a large one on the same link (at 1 Mbit/s
/// with 100 ms of latency a 690 kbit segment would measure 0.87 Mbit/s and a 6 Mbit one 0.98), so the estimate would
/// depend on the rung being fetched; a planner adds the wait back per request (`timeToFirstByte`).
///
/// A value type with no clock (callers pass times in seconds on one monotonic clock): safe on any thread.
public struct TransferMeter: Sendable, Hashable {
    /// One throughput sample: `bytes` that arrived over `duration` seconds, ending at `arrival`. A value type,
    /// safe anywhere.
    public struct Sample: Sendable, Hashable {
        /// The bytes of the chunk.
        public var bytes: Int
        /// Seconds they took: since the previous chunk, or since the response for the first one.
        public var duration: Double
        /// When the chunk arrived.
        public var arrival: Double
    }

    /// When the request was sent.
    public let requestedAt: Double
    /// When the response (its headers, or the first bit in a simulation) arrived; nil before.
    public private(set) var respondedAt: Double?
    private var lastArrival: Double?

    /// A meter for a request sent at `requestedAt`.
    public init(requestedAt: Double) {
        self.requestedAt = requestedAt
    }

    /// Notes that the response arrived at `time` (the first time only).
    public mutating func responded(at time: Double) {
        if respondedAt == nil { respondedAt = time }
    }

    /// Seconds from the request to the response, once it has arrived.
    public var timeToFirstByte: Double? { respondedAt.map { max($0 - requestedAt, 0) } }

    /// The sample of `bytes` arriving at `time`: measured from the previous chunk, else from the response, else (no
    /// response noted) from the request. Records the arrival, so that the next chunk is measured from it; chunks
    /// of no bytes (a body's skipped prefix) are recorded too, and their time is not counted twice.
    public mutating func chunk(bytes: Int, at time: Double) -> Sample {
        let from = lastArrival ?? respondedAt ?? requestedAt
        lastArrival = max(time, from)
        return Sample(bytes: bytes, duration: max(time - from, 0), arrival: time)
    }
}
