extension MediaTime {
    /// The sum, exact in a common timescale (`CMTimeAdd`). Invalid wins; indefinite next; opposite infinities
    /// give `.invalid`.
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        if let special = combineSpecial(lhs, rhs, subtracting: false) { return special }
        let scale = commonTimescale(lhs.timescale, rhs.timescale)
        let l = lhs.convertScale(scale)
        let r = rhs.convertScale(scale)
        let (sum, overflow) = l.value.addingReportingOverflow(r.value)
        if overflow { return sum < 0 ? .positiveInfinity : .negativeInfinity }
        return MediaTime(value: sum, timescale: scale)
    }

    /// The difference, exact in a common timescale (`CMTimeSubtract`).
    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        if let special = combineSpecial(lhs, rhs, subtracting: true) { return special }
        return lhs + (-rhs)
    }

    /// The negation; the infinities swap.
    public static prefix func - (time: MediaTime) -> MediaTime {
        switch time.kind {
        case .numeric: return MediaTime(value: -time.value, timescale: time.timescale)
        case .positiveInfinity: return .negativeInfinity
        case .negativeInfinity: return .positiveInfinity
        case .invalid, .indefinite: return time
        }
    }

    /// Adds in place.
    public static func += (lhs: inout MediaTime, rhs: MediaTime) { lhs = lhs + rhs }
    /// Subtracts in place.
    public static func -= (lhs: inout MediaTime, rhs: MediaTime) { lhs = lhs - rhs }

    /// The time scaled by an integer (`CMTimeMultiply`).
    public static func * (lhs: MediaTime, rhs: Int64) -> MediaTime {
        guard lhs.isNumeric else { return rhs == 0 && lhs.isInfinite ? .invalid : lhs }
        let (product, overflow) = lhs.value.multipliedReportingOverflow(by: rhs)
        if overflow { return (lhs.value < 0) != (rhs < 0) ? .negativeInfinity : .positiveInfinity }
        return MediaTime(value: product, timescale: lhs.timescale)
    }

    /// The time scaled by a real factor, kept in the same timescale (`CMTimeMultiplyByFloat64`).
    public func multiplied(by factor: Double) -> MediaTime {
        guard isNumeric else { return self }
        return MediaTime(seconds: seconds * factor, preferredTimescale: timescale)
    }

    /// The absolute value (`CMTimeAbsoluteValue`).
    public var magnitude: MediaTime { self < .zero ? -self : self }

    /// The smaller of two times (`CMTimeMinimum`).
    public static func minimum(_ a: MediaTime, _ b: MediaTime) -> MediaTime { a < b ? a : b }
    /// The larger of two times (`CMTimeMaximum`).
    public static func maximum(_ a: MediaTime, _ b: MediaTime) -> MediaTime { a > b ? a : b }

    private static func combineSpecial(_ a: MediaTime, _ b: MediaTime, subtracting: Bool) -> MediaTime? {
        if a.isNumeric && b.isNumeric { return nil }
        if !a.isValid || !b.isValid { return .invalid }
        if a.isIndefinite || b.isIndefinite { return .indefinite }
        let bb = subtracting ? -b : b
        if a.isInfinite && bb.isInfinite { return a.kind == bb.kind ? a : .invalid }
        return a.isInfinite ? a : bb
    }

    private static func commonTimescale(_ a: Int32, _ b: Int32) -> Int32 {
        if a == b { return a }
        let g = gcd(Int64(a), Int64(b))
        let lcm = Int64(a) / g * Int64(b)
        // Fall back to a fine but bounded timescale when the exact one does not fit.
        return lcm <= Int64(Int32.max) ? Int32(lcm) : max(a, b, 1_000_000_000)
    }
}

extension MediaTime: CustomStringConvertible {
    /// `"1.500 s (900/600)"`, or the kind for non-numeric times.
    public var description: String {
        switch kind {
        case .numeric:
            let s = (seconds * 1000).rounded() / 1000
            return "\(s) s (\(value)/\(timescale))"
        case .invalid: return "invalid"
        case .indefinite: return "indefinite"
        case .positiveInfinity: return "+infinity"
        case .negativeInfinity: return "-infinity"
        }
    }
}
