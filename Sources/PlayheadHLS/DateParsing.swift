import Foundation

/// ISO 8601 / RFC 3339 date-times as used by `EXT-X-PROGRAM-DATE-TIME` and `EXT-X-DATERANGE`, parsed byte-wise
/// (no DateFormatter in the hot loop). Dates are kept to the millisecond, which is what HLS servers write and what
/// makes parse → write → parse exact.
enum ISO8601 {
    /// Parses `YYYY-MM-DDThh:mm:ss[.f+][Z|±hh:mm|±hhmm|±hh]`.
    static func parse(_ text: String) -> Date? {
        var copy = text
        return copy.withUTF8 { parse($0, 0, $0.count) }
    }

    static func parse(_ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Date? {
        var i = start
        func number(_ count: Int) -> Int? {
            guard i + count <= end else { return nil }
            var value = 0
            for k in i..<(i + count) {
                let digit = Int(b[k]) &- 0x30
                guard digit >= 0 && digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            i += count
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard i < end, b[i] == byte else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(0x2D), let month = number(2), expect(0x2D), let day = number(2),
            i < end, b[i] == 0x54 || b[i] == 0x74 || b[i] == 0x20
        else { return nil }
        i += 1
        guard let hour = number(2), expect(0x3A), let minute = number(2), expect(0x3A), let second = number(2),
            (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var millis = 0
        if i < end, b[i] == 0x2E || b[i] == 0x2C {
            i += 1
            var scale = 100
            var digits = 0
            var remainder = 0
            while i < end, b[i] >= 0x30 && b[i] <= 0x39 {
                let digit = Int(b[i] - 0x30)
                if scale >= 1 {
                    millis += digit * scale
                    scale /= 10
                } else if digits == 3 {
                    remainder = digit
                }
                digits += 1
                i += 1
            }
            guard digits > 0 else { return nil }
            if remainder >= 5 { millis += 1 }
        }
        var offsetSeconds = 0
        if i < end {
            if b[i] == 0x5A || b[i] == 0x7A {
                i += 1
            } else if b[i] == 0x2B || b[i] == 0x2D {
                let sign = b[i] == 0x2D ? -1 : 1
                i += 1
                guard let hours = number(2) else { return nil }
                var minutes = 0
                if i < end {
                    _ = expect(0x3A)
                    guard let m = number(2) else { return nil }
                    minutes = m
                }
                offsetSeconds = sign * (hours * 3600 + minutes * 60)
            } else {
                return nil
            }
        }
        guard i == end else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
        return date(milliseconds: seconds * 1000 + millis)
    }

    /// The date for a whole number of milliseconds since 1970, computed the same way every time so that equal
    /// inputs give bit-identical `Date`s.
    static func date(milliseconds: Int) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Milliseconds since 1970, rounded; clamped to about ±30 million years so that absurd dates (carried
    /// forward over absurd durations) cannot overflow.
    static func milliseconds(_ date: Date) -> Int {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        guard value.isFinite else { return 0 }
        return Int(max(-1e18, min(1e18, value)))
    }

    /// `YYYY-MM-DDThh:mm:ss.sssZ` in UTC.
    static func format(_ date: Date) -> String {
        let total = milliseconds(date)
        let millis = ((total % 1000) + 1000) % 1000
        let seconds = (total - millis) / 1000
        var days = seconds / 86_400
        var secondOfDay = seconds % 86_400
        if secondOfDay < 0 {
            secondOfDay += 86_400
            days -= 1
        }
        let (year, month, day) = civilFromDays(days)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondOfDay / 3600, 2)):"
            + "\(pad(secondOfDay / 60 % 60, 2)):\(pad(secondOfDay % 60, 2)).\(pad(millis, 3))Z"
    }

    // Howard Hinnant's days-from-civil algorithm (public domain arithmetic).
    private static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    private static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
