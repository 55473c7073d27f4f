import Foundation

/// A grammar problem found while scanning an attribute list; the parser turns each into a warning (lenient) or
/// an error (strict).
struct AttributeListIssue {
    let message: String
}

/// Byte-wise scanner for attribute lists: no regex, no Scanner. Lenient by construction (it always produces a
/// list) and reports every grammar deviation as an issue.
enum AttributeListScanner {
    static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, issues: inout [AttributeListIssue]
    ) -> AttributeList {
        var list = AttributeList()
        var index = start
        while index < end {
            // Tolerate (and report) whitespace before a name, as after `, ` in many real playlists.
            if bytes[index] == 0x20 || bytes[index] == 0x09 {
                issues.append(AttributeListIssue(message: "whitespace in attribute list"))
                while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
                continue
            }
            let nameStart = index
            while index < end, bytes[index] != 0x3D, bytes[index] != 0x2C { index += 1 }
            var nameEnd = index
            while nameEnd > nameStart, bytes[nameEnd - 1] == 0x20 || bytes[nameEnd - 1] == 0x09 { nameEnd -= 1 }
            let name = String(decoding: UnsafeBufferPointer(rebasing: bytes[nameStart..<nameEnd]), as: UTF8.self)
            if nameEnd != index { issues.append(AttributeListIssue(message: "whitespace after attribute name")) }
            if index >= end || bytes[index] == 0x2C {
                let message = name.isEmpty ? "an empty attribute between commas" : "attribute \(name) has no value"
                issues.append(AttributeListIssue(message: message + " (RFC 8216bis 4.2)"))
                index += 1
                continue
            }
            if name.isEmpty {
                issues.append(AttributeListIssue(message: "attribute without a name"))
            } else if !isValidName(bytes, nameStart, nameEnd) {
                issues.append(AttributeListIssue(message: "invalid attribute name \(name)"))
            }
            index += 1  // '='
            if index < end, bytes[index] == 0x20 || bytes[index] == 0x09 {
                issues.append(AttributeListIssue(message: "whitespace before the value of \(name) (RFC 8216bis 4.2)"))
                while index < end, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
            }
            let value: AttributeValue
            if index < end, bytes[index] == 0x22 {
                let valueStart = index + 1
                var close = valueStart
                while close < end, bytes[close] != 0x22 { close += 1 }
                value = AttributeValue(
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<close]), as: UTF8.self),
                    quoted: true)
                if close >= end {
                    issues.append(AttributeListIssue(message: "unterminated quoted-string in \(name)"))
                    index = end
                } else {
                    index = close + 1
                    let valueEnd = index
                    var junk = false
                    while index < end, bytes[index] != 0x2C {
                        if bytes[index] != 0x20 && bytes[index] != 0x09 { junk = true }
                        index += 1
                    }
                    if junk {
                        issues.append(AttributeListIssue(message: "characters after quoted-string in \(name)"))
                    } else if index != valueEnd {
                        issues.append(trailingWhitespace(name))
                    }
                }
            } else {
                let valueStart = index
                while index < end, bytes[index] != 0x2C { index += 1 }
                var valueEnd = index
                while valueEnd > valueStart, bytes[valueEnd - 1] == 0x20 || bytes[valueEnd - 1] == 0x09 {
                    valueEnd -= 1
                }
                if valueEnd != index { issues.append(trailingWhitespace(name)) }
                value = AttributeValue(
                    String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<valueEnd]), as: UTF8.self),
                    quoted: false)
            }
            if index < end {
                index += 1  // ','
                if index == end { issues.append(AttributeListIssue(message: "a trailing comma (RFC 8216bis 4.2)")) }
            }
            if list[name] != nil {
                issues.append(AttributeListIssue(message: "attribute \(name) appears more than once"))
            }
            list.entries.append(AttributeList.Entry(name: name, value: value))
        }
        return list
    }

    private static func trailingWhitespace(_ name: String) -> AttributeListIssue {
        AttributeListIssue(message: "whitespace after the value of \(name) (RFC 8216bis 4.2)")
    }

    /// RFC 8216bis 4.2: attribute names use `[A-Z0-9-]`.
    private static func isValidName(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        for index in start..<end {
            let byte = bytes[index]
            let ok = (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
            if !ok { return false }
        }
        return true
    }
}

/// Exact grammars of RFC 8216bis 4.2 numeric types, byte-wise.
enum NumberGrammar {
    private static let powersOfTen: [Double] = (0...22).map { exponent in
        var value = 1.0
        for _ in 0..<exponent { value *= 10 }
        return value
    }

    static func decimalInteger(_ text: String) -> Int? {
        var copy = text
        return copy.withUTF8 { decimalInteger($0, 0, $0.count) }
    }

    static func decimalInteger(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        guard end > start, end - start <= 20 else { return nil }
        var value = 0
        for index in start..<end {
            let digit = Int(bytes[index]) &- 0x30
            guard digit >= 0 && digit <= 9 else { return nil }
            let (times, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(digit)
            if overflow1 || overflow2 { return nil }
            value = sum
        }
        return value
    }

    static func decimalFloat(_ text: String, signed: Bool) -> Double? {
        var copy = text
        return copy.withUTF8 { decimalFloat($0, 0, $0.count, signed: signed) }
    }

    /// Parses `-?[0-9]*(.[0-9]*)?` with at least one digit. Exact (correctly rounded): a fast path for up to 15
    /// significant digits, Foundation's `strtod` otherwise.
    static func decimalFloat(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, signed: Bool) -> Double? {
        var index = start
        var negative = false
        if signed, index < end, bytes[index] == 0x2D {
            negative = true
            index += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var digits = 0
        var fractionDigits = 0
        var seenDot = false
        while index < end {
            let byte = bytes[index]
            if byte == 0x2E {
                if seenDot { return nil }
                seenDot = true
            } else if byte >= 0x30 && byte <= 0x39 {
                digits += 1
                if mantissa != 0 || byte != 0x30 { significant += 1 }
                if significant <= 19 {
                    mantissa = mantissa &* 10 &+ UInt64(byte &- 0x30)
                    if seenDot { fractionDigits += 1 }
                } else if !seenDot {
                    return slowFloat(bytes, start, end)
                }
            } else {
                return nil
            }
            index += 1
        }
        guard digits > 0 else { return nil }
        if significant <= 15 && fractionDigits <= 22 {
            let value = Double(mantissa) / powersOfTen[fractionDigits]
            return negative ? -value : value
        }
        return slowFloat(bytes, start, end)
    }

    private static func slowFloat(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Double? {
        guard let value = Double(String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<end]), as: UTF8.self)),
            value.isFinite
        else { return nil }
        return value
    }

    static func hexSequence(_ text: String) -> [UInt8]? {
        let utf8 = Array(text.utf8)
        guard utf8.count > 2, utf8[0] == 0x30, utf8[1] == 0x78 || utf8[1] == 0x58 else { return nil }
        var nibbles: [UInt8] = []
        nibbles.reserveCapacity(utf8.count - 2)
        for byte in utf8[2...] {
            switch byte {
            case 0x30...0x39: nibbles.append(byte - 0x30)
            case 0x41...0x46: nibbles.append(byte - 0x41 + 10)
            case 0x61...0x66: nibbles.append(byte - 0x61 + 10)
            default: return nil
            }
        }
        if nibbles.count % 2 == 1 { nibbles.insert(0, at: 0) }
        return stride(from: 0, to: nibbles.count, by: 2).map { nibbles[$0] << 4 | nibbles[$0 + 1] }
    }

    static func resolution(_ text: String) -> Resolution? {
        guard let x = text.firstIndex(of: "x"),
            let width = decimalInteger(String(text[..<x])),
            let height = decimalInteger(String(text[text.index(after: x)...]))
        else { return nil }
        return Resolution(width: width, height: height)
    }

    /// `0x`-prefixed lowercase hexadecimal of `bytes`.
    static func hexString(_ bytes: [UInt8]) -> String {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out: [UInt8] = [0x30, 0x78]
        out.reserveCapacity(2 + bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
