import Foundation
import PlayheadSubtitles

/// Subtitle cues written as an ASS script for libass. Cues from an ASS/SSA track are drawn with their track's
/// header: its styles, colours, `PlayResX`/`PlayResY` and each event's margins, layers and override tags (`\pos`,
/// `\an`, `\fad`, `\move`, `\k`...), each event at its own time, drawn at the cues' time now (`drawTime`): an
/// animated one (`isAnimated`) is drawn anew at each picture's time. Other cues get one `Dialogue` each with the
/// player's look: white sans-serif text with a black outline, sized to the picture's height, at the bottom centre
/// unless the cue's settings place it; italic, bold and underline spans become ASS overrides, line breaks `\N`;
/// that script is timeless, drawn at `drawnAt` (the text renderer decides when cues show). Pure functions; any
/// thread.
enum ASSScript {
    /// The script time at which a script of plain cues is drawn, in milliseconds.
    static let drawnAt = 3_600_000

    /// The script showing `cues` in a `width` x `height` area. When some come from an ASS/SSA track, that track's
    /// cues alone (one track shows at a time; a cue of another kind beside them is left out).
    /// Plain cues are sized for a picture `sizingHeight` high (default `height`): a window whose controls take
    /// the bottom of the picture draws them above the bar at the size they have without it.
    static func script(for cues: [SubtitleCue], width: Int, height: Int, sizingHeight: Int? = nil) -> String {
        if let header = cues.lazy.compactMap(\.assEvent).first?.header {
            return trackScript(header: header, cues: cues.filter { $0.assEvent?.header == header })
        }
        let sizing = sizingHeight ?? height
        let size = max(8, sizing / 14)
        let outline = max(1, size / 16)
        let margin = max(4, sizing / 22)
        var lines = [
            "[Script Info]", "ScriptType: v4.00+", "PlayResX: \(width)", "PlayResY: \(height)", "WrapStyle: 0",
            "ScaledBorderAndShadow: yes", "", "[V4+ Styles]",
            "Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, "
                + "Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, "
                + "Alignment, MarginL, MarginR, MarginV, Encoding",
            "Style: Default,sans-serif,\(size),&H00FFFFFF,&H000000FF,&H00000000,&H80000000,0,0,0,0,100,100,0,0,1,"
                + "\(outline),0,2,\(margin),\(margin),\(margin),1",
            "", "[Events]", "Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text",
        ]
        let area = CueLayout.Area(width: Double(width), height: Double(height), lineHeight: Double(size) * 1.25)
        for cue in cues {
            let box = CueLayout.box(for: cue.settings, in: area, defaultMargin: Double(margin))
            let (left, right, vertical) = (Int(box.left.rounded()), Int(box.right.rounded()), Int(box.margin.rounded()))
            lines.append(
                "Dialogue: 0,0:00:00.00,9:59:59.00,Default,,\(left),\(right),\(vertical),,{\\an\(box.alignment)}"
                    + text(cue))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The fonts the ASS track of `cues` attaches (the track `script(for:)` draws), nil when none.
    static func fonts(for cues: [SubtitleCue]) -> ASSFonts? {
        cues.lazy.compactMap(\.assEvent).first?.fonts
    }

    /// An ASS track's header with `cues`' events at their own times (`span`). The header's own `[Events]`
    /// section, if any, is replaced: its format line may name SSA's `Marked` where the events carry a layer.
    static func trackScript(header: String, cues: [SubtitleCue]) -> String {
        var script = String(
            header[..<(header.range(of: "[Events]", options: .caseInsensitive)?.lowerBound ?? header.endIndex)])
        if !script.hasSuffix("\n") { script += "\n" }
        script += "\n[Events]\nFormat: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text\n"
        for cue in cues {
            guard let event = cue.assEvent else { continue }
            let parts = event.fields.split(separator: ",", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2 else { continue }
            let (start, end) = span(cue)
            script += "Dialogue: \(parts[0]),\(time(start)),\(time(end)),\(parts[1])\n"
        }
        return script
    }

    /// A cue's start and end in script milliseconds, whole centiseconds as ASS writes them (not before 0, at least
    /// a centisecond long, ten hours when its end is not known).
    static func span(_ cue: SubtitleCue) -> (start: Int, end: Int) {
        func ms(_ seconds: Double) -> Int {
            seconds.isFinite ? Int(min(max(seconds * 1000, 0), 1e12).rounded(.down)) / 10 * 10 : -1
        }
        let start = max(ms(cue.startTime), 0)
        let end = ms(cue.endTime)
        return (start, end < 0 ? start + 36_000_000 : max(end, start + 10))
    }

    /// The script time, in milliseconds, at which to draw the script of `cues` when their time is `seconds`:
    /// within every ASS event listed, so that each shows (the text renderer's clock and a picture's differ by
    /// a few milliseconds); nil `seconds` (not known) a second into the latest (or at the middle of the events'
    /// common span when shorter): a still in which a fade-in has ended. `drawnAt` for plain cues.
    static func drawTime(for cues: [SubtitleCue], at seconds: Double?) -> Int {
        let spans = cues.filter { $0.assEvent != nil }.map(span)
        guard let low = spans.map(\.start).max(), let firstEnd = spans.map(\.end).min() else { return drawnAt }
        let high = max(low, firstEnd - 1)
        let wanted = seconds.flatMap { $0.isFinite ? Int(min(max($0 * 1000, 0), 1e12).rounded(.down)) : nil }
        return min(max(wanted ?? (low + min(1000, (high - low) / 2)), low), high)
    }

    /// Whether an ASS event among `cues` changes while it shows (it moves, fades, transforms or sweeps karaoke):
    /// drawn again at each picture.
    static func isAnimated(_ cues: [SubtitleCue]) -> Bool {
        cues.contains { cue in
            guard let fields = cue.assEvent?.fields.lowercased() else { return false }
            return ["\\move(", "\\t(", "\\k", "\\fad"].contains { fields.contains($0) }
        }
    }

    /// Milliseconds as an ASS time, `H:MM:SS.CC` (rounded down to the centisecond).
    static func time(_ ms: Int) -> String {
        let cs = ms / 10
        let (h, m, sec, c) = (cs / 360_000, cs / 6000 % 60, cs / 100 % 60, cs % 100)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(h):\(two(m)):\(two(sec)).\(two(c))"
    }

    /// The cue's text with its spans as ASS overrides.
    static func text(_ cue: SubtitleCue) -> String {
        var out = ""
        func visit(_ nodes: [CueNode]) {
            for node in nodes {
                switch node {
                case .text(let t): out += escape(t)
                case .timestamp: break
                case .span(let span):
                    let (on, off) = overrides(span.kind)
                    out += on
                    visit(span.children)
                    out += off
                }
            }
        }
        visit(cue.parsedText.nodes)
        return out
    }

    private static func overrides(_ kind: CueSpanKind) -> (String, String) {
        switch kind {
        case .italic: return ("{\\i1}", "{\\i0}")
        case .bold: return ("{\\b1}", "{\\b0}")
        case .underline: return ("{\\u1}", "{\\u0}")
        case .font(let color, _, _):
            guard let bgr = color.flatMap(hexBGR) else { return ("", "") }
            return ("{\\c&H\(bgr)&}", "{\\c}")
        default: return ("", "")
        }
    }

    /// `#RRGGBB` as ASS's `BBGGRR`, nil for anything else.
    private static func hexBGR(_ color: String) -> String? {
        let hex = color.hasPrefix("#") ? String(color.dropFirst()) : color
        guard hex.count == 6, hex.allSatisfy(\.isHexDigit) else { return nil }
        let c = Array(hex.uppercased())
        return String(c[4...5]) + String(c[2...3]) + String(c[0...1])
    }

    /// Text with ASS's specials made literal: braces would open override blocks, a backslash an escape; line
    /// feeds become hard breaks.
    private static func escape(_ text: String) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "\\": out += "\\\u{2060}"  // a backslash followed by a word joiner is not an escape
            case "{": out += "\\{"
            case "}": out += "\\}"
            case "\n": out += "\\N"
            case "\r": break
            default: out.append(ch)
            }
        }
        return out
    }
}
