import Foundation
import PlayheadSubtitles

/// Where a cue goes, from its WebVTT settings (W3C WebVTT §7.2, "apply WebVTT cue settings"), as libass takes it:
/// the margins that bound its box left and right, its vertical margin, and the numpad alignment (1-3 at the
/// bottom, 7-9 at the top; left, centre, right within the box). Horizontal writing; a vertical cue is laid out as
/// a horizontal one. Pure functions; any thread.
enum CueLayout {
    /// The area cues are drawn in and the height of one line of text, in pixels.
    struct Area {
        var width: Double
        var height: Double
        var lineHeight: Double
    }

    /// Margins (pixels from the left and right edges, from the top or bottom edge) and the alignment.
    struct Box: Equatable {
        var left: Double
        var right: Double
        var margin: Double
        var alignment: Int
    }

    /// The box of a cue with `settings` in `area`; `defaultMargin` keeps text off the edges where the settings
    /// leave the place to the player (the bottom line, the first line at the top).
    static func box(for settings: CueSettings, in area: Area, defaultMargin: Double) -> Box {
        let column: Int
        switch settings.align {
        case .start, .left: column = 1
        case .end, .right: column = 3
        case .center: column = 2
        }
        if let region = settings.region, settings.line == nil, settings.size == 100 {
            // In a region: its width at its anchor, the text on its last line (scrolling up).
            let width = area.width * clamp(region.width) / 100
            let height = Double(region.lineCount) * area.lineHeight
            let left = area.width * clamp(region.viewportAnchorX) / 100 - width * clamp(region.regionAnchorX) / 100
            let top = area.height * clamp(region.viewportAnchorY) / 100 - height * clamp(region.regionAnchorY) / 100
            let bottom = min(area.height, max(area.lineHeight, top + height))
            return Box(
                left: max(0, left), right: max(0, area.width - left - width), margin: area.height - bottom,
                alignment: column)
        }
        // The box's width and left edge (§7.2 steps on position, position alignment and size).
        let position: Double
        if let p = settings.position {
            position = clamp(p)
        } else {
            position = settings.align == .left || settings.align == .start ? 0 : settings.align == .center ? 50 : 100
        }
        enum Anchor { case lineLeft, center, lineRight }
        let anchor: Anchor
        switch settings.positionAlign {
        case .lineLeft: anchor = .lineLeft
        case .lineRight: anchor = .lineRight
        case .center: anchor = .center
        case .auto:
            switch settings.align {
            case .start, .left: anchor = .lineLeft
            case .end, .right: anchor = .lineRight
            case .center: anchor = .center
            }
        }
        let maximum: Double
        switch anchor {
        case .lineLeft: maximum = 100 - position
        case .lineRight: maximum = position
        case .center: maximum = 2 * min(position, 100 - position)
        }
        let size = min(clamp(settings.size), maximum)
        let x: Double
        switch anchor {
        case .lineLeft: x = position
        case .lineRight: x = position - size
        case .center: x = position - size / 2
        }
        let left = area.width * x / 100
        let right = area.width - area.width * (x + size) / 100
        // The vertical place: a line number counts lines from the top (0, 1...) or the bottom (-1 the last); a
        // percentage puts the box's start, centre or end there.
        guard let line = settings.line else {
            return Box(left: left, right: right, margin: defaultMargin, alignment: column)
        }
        if settings.snapToLines {
            // Lines beyond the area stop at its far edge.
            let lines = min(line.isFinite ? abs(line) : 0, max(0, area.height / area.lineHeight - 1))
            if line >= 0 {
                return Box(
                    left: left, right: right, margin: defaultMargin + lines * area.lineHeight, alignment: column + 6)
            }
            return Box(
                left: left, right: right, margin: defaultMargin + max(0, lines - 1) * area.lineHeight,
                alignment: column)
        }
        let y = area.height * clamp(line) / 100
        switch settings.lineAlign {
        case .start: return Box(left: left, right: right, margin: y, alignment: column + 6)
        case .end: return Box(left: left, right: right, margin: area.height - y, alignment: column)
        case .center:
            // libass centres the middle row on the whole area: place one line's box by its top instead.
            return Box(left: left, right: right, margin: max(0, y - area.lineHeight / 2), alignment: column + 6)
        }
    }

    /// A percentage brought into 0...100 (a number from a file).
    private static func clamp(_ percent: Double) -> Double { percent.isFinite ? min(100, max(0, percent)) : 0 }
}
