/// HTML character references (`&amp;`, `&#38;`, `&#x26;`, legacy `&amp` without a semicolon) as the WebVTT cue
/// text tokenizer consumes them: the HTML standard's character reference state, with its longest-match rule for
/// named references and its replacements for invalid code points.
enum HTMLCharacterReference {
    /// The named references, built once from the packed table on first use.
    static let named: [String: String] = {
        var table: [String: String] = [:]
        table.reserveCapacity(2300)
        for entry in HTMLEntities.packed.split(whereSeparator: { $0 == " " || $0 == "\n" }) {
            guard let equals = entry.firstIndex(of: "=") else { continue }
            var value = ""
            for hex in entry[entry.index(after: equals)...].split(separator: ",") {
                if let code = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(code) {
                    value.unicodeScalars.append(scalar)
                }
            }
            table[String(entry[..<equals])] = value
        }
        return table
    }()

    /// The longest named reference is 32 characters with its semicolon.
    private static let longestName = 32

    /// Consumes a character reference whose `&` is at `index - 1`. On success advances `index` past it and returns
    /// its replacement; otherwise leaves `index` and returns `nil` (the `&` is then literal text).
    /// `inAttribute` applies the attribute rules (WebVTT annotations): a legacy name without `;` followed by `=` or
    /// an alphanumeric is not a reference.
    static func consume(_ bytes: ArraySlice<UInt8>, _ index: inout Int, inAttribute: Bool) -> String? {
        guard index < bytes.endIndex else { return nil }
        if bytes[index] == ASCII.hash { return consumeNumeric(bytes, &index) }
        guard ASCII.isAlphanumeric(bytes[index]) else { return nil }
        var end = index
        while end < bytes.endIndex, end - index < longestName, ASCII.isAlphanumeric(bytes[end]) { end += 1 }
        if end < bytes.endIndex, bytes[end] == ASCII.semicolon { end += 1 }
        var length = end - index
        while length > 0 {
            let candidate = bytes[index..<(index + length)]
            if let value = named[candidate.string] {
                let after = index + length
                if inAttribute, candidate.last != ASCII.semicolon, after < bytes.endIndex,
                    bytes[after] == 0x3D || ASCII.isAlphanumeric(bytes[after])
                {
                    return nil
                }
                index = after
                return value
            }
            length -= 1
        }
        return nil
    }

    private static func consumeNumeric(_ bytes: ArraySlice<UInt8>, _ index: inout Int) -> String? {
        var cursor = index + 1
        var hexadecimal = false
        if cursor < bytes.endIndex, bytes[cursor] | 0x20 == 0x78 {
            hexadecimal = true
            cursor += 1
        }
        let digitsStart = cursor
        var value: UInt32 = 0
        while cursor < bytes.endIndex {
            let byte = bytes[cursor]
            let digit: UInt32
            if ASCII.isDigit(byte) {
                digit = UInt32(byte - ASCII.zero)
            } else if hexadecimal, ASCII.isHexDigit(byte) {
                digit = UInt32((byte | 0x20) - 0x61 + 10)
            } else {
                break
            }
            value = min(value &* (hexadecimal ? 16 : 10) &+ digit, 0x11_0000)  // saturate past the last code point
            cursor += 1
        }
        guard cursor > digitsStart else { return nil }
        if cursor < bytes.endIndex, bytes[cursor] == ASCII.semicolon { cursor += 1 }
        index = cursor
        return String(Character(replacement(forCodePoint: value)))
    }

    /// The HTML "numeric character reference end state" replacements.
    static func replacement(forCodePoint value: UInt32) -> Unicode.Scalar {
        if value == 0 || value > 0x10_FFFF || (0xD800...0xDFFF).contains(value) { return "\u{FFFD}" }
        if (0x80...0x9F).contains(value), let mapped = windows1252[value] { return mapped }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    /// C1 control code points that the HTML standard maps to their windows-1252 characters.
    private static let windows1252: [UInt32: Unicode.Scalar] = [
        0x80: "\u{20AC}", 0x82: "\u{201A}", 0x83: "\u{0192}", 0x84: "\u{201E}", 0x85: "\u{2026}", 0x86: "\u{2020}",
        0x87: "\u{2021}", 0x88: "\u{02C6}", 0x89: "\u{2030}", 0x8A: "\u{0160}", 0x8B: "\u{2039}", 0x8C: "\u{0152}",
        0x8E: "\u{017D}", 0x91: "\u{2018}", 0x92: "\u{2019}", 0x93: "\u{201C}", 0x94: "\u{201D}", 0x95: "\u{2022}",
        0x96: "\u{2013}", 0x97: "\u{2014}", 0x98: "\u{02DC}", 0x99: "\u{2122}", 0x9A: "\u{0161}", 0x9B: "\u{203A}",
        0x9C: "\u{0153}", 0x9E: "\u{017E}", 0x9F: "\u{0178}",
    ]
}
