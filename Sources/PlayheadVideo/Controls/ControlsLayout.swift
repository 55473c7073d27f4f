import Foundation

/// Where each part of the controls is in a window of a given size: a bar across the bottom with the time line on
/// top (elapsed time, the seek bar, remaining time) and a row of buttons below (play/pause at the left; speed,
/// audio, subtitles, Picture in Picture and fullscreen at the right), and the open menu above its button. Sizes
/// grow with the window from 1x at 1280 pixels wide and below to 2x at 2560 (a HiDPI screen's drawable size); a
/// 320-pixel-wide window holds every part. The painter and the hit test use the same layout. A value type, safe
/// anywhere; all in drawable pixels.
public struct ControlsLayout: Sendable {
    /// The window's drawable area.
    public let bounds: CGRect
    /// How much larger than the 1x design everything is.
    public let scale: Double
    /// The bar's area (its shaded background).
    public let bar: CGRect
    /// Where the elapsed and the remaining time are written.
    public let elapsedLabel: CGRect
    /// Where the remaining time is written (empty when the length is unknown).
    public let remainingLabel: CGRect
    /// The seek bar's track (the line drawn), and the area that takes clicks on it (taller).
    public let seekTrack: CGRect
    /// The area of the time line that takes clicks.
    public let seekArea: CGRect
    /// The buttons shown, left to right.
    public let buttons: [(element: ControlElement, rect: CGRect)]
    /// The open menu's area and its entries' rows (only those that fit above the bar).
    public let menu: CGRect?
    /// The rows of the open menu's entries, top to bottom.
    public let menuRows: [CGRect]

    /// The text size of labels, in pixels.
    public var fontPixels: Int { Int((13 * scale).rounded()) }

    /// The layout of `state`'s controls in a drawable area of `size`.
    public init(size: CGSize, state: ControlsState) {
        bounds = CGRect(origin: .zero, size: size)
        let s = min(2, max(1, size.width / 1280))
        scale = s
        if state.isFloating {
            // The whole window is shaded; three buttons, nothing else.
            let button = min(36 * s, max(16, min(size.width, size.height) / 3))
            let pad = 4 * s
            bar = bounds
            elapsedLabel = .zero
            remainingLabel = .zero
            seekArea = .zero
            seekTrack = .zero
            buttons = [
                (.pictureInPicture, CGRect(x: pad, y: pad, width: button, height: button)),
                (
                    .playPause,
                    CGRect(x: (size.width - button) / 2, y: (size.height - button) / 2, width: button, height: button)
                ),
                (.close, CGRect(x: size.width - pad - button, y: pad, width: button, height: button)),
            ]
            menu = nil
            menuRows = []
            return
        }
        let pad = 8 * s
        let rowHeight = 36 * s
        let lineHeight = 22 * s
        let barHeight = pad + lineHeight + rowHeight + pad / 2
        bar = CGRect(x: 0, y: size.height - barHeight, width: size.width, height: barHeight)
        // The time line: labels sized for the longest time they may hold.
        let digitWidth = 0.64 * 13 * s
        let longest = (state.duration ?? state.position) >= 3600 ? 7.0 : 5.0
        let labelWidth = (longest * digitWidth).rounded(.up) + pad
        let lineY = bar.minY + pad
        // A window too narrow for both labels shows the elapsed time alone, and one too narrow for that none
        // (they overlapped): an empty label is not written.
        let fitsElapsed = pad + labelWidth <= size.width
        let fitsBoth = pad + labelWidth + labelWidth + digitWidth + pad <= size.width
        elapsedLabel = CGRect(x: pad, y: lineY, width: fitsElapsed ? labelWidth : 0, height: lineHeight)
        if state.duration != nil, fitsBoth {
            remainingLabel = CGRect(
                x: size.width - pad - labelWidth - digitWidth, y: lineY, width: labelWidth + digitWidth,
                height: lineHeight)
            seekArea = CGRect(
                x: elapsedLabel.maxX, y: lineY, width: max(0, remainingLabel.minX - elapsedLabel.maxX),
                height: lineHeight)
        } else {
            remainingLabel = CGRect(x: size.width - pad, y: lineY, width: 0, height: lineHeight)
            seekArea = CGRect(x: elapsedLabel.maxX, y: lineY, width: 0, height: lineHeight)
        }
        let trackHeight = max(3, (4 * s).rounded())
        // A track shorter than two knobs is left out (a lone knob showed between the labels).
        let trackWidth = seekArea.width - pad
        seekTrack = CGRect(
            x: seekArea.minX + pad / 2, y: (seekArea.midY - trackHeight / 2).rounded(),
            width: trackWidth >= 24 * s ? trackWidth : 0, height: trackHeight)
        // The buttons.
        let rowY = lineY + lineHeight
        var row: [(ControlElement, CGRect)] = [
            (.playPause, CGRect(x: pad / 2, y: rowY, width: rowHeight, height: rowHeight))
        ]
        var right = size.width - pad / 2
        var trailing: [(ControlElement, Double)] = [(.fullscreen, rowHeight)]
        if state.hasPictureInPicture { trailing.append((.pictureInPicture, rowHeight)) }
        if state.hasSubtitleChoice { trailing.append((.subtitles, rowHeight)) }
        if state.hasAudioChoice { trailing.append((.audio, rowHeight)) }
        trailing.append((.speed, (5 * 0.62 * 13 * s).rounded(.up) + pad))
        // A narrow window leaves out what does not fit, the least needed first (speed, then the sound and subtitle
        // menus, then Picture in Picture, fullscreen below 80 pixels): the play button always shows, and nothing
        // overlaps.
        while !trailing.isEmpty, rowHeight + pad + trailing.reduce(0, { $0 + $1.1 }) > size.width {
            trailing.removeLast()
        }
        for (element, width) in trailing {
            right -= width
            row.insert((element, CGRect(x: right, y: rowY, width: width, height: rowHeight)), at: 1)
        }
        buttons = row
        // The menu, right-aligned with its button, above the bar.
        let anchor: ControlElement? =
            switch state.menu?.kind {
            case .speed: .speed
            case .audio: .audio
            case .subtitles: .subtitles
            case nil: nil
            }
        if let menuState = state.menu, let button = row.first(where: { $0.0 == anchor })?.1 {
            // Rows of 28 (x scale) pixels, closer together down to 18 when the window is low, so that every
            // entry can be chosen; what still does not fit is left out.
            let room = bar.minY - pad - 8 * s
            let itemHeight = max(18 * s, min(28 * s, room / Double(max(1, menuState.items.count))))
            let longestItem = Double(menuState.items.map(\.count).max() ?? 0)
            let width = min(size.width - 2 * pad, max(110 * s, longestItem * 0.62 * 13 * s + 40 * s))
            let fits = max(0, Int(room / itemHeight))
            let count = min(menuState.items.count, fits)
            let height = Double(count) * itemHeight + 8 * s
            let x = max(pad, min(button.maxX, size.width - pad) - width)
            let area = CGRect(x: x, y: bar.minY - 4 * s - height, width: width, height: height)
            menu = area
            menuRows = (0..<count).map {
                CGRect(x: area.minX, y: area.minY + 4 * s + Double($0) * itemHeight, width: width, height: itemHeight)
            }
        } else {
            menu = nil
            menuRows = []
        }
    }

    /// The part of the controls at `point`, nil when the point is outside them (on the video).
    public func element(at point: CGPoint) -> ControlElement? {
        if let index = menuRows.firstIndex(where: { $0.contains(point) }) { return .menuItem(index) }
        if let menu, menu.contains(point) { return .panel }
        if let button = buttons.first(where: { $0.rect.contains(point) }) { return button.element }
        if seekArea.width > 0, seekArea.contains(point) { return .seekBar }
        return bar.contains(point) ? .panel : nil
    }

    /// Where on the item's time line (0...1) a point at `x` of the seek bar stands.
    public func seekFraction(atX x: Double) -> Double {
        guard seekTrack.width > 0 else { return 0 }
        return min(1, max(0, (x - seekTrack.minX) / seekTrack.width))
    }

    /// The area painted: the bar, and the menu when one is open.
    var paintedArea: CGRect { menu.map { bar.union($0) } ?? bar }
}
