import Foundation

/// One attribute value as written: its text (without the quotes) and whether it was a quoted-string.
/// A value type, safe from any thread.
public struct AttributeValue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The text, without surrounding quotes, after variable substitution.
    public var text: String
    /// Whether the value was written as a `quoted-string`.
    public var isQuoted: Bool

    /// Creates a value.
    public init(_ text: String, quoted: Bool) {
        self.text = text
        self.isQuoted = quoted
    }

    /// The value as written in a playlist (`"text"` or `text`).
    public var description: String { isQuoted ? "\"\(text)\"" : text }
}

/// An ordered RFC 8216bis attribute list (`NAME=VALUE,NAME="quoted, with commas"`), with typed accessors for
/// each value type of RFC 8216bis 4.2. Accessors return `nil` when the attribute is absent or does not match
/// the grammar of the requested type exactly. A value type: safe to share across threads and isolation domains.
public struct AttributeList: Sendable, Hashable, Codable, CustomStringConvertible {
    /// One `NAME=VALUE` pair.
    public struct Entry: Sendable, Hashable, Codable {
        /// The attribute name (`BANDWIDTH`).
        public var name: String
        /// The value.
        public var value: AttributeValue

        /// Creates an entry.
        public init(name: String, value: AttributeValue) {
            self.name = name
            self.value = value
        }
    }

    /// The attributes in the order written.
    public var entries: [Entry]

    /// Creates an empty list.
    public init() { entries = [] }

    /// Creates a list from entries.
    public init(_ entries: [Entry]) { self.entries = entries }

    /// Parses an attribute list strictly; throws a ``PlaylistParseError`` (line `nil`) describing the first
    /// grammar violation.
    public init(parsing text: String) throws(PlaylistParseError) {
        var issues: [AttributeListIssue] = []
        var copy = text
        let list = copy.withUTF8 { buffer in
            AttributeListScanner.scan(buffer, from: 0, to: buffer.count, issues: &issues)
        }
        if let first = issues.first {
            throw PlaylistParseError(line: nil, kind: .invalidAttributeList, message: first.message)
        }
        self = list
    }

    /// Whether the list has no attributes.
    public var isEmpty: Bool { entries.isEmpty }

    /// The value of the attribute `name`, or `nil`. Setting replaces it in place or appends it; `nil` removes it.
    public subscript(name: String) -> AttributeValue? {
        get {
            for entry in entries where entry.name == name { return entry.value }
            return nil
        }
        set {
            if let index = entries.firstIndex(where: { $0.name == name }) {
                if let newValue { entries[index].value = newValue } else { entries.remove(at: index) }
            } else if let newValue {
                entries.append(Entry(name: name, value: newValue))
            }
        }
    }

    /// The list as written in a playlist.
    public var description: String {
        entries.map { "\($0.name)=\($0.value)" }.joined(separator: ",")
    }

    /// The raw text of an attribute, quoted or not.
    public func string(_ name: String) -> String? { self[name]?.text }

    /// A `quoted-string` attribute; `nil` if absent or not quoted.
    public func quotedString(_ name: String) -> String? {
        guard let value = self[name], value.isQuoted else { return nil }
        return value.text
    }

    /// An `enumerated-string` attribute (unquoted, no whitespace); `nil` if absent or quoted.
    public func enumeratedString(_ name: String) -> String? {
        guard let value = self[name], !value.isQuoted, !value.text.isEmpty else { return nil }
        for byte in value.text.utf8 where byte == 0x20 || byte == 0x09 || byte == 0x22 || byte == 0x2C { return nil }
        return value.text
    }

    /// A `decimal-integer` attribute (`[0-9]+`, at most 20 digits, in the range of `Int`).
    public func decimalInteger(_ name: String) -> Int? {
        guard let value = self[name], !value.isQuoted else { return nil }
        return NumberGrammar.decimalInteger(value.text)
    }

    /// A `decimal-floating-point` attribute (non-negative, `[0-9.]`, no exponent).
    public func decimalFloatingPoint(_ name: String) -> Double? {
        guard let value = self[name], !value.isQuoted else { return nil }
        return NumberGrammar.decimalFloat(value.text, signed: false)
    }

    /// A `signed-decimal-floating-point` attribute (optional leading `-`).
    public func signedDecimalFloatingPoint(_ name: String) -> Double? {
        guard let value = self[name], !value.isQuoted else { return nil }
        return NumberGrammar.decimalFloat(value.text, signed: true)
    }

    /// A `hexadecimal-sequence` attribute (`0x` or `0X` then hexadecimal digits), as bytes, big-endian.
    public func hexadecimalSequence(_ name: String) -> [UInt8]? {
        guard let value = self[name], !value.isQuoted else { return nil }
        return NumberGrammar.hexSequence(value.text)
    }

    /// A `decimal-resolution` attribute (`<width>x<height>`).
    public func decimalResolution(_ name: String) -> Resolution? {
        guard let value = self[name], !value.isQuoted else { return nil }
        return NumberGrammar.resolution(value.text)
    }

    /// An enumerated `YES`/`NO` attribute; `nil` if absent or anything else.
    public func yesNo(_ name: String) -> Bool? {
        switch enumeratedString(name) {
        case "YES": return true
        case "NO": return false
        default: return nil
        }
    }

    /// The entries whose names are not in `known`, in order (used to keep unknown attributes).
    func excluding(_ known: Set<String>) -> AttributeList {
        var result = AttributeList()
        for entry in entries where !known.contains(entry.name) { result.entries.append(entry) }
        return result
    }
}
