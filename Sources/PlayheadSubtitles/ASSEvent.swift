/// An ASS/SSA event as its track carries it, with the track's header: what a renderer (libass) needs to draw the
/// cue with the track's styles, positions and colours rather than as plain text.
///
/// A value type, safe to use from any thread.
public struct ASSEvent: Sendable, Hashable {
    /// The track's header: `[Script Info]` (with `PlayResX`/`PlayResY`, the coordinates the events use) and its
    /// `[V4+ Styles]` or `[V4 Styles]` section. Shared by every event of the track (a string's storage is not
    /// copied).
    public var header: String
    /// The event's fields without its times, in the order `Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text`
    /// (the text keeps its override blocks).
    public var fields: String
    /// The fonts the track's file attaches, which its styles may name; nil when it attaches none.
    public var fonts: ASSFonts?

    /// Creates an event from a track's header and an event's fields in the order `fields` documents.
    public init(header: String, fields: String, fonts: ASSFonts? = nil) {
        self.header = header
        self.fields = fields
        self.fonts = fonts
    }

    /// The event of a sample: Matroska's `ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text` (what
    /// FFmpeg's demuxers give) or a script's whole `Dialogue: Layer,Start,End,Style,...` line; nil when the line has
    /// too few fields.
    public init?(header: String, sample: String, fonts: ASSFonts? = nil) {
        let dialogue = sample.hasPrefix("Dialogue:")
        let body = dialogue ? sample.dropFirst("Dialogue:".count).drop { $0 == " " } : sample[...]
        // Matroska: drop ReadOrder. A Dialogue line: keep Layer, drop Start and End.
        let parts = body.split(separator: ",", maxSplits: dialogue ? 9 : 8, omittingEmptySubsequences: false)
        guard parts.count == (dialogue ? 10 : 9) else { return nil }
        let kept = dialogue ? [parts[0]] + parts[3...] : Array(parts[1...])
        self.init(header: header, fields: kept.joined(separator: ","), fonts: fonts)
    }
}

/// The fonts an ASS track's file attaches (name and TrueType/OpenType bytes), shared by all of the track's events:
/// compared by identity, so that events compare without their bytes.
///
/// Immutable; safe to use from any thread.
public final class ASSFonts: Sendable, Hashable {
    /// Each font's file name and bytes.
    public let fonts: [(name: String, data: [UInt8])]

    /// Fonts from their names and bytes.
    public init(_ fonts: [(name: String, data: [UInt8])]) { self.fonts = fonts }

    /// The same set of fonts (the same object).
    public static func == (a: ASSFonts, b: ASSFonts) -> Bool { a === b }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }
}
