/// Small helpers for parsing ASCII syntax over UTF-8 bytes, shared by the WebVTT and SRT parsers.
enum ASCII {
    static let lineFeed: UInt8 = 0x0A
    static let carriageReturn: UInt8 = 0x0D
    static let tab: UInt8 = 0x09
    static let formFeed: UInt8 = 0x0C
    static let space: UInt8 = 0x20
    static let hyphen: UInt8 = 0x2D
    static let greaterThan: UInt8 = 0x3E
    static let lessThan: UInt8 = 0x3C
    static let colon: UInt8 = 0x3A
    static let comma: UInt8 = 0x2C
    static let period: UInt8 = 0x2E
    static let percent: UInt8 = 0x25
    static let ampersand: UInt8 = 0x26
    static let semicolon: UInt8 = 0x3B
    static let slash: UInt8 = 0x2F
    static let hash: UInt8 = 0x23
    static let zero: UInt8 = 0x30

    /// ASCII whitespace as the WHATWG Infra standard defines it: TAB, LF, FF, CR, SPACE (not VT).
    @inline(__always) static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == space || byte == tab || byte == lineFeed || byte == formFeed || byte == carriageReturn
    }

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool { byte &- zero < 10 }

    @inline(__always) static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20) &- 0x61 < 26
    }

    @inline(__always) static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20) &- 0x61 < 6
    }
}

extension ArraySlice where Element == UInt8 {
    /// Whether the bytes equal an ASCII string.
    func equals(_ ascii: StaticString) -> Bool {
        guard count == ascii.utf8CodeUnitCount else { return false }
        let pointer = ascii.utf8Start
        var offset = 0
        for byte in self {
            if byte != pointer[offset] { return false }
            offset += 1
        }
        return true
    }

    /// Whether the bytes start with an ASCII string.
    func hasPrefix(_ ascii: StaticString) -> Bool {
        let length = ascii.utf8CodeUnitCount
        guard count >= length else { return false }
        return self[startIndex..<startIndex + length].equals(ascii)
    }

    /// The index of the first occurrence of `byte`, if any.
    func firstIndex(of byte: UInt8) -> Int? {
        var index = startIndex
        while index < endIndex {
            if self[index] == byte { return index }
            index += 1
        }
        return nil
    }

    /// Splits on runs of ASCII whitespace, dropping empty pieces.
    func splitOnWhitespace() -> [ArraySlice<UInt8>] {
        var pieces: [ArraySlice<UInt8>] = []
        var index = startIndex
        while index < endIndex {
            while index < endIndex, ASCII.isWhitespace(self[index]) { index += 1 }
            let start = index
            while index < endIndex, !ASCII.isWhitespace(self[index]) { index += 1 }
            if start < index { pieces.append(self[start..<index]) }
        }
        return pieces
    }

    /// Splits a `name:value` setting at its first colon; `nil` when there is none or it is the first or last byte.
    func splitSetting() -> (name: ArraySlice<UInt8>, value: ArraySlice<UInt8>)? {
        guard let colon = firstIndex(of: ASCII.colon), colon != startIndex, colon != endIndex - 1 else { return nil }
        return (self[startIndex..<colon], self[(colon + 1)..<endIndex])
    }

    /// Splits at the first comma: `(before, after)` or `(self, nil)`.
    func splitAtFirstComma() -> (ArraySlice<UInt8>, ArraySlice<UInt8>?) {
        guard let comma = firstIndex(of: ASCII.comma) else { return (self, nil) }
        return (self[startIndex..<comma], self[(comma + 1)..<endIndex])
    }

    /// The bytes decoded as UTF-8 (invalid sequences become U+FFFD).
    var string: String { String(decoding: self, as: UTF8.self) }

    /// The WebVTT rules for parsing a percentage string: `digits ("." digits)? "%"`, between 0 and 100.
    func parseWebVTTPercentage() -> Double? {
        guard count >= 2, self[endIndex - 1] == ASCII.percent else { return nil }
        let number = self[startIndex..<(endIndex - 1)]
        var index = number.startIndex
        while index < number.endIndex, ASCII.isDigit(number[index]) { index += 1 }
        guard index > number.startIndex else { return nil }
        if index < number.endIndex {
            guard number[index] == ASCII.period else { return nil }
            index += 1
            let fractionStart = index
            while index < number.endIndex, ASCII.isDigit(number[index]) { index += 1 }
            guard index > fractionStart, index == number.endIndex else { return nil }
        }
        guard let value = Double(number.string), value >= 0, value <= 100 else { return nil }
        return value
    }
}
