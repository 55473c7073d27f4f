/// The file format a `SubtitleDocument` was read from.
///
/// A value type, safe to use from any thread.
public enum SubtitleFormat: String, Sendable, Hashable, CaseIterable {
    /// WebVTT (W3C WebVTT: The Web Video Text Tracks Format).
    case webVTT
    /// SubRip (`.srt`).
    case subRip
}

/// A parsed subtitle file: its cues in file order, and for WebVTT its regions, style sheets, comments and HLS
/// timestamp map.
///
/// A value type, safe to use from any thread.
public struct SubtitleDocument: Sendable, Hashable {
    /// The format the document was read from.
    public var format: SubtitleFormat
    /// The cues, in the order of the file (not sorted by time; `CueTimeline` indexes them by time).
    public var cues: [SubtitleCue]
    /// The WebVTT `REGION` blocks, in file order (a later region wins for an identifier used twice).
    public var regions: [WebVTTRegion]
    /// The text of each WebVTT `STYLE` block (CSS, not interpreted here), in file order.
    public var styleSheets: [String]
    /// The text of each WebVTT `NOTE` block, in file order.
    public var notes: [String]
    /// The WebVTT header lines after the `WEBVTT` line, such as `X-TIMESTAMP-MAP=…`, as written.
    public var headerLines: [String]
    /// The HLS `X-TIMESTAMP-MAP` header, when present and valid.
    public var timestampMap: WebVTTTimestampMap?
    /// What the parser skipped or repaired, each with its line; a file with warnings still parsed.
    public var warnings: [SubtitleDiagnostic]

    /// Creates a document.
    public init(
        format: SubtitleFormat, cues: [SubtitleCue] = [], regions: [WebVTTRegion] = [], styleSheets: [String] = [],
        notes: [String] = [], headerLines: [String] = [], timestampMap: WebVTTTimestampMap? = nil,
        warnings: [SubtitleDiagnostic] = []
    ) {
        self.format = format
        self.cues = cues
        self.regions = regions
        self.styleSheets = styleSheets
        self.notes = notes
        self.headerLines = headerLines
        self.timestampMap = timestampMap
        self.warnings = warnings
    }
}

/// A warning about one line of a subtitle file: what was skipped or repaired, and where.
///
/// A value type, safe to use from any thread.
public struct SubtitleDiagnostic: Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line number in the source.
    public var line: Int
    /// What is wrong, in words.
    public var message: String

    /// Creates a diagnostic.
    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    /// `line N: message`.
    public var description: String { "line \(line): \(message)" }
}

/// Why a subtitle file could not be parsed at all.
///
/// A value type, safe to use from any thread.
public struct SubtitleParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The 1-based line number where parsing stopped.
    public var line: Int
    /// What is wrong, in words.
    public var message: String

    /// Creates an error.
    public init(line: Int, message: String) {
        self.line = line
        self.message = message
    }

    /// `line N: message`.
    public var description: String { "line \(line): \(message)" }
}

/// The HLS `X-TIMESTAMP-MAP=MPEGTS:<ticks>,LOCAL:<WebVTT timestamp>` header (RFC 8216 §3.5), which maps the
/// cue times of a WebVTT segment onto the MPEG-2 transport stream clock of the media segments.
///
/// A value type, safe to use from any thread.
public struct WebVTTTimestampMap: Sendable, Hashable {
    /// The MPEG-2 presentation timestamp, in 90 kHz ticks, that corresponds to `local`.
    public var mpegts: Int64
    /// The cue time, in seconds, that corresponds to `mpegts` (`LOCAL`; 0 when absent).
    public var local: Double

    /// Creates a map.
    public init(mpegts: Int64, local: Double) {
        self.mpegts = mpegts
        self.local = local
    }

    /// What to add to a cue time to get a time on the 90 kHz clock in seconds: `mpegts / 90000 - local`.
    public var offset: Double { Double(mpegts) / 90_000 - local }

    /// A cue time mapped onto the transport stream clock, in seconds.
    public func mediaTime(forCueTime cueTime: Double) -> Double { cueTime + offset }

    /// Parses the header line (`X-TIMESTAMP-MAP=MPEGTS:900000,LOCAL:00:00:00.000`, either order); `nil` when it is
    /// not a timestamp map or a value is invalid.
    public init?(headerLine: some StringProtocol) {
        let bytes = ArraySlice(headerLine.utf8)
        guard bytes.hasPrefix("X-TIMESTAMP-MAP=") else { return nil }
        var mpegts: Int64?
        var local: Double?
        let body = bytes[(bytes.startIndex + 16)...]
        var start = body.startIndex
        while start <= body.endIndex {
            let end = body[start...].firstIndex(of: ASCII.comma) ?? body.endIndex
            let field = body[start..<end]
            if field.hasPrefix("MPEGTS:") {
                let digits = field[(field.startIndex + 7)...]
                guard !digits.isEmpty, digits.allSatisfy(ASCII.isDigit), let value = Int64(digits.string) else {
                    return nil
                }
                mpegts = value
            } else if field.hasPrefix("LOCAL:") {
                var index = field.startIndex + 6
                guard let value = WebVTTTimings.collectTimestamp(field, &index), index == field.endIndex else {
                    return nil
                }
                local = value
            }
            start = end + 1
        }
        guard let mpegts else { return nil }
        self.init(mpegts: mpegts, local: local ?? 0)
    }
}
