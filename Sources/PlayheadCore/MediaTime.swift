/// A rational point or span of media time, like Core Media's `CMTime`.
///
/// `value / timescale` seconds. Besides numeric times there are the non-numeric `.invalid`, `.indefinite`
/// (unknown, as the duration of a live stream) and the two infinities. A value type, safe on any thread.
public struct MediaTime: Sendable, Hashable {
    /// What kind of time this is, like `CMTimeFlags`.
    public enum Kind: UInt8, Sendable, Hashable {
        /// Not a time at all (`kCMTimeInvalid`).
        case invalid
        /// An ordinary rational time.
        case numeric
        /// Unknown, for example the duration of a live stream (`kCMTimeIndefinite`).
        case indefinite
        /// Later than every numeric time.
        case positiveInfinity
        /// Earlier than every numeric time.
        case negativeInfinity
    }

    /// The numerator: the count of `1/timescale` units.
    public var value: Int64
    /// Units per second; positive for numeric times.
    public var timescale: Int32
    /// Numeric or one of the special kinds.
    public var kind: Kind

    /// A numeric time of `value / timescale` seconds, like `CMTime(value:timescale:)`.
    public init(value: Int64, timescale: Int32) {
        precondition(timescale > 0, "MediaTime timescale must be positive")
        self.value = value
        self.timescale = timescale
        self.kind = .numeric
    }

    /// The time nearest `seconds` in units of `1/preferredTimescale`, like `CMTime(seconds:preferredTimescale:)`.
    /// NaN gives `.invalid`; infinities give the infinities.
    public init(seconds: Double, preferredTimescale: Int32) {
        if seconds.isNaN {
            self = .invalid
        } else if seconds.isInfinite {
            self = seconds > 0 ? .positiveInfinity : .negativeInfinity
        } else {
            let scaled = (seconds * Double(preferredTimescale)).rounded()
            let clamped = min(max(scaled, -9.0e18), 9.0e18)
            self.init(value: Int64(clamped), timescale: preferredTimescale)
        }
    }

    private init(kind: Kind) {
        self.value = 0
        self.timescale = 0
        self.kind = kind
    }

    /// Zero seconds (`CMTime.zero`).
    public static let zero = MediaTime(value: 0, timescale: 1)
    /// Not a time (`CMTime.invalid`).
    public static let invalid = MediaTime(kind: .invalid)
    /// An unknown time, such as a live stream's duration (`CMTime.indefinite`).
    public static let indefinite = MediaTime(kind: .indefinite)
    /// Later than every time (`CMTime.positiveInfinity`).
    public static let positiveInfinity = MediaTime(kind: .positiveInfinity)
    /// Earlier than every time (`CMTime.negativeInfinity`).
    public static let negativeInfinity = MediaTime(kind: .negativeInfinity)

    /// Whether this is an ordinary rational time.
    public var isNumeric: Bool { kind == .numeric }
    /// Whether this is a time at all (numeric, indefinite or infinite).
    public var isValid: Bool { kind != .invalid }
    /// Whether this is `.indefinite`.
    public var isIndefinite: Bool { kind == .indefinite }
    /// Whether this is positive or negative infinity.
    public var isInfinite: Bool { kind == .positiveInfinity || kind == .negativeInfinity }

    /// The time in seconds: NaN for invalid and indefinite times, ±infinity for the infinities.
    public var seconds: Double {
        switch kind {
        case .numeric: return Double(value) / Double(timescale)
        case .invalid, .indefinite: return .nan
        case .positiveInfinity: return .infinity
        case .negativeInfinity: return -.infinity
        }
    }

    /// This time in another timescale, rounded to the nearest unit (`CMTimeConvertScale`).
    public func convertScale(_ newTimescale: Int32) -> MediaTime {
        guard isNumeric, newTimescale != timescale else { return self }
        let scaled = Int128(value) * Int128(newTimescale)
        let divisor = Int128(timescale)
        var quotient = scaled / divisor
        let remainder = scaled % divisor
        if remainder * 2 >= divisor { quotient += 1 } else if remainder * 2 <= -divisor { quotient -= 1 }
        return MediaTime(value: Int64(clamping: quotient), timescale: newTimescale)
    }
}

extension MediaTime: Comparable {
    /// Orders times as `CMTimeCompare` does: negative infinity, numeric times, positive infinity, indefinite;
    /// invalid times sort first and equal each other.
    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        compare(lhs, rhs) < 0
    }

    /// Numeric equality is by value across timescales: 1/2 equals 300/600.
    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        compare(lhs, rhs) == 0
    }

    /// Hashes numeric times by their reduced value so that equal times hash alike.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(kind)
        if isNumeric {
            let g = gcd(Swift.abs(value), Int64(timescale))
            hasher.combine(g == 0 ? 0 : value / g)
            hasher.combine(g == 0 ? 1 : Int64(timescale) / g)
        }
    }

    private static func rank(_ kind: Kind) -> Int {
        switch kind {
        case .invalid: return 0
        case .negativeInfinity: return 1
        case .numeric: return 2
        case .positiveInfinity: return 3
        case .indefinite: return 4
        }
    }

    private static func compare(_ a: MediaTime, _ b: MediaTime) -> Int {
        if a.kind != .numeric || b.kind != .numeric {
            return rank(a.kind) - rank(b.kind)
        }
        let l = Int128(a.value) * Int128(b.timescale)
        let r = Int128(b.value) * Int128(a.timescale)
        return l < r ? -1 : (l > r ? 1 : 0)
    }
}

func gcd(_ a: Int64, _ b: Int64) -> Int64 {
    var (x, y) = (a, b)
    while y != 0 { (x, y) = (y, x % y) }
    return x
}
