import Foundation

/// Why a movie, a trace or a setting cannot be used: one line naming the file (or flag) and what is wrong.
/// A value type, safe on any thread.
public struct ABRInputError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The message, e.g. `bbb.json: segment_sizes_bits[3][2] is negative (-5)`.
    public var description: String

    /// An error with this one-line message.
    public init(_ description: String) { self.description = description }
}

/// Checks that `value` is finite and within `range`, or throws `ABRInputError` naming `what` in `source`.
func checked(_ value: Double, _ range: ClosedRange<Double>, _ what: String, in source: String) throws -> Double {
    guard value.isFinite, range.contains(value) else {
        throw ABRInputError("\(source): \(what) is \(value), not in \(range.lowerBound)...\(range.upperBound)")
    }
    return value
}
