/// A range of media time given by its start and duration, like `CMTimeRange`. A value type, safe on any thread.
public struct TimeRange: Sendable, Hashable, CustomStringConvertible {
    /// Where the range begins.
    public var start: MediaTime
    /// How long it lasts.
    public var duration: MediaTime

    /// A range from `start` lasting `duration`.
    public init(start: MediaTime, duration: MediaTime) {
        self.start = start
        self.duration = duration
    }

    /// A range from `start` to `end` (`CMTimeRange(start:end:)`).
    public init(start: MediaTime, end: MediaTime) {
        self.start = start
        self.duration = end - start
    }

    /// The first time after the range.
    public var end: MediaTime { start + duration }
    /// The empty range at zero.
    public static let zero = TimeRange(start: .zero, duration: .zero)
    /// The invalid range (`CMTimeRange.invalid`): "no range given".
    public static let invalid = TimeRange(start: .invalid, duration: .invalid)
    /// Whether start and duration are numeric and the duration is not negative.
    public var isValid: Bool { start.isNumeric && duration.isNumeric && duration >= .zero }
    /// Whether the range is empty.
    public var isEmpty: Bool { duration == .zero }

    /// Whether `time` lies in `start ..< end`.
    public func containsTime(_ time: MediaTime) -> Bool { time >= start && time < end }

    /// `"[start, end)"` in seconds.
    public var description: String { "[\(start.seconds), \(end.seconds))" }
}
