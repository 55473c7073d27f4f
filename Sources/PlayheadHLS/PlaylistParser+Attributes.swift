import Foundation

/// Typed attribute reading with RFC grammar checks: a value that breaks the grammar is an issue (strict: error;
/// lenient: warning plus the tolerant reading real players do, such as an unquoted string or a signed integer).
extension ParserState {
    mutating func attributes(
        _ b: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, tag: TagKind
    ) throws(PlaylistParseError) -> AttributeList {
        var issues: [AttributeListIssue] = []
        var list = AttributeListScanner.scan(b, from: start, to: end, issues: &issues)
        for problem in issues { try issue(.invalidAttributeList, "#\(tag.name): \(problem.message)") }
        for entry in list.entries where entry.name.utf8.starts(with: "REQ-".utf8) {
            conformance.need(12, "the attribute \(entry.name)", line: lineNumber)
        }
        // The values of EXT-X-DEFINE are literal: `{$name}` in a VALUE stays as written (hls.js, Chromium).
        if tag != .define, containsReference(b, start, end) {
            for index in list.entries.indices where list.entries[index].value.isQuoted || isHex(list.entries[index]) {
                list.entries[index].value.text = try substitute(list.entries[index].value.text)
            }
        }
        return list
    }

    /// Unquoted values substitution applies to: hexadecimal-sequences (`0x...`, or a reference standing for one).
    private func isHex(_ entry: AttributeList.Entry) -> Bool {
        let text = entry.value.text
        return text.hasPrefix("0x") || text.hasPrefix("0X") || text.hasPrefix("{$")
    }

    mutating func integer(_ list: AttributeList, _ name: String, _ tag: TagKind) throws(PlaylistParseError) -> Int? {
        guard let value = list[name] else { return nil }
        if let number = list.decimalInteger(name) { return number }
        if !value.isQuoted, let number = Int(value.text), number < 0 {
            try issue(.invalidValue, "#\(tag.name): \(name)=\(value) is negative")
            return nil
        }
        try issue(.invalidValue, "#\(tag.name): \(name)=\(value) is not a decimal-integer")
        if let number = Int(value.text) { return number }
        // A decimal (`BANDWIDTH=1280000.5`) is read as its integer part, as hls.js and ExoPlayer read it.
        guard !value.isQuoted, let number = NumberGrammar.decimalFloat(value.text, signed: false), number < 1e18
        else { return nil }
        return Int(number)
    }

    mutating func float(
        _ list: AttributeList, _ name: String, _ tag: TagKind, signed: Bool = false
    ) throws(PlaylistParseError) -> Double? {
        guard let value = list[name] else { return nil }
        let number = signed ? list.signedDecimalFloatingPoint(name) : list.decimalFloatingPoint(name)
        if let number { return number }
        let kind = signed ? "signed-decimal-floating-point" : "decimal-floating-point"
        try issue(.invalidValue, "#\(tag.name): \(name)=\(value) is not a \(kind)")
        guard let lenient = Double(value.text), lenient.isFinite else { return nil }
        return lenient
    }

    mutating func quoted(_ list: AttributeList, _ name: String, _ tag: TagKind) throws(PlaylistParseError) -> String? {
        guard let value = list[name] else { return nil }
        if !value.isQuoted {
            try issue(.invalidValue, "#\(tag.name): \(name) must be a quoted-string")
            // An unquoted value holding a double quote cannot be a string (nor be written back as one).
            if value.text.utf8.contains(0x22) { return nil }
        }
        return value.text
    }

    mutating func enumerated(
        _ list: AttributeList, _ name: String, _ tag: TagKind
    ) throws(PlaylistParseError) -> String? {
        guard let value = list[name] else { return nil }
        if list.enumeratedString(name) == nil {
            if !value.isQuoted, value.text.utf8.contains(where: { $0 == 0x20 || $0 == 0x09 }) {
                try issue(
                    .invalidValue,
                    "#\(tag.name): \(name)=\(value) has whitespace inside an enumerated-string (RFC 8216bis 4.2)")
            } else {
                try issue(.invalidValue, "#\(tag.name): \(name) must be an enumerated-string")
            }
            // A quoted value is accepted as the enumerated value it spells, unless it holds characters no
            // enumerated-string can (it could not be written back either).
            if value.text.utf8.contains(where: { $0 == 0x2C || $0 == 0x22 || $0 == 0x20 || $0 == 0x09 }) {
                return nil
            }
        }
        return value.text
    }

    mutating func flag(_ list: AttributeList, _ name: String, _ tag: TagKind) throws(PlaylistParseError) -> Bool {
        guard let value = list[name] else { return false }
        if let flag = list.yesNo(name) { return flag }
        try issue(.invalidValue, "#\(tag.name): \(name) must be YES or NO, not \(value)")
        return value.text.uppercased() == "YES"
    }

    mutating func hex(_ list: AttributeList, _ name: String, _ tag: TagKind) throws(PlaylistParseError) -> [UInt8]? {
        guard let value = list[name] else { return nil }
        if let bytes = list.hexadecimalSequence(name) { return bytes }
        try issue(.invalidValue, "#\(tag.name): \(name)=\(value) is not a hexadecimal-sequence")
        return NumberGrammar.hexSequence(value.text)
    }

    mutating func resolution(
        _ list: AttributeList, _ name: String, _ tag: TagKind
    ) throws(PlaylistParseError) -> Resolution? {
        guard let value = list[name] else { return nil }
        if let resolution = list.decimalResolution(name) { return resolution }
        try issue(.invalidValue, "#\(tag.name): \(name)=\(value) is not a decimal-resolution")
        return NumberGrammar.resolution(value.text.lowercased())
    }

    mutating func required<T>(_ value: T?, _ name: String, _ tag: TagKind) throws(PlaylistParseError) -> T? {
        if value == nil { try issue(.missingAttribute, "#\(tag.name) has no \(name)") }
        return value
    }

    /// `n[@o]` as used by `EXT-X-BYTERANGE` and the `BYTERANGE` attributes.
    mutating func byteRangeSpec(_ text: String, _ tag: TagKind) throws(PlaylistParseError) -> (Int, Int?)? {
        let pieces = text.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        guard let length = NumberGrammar.decimalInteger(String(pieces[0])) else {
            try issue(.invalidValue, "#\(tag.name): \(text) is not a byte range (n[@o])")
            return nil
        }
        // No bytes, or bytes past the largest offset there is: no range a request could ask for.
        guard length > 0 else {
            try issue(.invalidByteRange, "#\(tag.name): \(text) is a range of no bytes")
            return nil
        }
        guard pieces.count == 2 else { return (length, nil) }
        guard let offset = NumberGrammar.decimalInteger(String(pieces[1])) else {
            try issue(.invalidValue, "#\(tag.name): \(text) is not a byte range (n[@o])")
            return (length, nil)
        }
        guard offset <= Int.max - length else {
            try issue(.invalidByteRange, "#\(tag.name): \(text) ends past the largest byte offset")
            return nil
        }
        return (length, offset)
    }
}
