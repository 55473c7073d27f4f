/// The markup language of a cue's text, which decides how `SubtitleCue.parsedText` reads it.
///
/// A value type, safe to use from any thread.
public enum CueMarkup: String, Sendable, Hashable, CaseIterable {
    /// WebVTT cue text: `<c>`, `<i>`, `<b>`, `<u>`, `<ruby>`, `<rt>`, `<v>`, `<lang>`, timestamps, character
    /// references.
    case webVTT
    /// SubRip text: `<i>`, `<b>`, `<u>`, `<font ...>` and ASS-style `{\an8}` overrides.
    case subRip
}

/// One timed piece of text: a WebVTT cue or a SubRip entry, in a format-neutral model that mirrors the
/// `VTTCue` interface of the HTML standard (`id`, `startTime`, `endTime`, `text` and the cue settings).
///
/// A value type, safe to use from any thread.
public struct SubtitleCue: Sendable, Hashable {
    /// The cue identifier (WebVTT) or the entry's index line (SubRip); empty when absent.
    public var id: String
    /// When the cue becomes active, in seconds from the start of the track.
    public var startTime: Double
    /// When the cue stops being active, in seconds. The cue is active on `startTime ..< endTime`.
    public var endTime: Double
    /// The raw cue text with its markup, lines separated by U+000A.
    public var text: String
    /// The markup language of `text`.
    public var markup: CueMarkup
    /// Positioning and alignment settings (WebVTT cue settings, or what SubRip's `{\anN}` implies).
    public var settings: CueSettings
    /// SubRip's `X1:… X2:… Y1:… Y2:…` pixel rectangle, when the timing line carries one.
    public var displayBox: CueDisplayBox?
    /// The 1-based line number of the cue's timing line in the source, for diagnostics.
    public var sourceLine: Int
    /// The ASS/SSA event the cue came from, with its track's header, when it came from such a track: a window
    /// draws it with the track's styles (`text` holds its plain text, for terminals and text outputs).
    public var assEvent: ASSEvent?

    /// Creates a cue; every setting not given takes its WebVTT default.
    public init(
        id: String = "", startTime: Double, endTime: Double, text: String, markup: CueMarkup = .webVTT,
        settings: CueSettings = CueSettings(), displayBox: CueDisplayBox? = nil, sourceLine: Int = 0
    ) {
        self.id = id
        self.startTime = startTime
        self.endTime = endTime
        self.text = text
        self.markup = markup
        self.settings = settings
        self.displayBox = displayBox
        self.sourceLine = sourceLine
    }

    /// The cue text parsed into a node tree with the rules of `markup`. Parsed on each access (file parsing stays
    /// fast); keep the result if you need it more than once.
    public var parsedText: CueText {
        switch markup {
        case .webVTT: return WebVTTCueTextParser.parse(text)
        case .subRip: return SRTCueTextParser.parse(text)
        }
    }
}

/// A rectangle in pixels, from SubRip's `X1:… X2:… Y1:… Y2:…` extension of the timing line.
///
/// A value type, safe to use from any thread.
public struct CueDisplayBox: Sendable, Hashable {
    /// Left edge.
    public var x1: Int
    /// Right edge.
    public var x2: Int
    /// Top edge.
    public var y1: Int
    /// Bottom edge.
    public var y2: Int

    /// Creates a rectangle from its edges.
    public init(x1: Int, x2: Int, y1: Int, y2: Int) {
        self.x1 = x1
        self.x2 = x2
        self.y1 = y1
        self.y2 = y2
    }
}

/// The WebVTT cue settings of a cue, with the defaults of the specification (W3C WebVTT §3.1).
///
/// A value type, safe to use from any thread.
public struct CueSettings: Sendable, Hashable {
    /// `vertical:` — the writing direction. Default `.horizontal`.
    public var vertical: WritingDirection = .horizontal
    /// `line:` — the line position: a line number when `snapToLines`, else a percentage. `nil` means `auto`.
    public var line: Double?
    /// Whether `line` counts lines (`true`, the default) or is a percentage of the viewport (`false`).
    public var snapToLines: Bool = true
    /// The alignment of the cue box relative to `line` (`line:…,start|center|end`). Default `.start`.
    public var lineAlign: LineAlignment = .start
    /// `position:` — the indent of the cue box, a percentage. `nil` means `auto`.
    public var position: Double?
    /// The alignment of the cue box relative to `position`. Default `.auto`.
    public var positionAlign: PositionAlignment = .auto
    /// `size:` — the size of the cue box as a percentage. Default 100.
    public var size: Double = 100
    /// `align:` — the alignment of the text within the box. Default `.center`.
    public var align: TextAlignment = .center
    /// `region:` — the region the cue is shown in, a copy of the last `REGION` with that identifier.
    public var region: WebVTTRegion?

    /// Creates the default settings.
    public init() {}
}

/// The writing direction of a cue (`vertical:` setting). Raw values are the strings of `VTTCue.vertical`.
///
/// A value type, safe to use from any thread.
public enum WritingDirection: String, Sendable, Hashable, CaseIterable {
    /// Horizontal text (no `vertical` setting).
    case horizontal = ""
    /// `vertical:rl` — vertical lines growing to the left.
    case verticalGrowingLeft = "rl"
    /// `vertical:lr` — vertical lines growing to the right.
    case verticalGrowingRight = "lr"
}

/// How a cue box aligns to its line position. Raw values are the strings of `VTTCue.lineAlign`.
///
/// A value type, safe to use from any thread.
public enum LineAlignment: String, Sendable, Hashable, CaseIterable {
    /// The box starts at the line.
    case start
    /// The box is centred on the line.
    case center
    /// The box ends at the line.
    case end
}

/// How a cue box aligns to its position. Raw values are the strings of `VTTCue.positionAlign`.
///
/// A value type, safe to use from any thread.
public enum PositionAlignment: String, Sendable, Hashable, CaseIterable {
    /// The box's line-left edge is at the position.
    case lineLeft = "line-left"
    /// The box is centred on the position.
    case center
    /// The box's line-right edge is at the position.
    case lineRight = "line-right"
    /// Derived from the text alignment at rendering time.
    case auto
}

/// How text aligns inside the cue box. Raw values are the strings of `VTTCue.align`.
///
/// A value type, safe to use from any thread.
public enum TextAlignment: String, Sendable, Hashable, CaseIterable {
    /// Start of the line, by the text's direction.
    case start
    /// Centred.
    case center
    /// End of the line, by the text's direction.
    case end
    /// Left, whatever the direction.
    case left
    /// Right, whatever the direction.
    case right
}
