import Foundation
import PlayheadSubtitles

/// Subtitle cues written as an ASS script for libass: one `Dialogue` per cue, showing from 0 for ever (the text
/// renderer decides when cues show; the window draws what it is given), with the player's look: white sans-serif
/// text with a black outline, sized to the picture's height, at the bottom centre unless the cue's settings place
/// it. Italic, bold and underline spans become ASS overrides; line breaks `\N`. Pure functions; any thread.
enum ASSScript {
    /// The script showing `cues` in a `width` x `height` area.
    static func script(for cues: [SubtitleCue], width: Int, height: Int) -> String {
        let size = max(8, height / 14)
        let outline = max(1, size / 16)
        let margin = max(4, height / 22)
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
