import Foundation

/// What kind of problem a parse error or warning reports. A value type, safe from any thread.
public enum PlaylistIssueKind: String, Sendable, Hashable, Codable {
    /// The text is not UTF-8, or is not a playlist at all.
    case notAPlaylist
    /// The first line is not `#EXTM3U`.
    case missingHeader
    /// An attribute list does not follow the RFC 8216bis grammar.
    case invalidAttributeList
    /// A required attribute is missing.
    case missingAttribute
    /// A tag or attribute value does not have the type the RFC requires.
    case invalidValue
    /// A `{$name}` reference to a variable that is not defined, or a bad `EXT-X-DEFINE`.
    case undefinedVariable
    /// A tag that may appear once appears again.
    case duplicateTag
    /// A tag appears where the RFC does not allow it (a media tag in a multivariant playlist, for example).
    case misplacedTag
    /// A media segment URI without an `EXTINF` tag.
    case missingSegmentDuration
    /// An `EXTINF` duration (rounded) exceeds `EXT-X-TARGETDURATION`, or a part exceeds the part target.
    case durationExceedsTarget
    /// A media playlist without `EXT-X-TARGETDURATION`.
    case missingTargetDuration
    /// An implicit byte-range offset with no previous range of the same resource.
    case invalidByteRange
    /// A playlist that mixes multivariant and media playlist tags.
    case mixedPlaylist
    /// A tag that is allowed but used in a way that the RFC forbids (e.g. `EXT-X-SKIP` without server control).
    case protocolViolation
    /// A tag or attribute newer than the playlist's `EXT-X-VERSION` (RFC 8216bis section 8).
    case incompatibleVersion
}

/// A parse failure: the 1-based line number (when known), what kind of problem, and a message saying what is
/// wrong. A value type, safe from any thread.
public struct PlaylistParseError: Error, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The 1-based line number, or `nil` when the problem is not tied to a line.
    public var line: Int?
    /// The category.
    public var kind: PlaylistIssueKind
    /// A human-readable explanation.
    public var message: String

    /// Creates an error.
    public init(line: Int?, kind: PlaylistIssueKind, message: String) {
        self.line = line
        self.kind = kind
        self.message = message
    }

    /// `line 12: message`, or just the message when no line is known.
    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

/// Something the lenient parser accepted although the RFC forbids or discourages it; strict mode throws the same
/// problem as a ``PlaylistParseError``. A value type, safe from any thread.
public struct PlaylistWarning: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The 1-based line number, or `nil` when the problem is not tied to a line.
    public var line: Int?
    /// The category.
    public var kind: PlaylistIssueKind
    /// A human-readable explanation.
    public var message: String

    /// Creates a warning.
    public init(line: Int?, kind: PlaylistIssueKind, message: String) {
        self.line = line
        self.kind = kind
        self.message = message
    }

    /// `line 12: message`, or just the message when no line is known.
    public var description: String { line.map { "line \($0): \(message)" } ?? message }
}

/// Options for ``PlaylistParser``. A value type, safe from any thread.
public struct PlaylistParserOptions: Sendable, Hashable {
    /// Reject everything RFC 8216bis forbids, instead of accepting it with a warning.
    public var strict: Bool
    /// Variables of the multivariant playlist that referenced this media playlist, for `EXT-X-DEFINE:IMPORT`.
    public var importedVariables: [String: String]

    /// Creates options; the default is lenient with no imported variables.
    public init(strict: Bool = false, importedVariables: [String: String] = [:]) {
        self.strict = strict
        self.importedVariables = importedVariables
    }

    /// Lenient parsing, as real players do: problems are recorded as warnings.
    public static let lenient = PlaylistParserOptions()
    /// Strict RFC 8216bis parsing.
    public static let strict = PlaylistParserOptions(strict: true)
}
