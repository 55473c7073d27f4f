import Foundation

/// A value guarded by a mutex, for state shared between the engine's threads and the main actor. The mutex
/// inherits priority (`PriorityInheritingCondition`): the real-time audio thread waiting for it is not held back
/// by a normal thread that holds it.
///
/// Hold the lock only to read or update the value: never call out, block or allocate much while inside.
/// Safe from any thread.
public final class Locked<Value>: @unchecked Sendable {
    private let lock = PriorityInheritingCondition()
    private var value: Value

    /// Guards `value`.
    public init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value and returns its result.
    @discardableResult
    public func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    /// A copy of the value.
    public var current: Value { withLock { $0 } }
}

/// Seconds on the monotonic clock (`CLOCK_MONOTONIC`), for pacing and time stamps. Safe from any thread.
public enum MonotonicClock {
    /// Seconds since an arbitrary fixed point, never going backwards.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The monotonic time at which this process's clock was first read: the zero of event logs.
    public static let processStart: Double = now()
}
