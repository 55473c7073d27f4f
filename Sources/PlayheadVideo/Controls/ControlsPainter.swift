import Foundation

/// Paints the controls of a `ControlsState` into a `Canvas` the size of the layout's painted area: the bar's shade,
/// the time line with its loaded parts and play head, the buttons' icons and labels, and the open menu.
///
/// Threads: the display thread only (it draws text with SDL2_ttf).
struct ControlsPainter {
    let text: TextRenderer

    /// The canvas for `state` laid out as `layout`, and where it goes in the window.
    func paint(_ state: ControlsState, _ layout: ControlsLayout) -> (canvas: Canvas, origin: CGPoint) {
        let area = layout.paintedArea.integral
        var canvas = Canvas(width: Int(area.width), height: Int(area.height))
        let shift = { (r: CGRect) in r.offsetBy(dx: -area.minX, dy: -area.minY) }
        if state.isFloating {
            canvas.fill(shift(layout.bar), .black(0.3))
            for (element, rect) in layout.buttons {
                paintButton(&canvas, element, in: shift(rect), state, layout)
            }
            return (canvas, area.origin)
        }
        // The shade: darker towards the bottom, so white shows on any picture.
        let bar = shift(layout.bar)
        let rows = max(1, Int(bar.height))
        for row in 0..<rows {
            let alpha = 0.25 + 0.5 * Double(row) / Double(rows)
            canvas.fill(CGRect(x: bar.minX, y: bar.minY + Double(row), width: bar.width, height: 1), .black(alpha))
        }
        let font = layout.fontPixels
        if !layout.elapsedLabel.isEmpty {
            label(&canvas, Self.time(state.position), in: shift(layout.elapsedLabel), font: font, align: .leading)
        }
        if let duration = state.duration {
            let remaining = "-" + Self.time(max(0, duration - state.position))
            if !layout.remainingLabel.isEmpty {
                label(&canvas, remaining, in: shift(layout.remainingLabel), font: font, align: .trailing)
            }
            paintTimeLine(&canvas, state, duration: duration, layout, shift)
        } else {
            label(&canvas, "LIVE", in: shift(layout.seekArea), font: font, align: .leading, bold: true)
        }
        for (element, rect) in layout.buttons {
            paintButton(&canvas, element, in: shift(rect), state, layout)
        }
        if let menu = state.menu, let area = layout.menu {
            canvas.fill(shift(area), .black(0.8))
            for (index, row) in layout.menuRows.enumerated() {
                let r = shift(row)
                if index == menu.selected {
                    canvas.fill(r.insetBy(dx: 2 * layout.scale, dy: 0), .white(0.18))
                    let tick = CGRect(
                        x: r.minX + 8 * layout.scale, y: r.minY, width: 20 * layout.scale, height: r.height)
                    label(&canvas, "✓", in: tick, font: font, align: .leading, bold: true)
                }
                let text = CGRect(
                    x: r.minX + 30 * layout.scale, y: r.minY, width: r.width - 34 * layout.scale, height: r.height)
                label(&canvas, menu.items[index], in: text, font: font, align: .leading, bold: index == menu.selected)
            }
        }
        return (canvas, area.origin)
    }

    private func paintTimeLine(
        _ canvas: inout Canvas, _ state: ControlsState, duration: Double, _ layout: ControlsLayout,
        _ shift: (CGRect) -> CGRect
    ) {
        let track = shift(layout.seekTrack)
        guard track.width > 0 else { return }
        let dim = state.canSeek ? 1.0 : 0.45
        canvas.fill(track, .white(0.25 * dim))
        let x = { (seconds: Double) in track.minX + track.width * min(1, max(0, seconds / max(duration, 0.001))) }
        for range in state.loaded {
            let from = x(range.lowerBound)
            canvas.fill(
                CGRect(x: from, y: track.minY, width: x(range.upperBound) - from, height: track.height),
                .white(0.3 * dim))
        }
        let head = x(state.position)
        let played = Canvas.Colour(red: 0.35, green: 0.65, blue: 1, alpha: dim)
        canvas.fill(CGRect(x: track.minX, y: track.minY, width: head - track.minX, height: track.height), played)
        if state.canSeek {
            canvas.fillCircle(centre: CGPoint(x: head, y: track.midY), radius: 6 * layout.scale, .white(1))
        }
    }

    private func paintButton(
        _ canvas: inout Canvas, _ element: ControlElement, in r: CGRect, _ state: ControlsState,
        _ layout: ControlsLayout
    ) {
        let s = layout.scale
        let c = CGPoint(x: r.midX, y: r.midY)
        let white = Canvas.Colour.white(0.95)
        switch element {
        case .playPause where state.isPlaying:
            canvas.fill(CGRect(x: c.x - 6 * s, y: c.y - 8 * s, width: 4 * s, height: 16 * s), white)
            canvas.fill(CGRect(x: c.x + 2 * s, y: c.y - 8 * s, width: 4 * s, height: 16 * s), white)
        case .playPause:
            canvas.fillPolygon(
                [
                    CGPoint(x: c.x - 6 * s, y: c.y - 9 * s), CGPoint(x: c.x + 9 * s, y: c.y),
                    CGPoint(x: c.x - 6 * s, y: c.y + 9 * s),
                ],
                white)
        case .speed:
            label(&canvas, state.speedLabel, in: r, font: layout.fontPixels, align: .center, bold: true)
        case .audio:
            // A loudspeaker: the box and its cone.
            canvas.fill(CGRect(x: c.x - 8 * s, y: c.y - 3.5 * s, width: 5 * s, height: 7 * s), white)
            canvas.fillPolygon(
                [
                    CGPoint(x: c.x - 4 * s, y: c.y - 3.5 * s), CGPoint(x: c.x + 3 * s, y: c.y - 9 * s),
                    CGPoint(x: c.x + 3 * s, y: c.y + 9 * s), CGPoint(x: c.x - 4 * s, y: c.y + 3.5 * s),
                ], white)
            canvas.fill(CGRect(x: c.x + 5.5 * s, y: c.y - 4 * s, width: 2 * s, height: 8 * s), white)
        case .subtitles:
            let box = CGRect(x: c.x - 11 * s, y: c.y - 7.5 * s, width: 22 * s, height: 15 * s).integral
            let colour = state.subtitlesOn ? white : .white(0.5)
            canvas.stroke(box, thickness: 1.5 * s, colour)
            label(&canvas, "CC", in: box, font: Int((9 * s).rounded()), align: .center, bold: true, colour: colour)
            if state.subtitlesOn {
                canvas.fill(CGRect(x: box.minX, y: box.maxY + 2 * s, width: box.width, height: 2 * s), played)
            }
        case .pictureInPicture:
            let box = CGRect(x: c.x - 10 * s, y: c.y - 7 * s, width: 20 * s, height: 14 * s).integral
            canvas.stroke(box, thickness: 1.5 * s, white)
            canvas.fill(
                CGRect(x: box.midX, y: box.midY, width: box.width / 2 - 2 * s, height: box.height / 2 - 2 * s), white)
        case .fullscreen:
            paintCorners(&canvas, around: c, s: s, inward: state.isFullscreen, white)
        case .close:
            // An X: two bars crossing.
            let (a, t) = (7 * s, 1.2 * s)
            canvas.fillPolygon(
                [
                    CGPoint(x: c.x - a - t, y: c.y - a + t), CGPoint(x: c.x - a + t, y: c.y - a - t),
                    CGPoint(x: c.x + a + t, y: c.y + a - t), CGPoint(x: c.x + a - t, y: c.y + a + t),
                ], white)
            canvas.fillPolygon(
                [
                    CGPoint(x: c.x + a - t, y: c.y - a - t), CGPoint(x: c.x + a + t, y: c.y - a + t),
                    CGPoint(x: c.x - a + t, y: c.y + a + t), CGPoint(x: c.x - a - t, y: c.y + a - t),
                ], white)
        case .menuItem, .panel, .seekBar: break
        }
    }

    private var played: Canvas.Colour { Canvas.Colour(red: 0.35, green: 0.65, blue: 1, alpha: 1) }

    /// Four corner marks about `c`: at the corners of a box with their arms along its edges (enter fullscreen),
    /// or near the centre with their arms pointing away from it (leave fullscreen).
    private func paintCorners(
        _ canvas: inout Canvas, around c: CGPoint, s: Double, inward: Bool, _ colour: Canvas.Colour
    ) {
        let arm = 6 * s
        let t = max(1, (2 * s).rounded())
        for (dx, dy) in [(-1.0, -1.0), (1, -1), (-1, 1), (1, 1)] {
            let distance = inward ? 3 * s : 8 * s
            let elbow = CGPoint(x: c.x + dx * distance, y: c.y + dy * distance)
            // Out: the arms run from the corner towards the middle of the edges; in: away from the centre.
            let towardsX = inward ? dx : -dx
            let towardsY = inward ? dy : -dy
            let horizontal = CGRect(
                x: towardsX < 0 ? elbow.x - arm : elbow.x,
                y: dy < 0 ? elbow.y - (inward ? t : 0) : elbow.y - (inward ? 0 : t),
                width: arm, height: t)
            let vertical = CGRect(
                x: dx < 0 ? elbow.x - (inward ? t : 0) : elbow.x - (inward ? 0 : t),
                y: towardsY < 0 ? elbow.y - arm : elbow.y,
                width: t, height: arm)
            canvas.fill(horizontal, colour)
            canvas.fill(vertical, colour)
        }
    }

    private enum Alignment { case leading, center, trailing }

    private func label(
        _ canvas: inout Canvas, _ string: String, in r: CGRect, font: Int, align: Alignment, bold: Bool = false,
        colour: Canvas.Colour = .white(0.95)
    ) {
        guard let image = text.image(string, pixels: font, bold: bold) else { return }
        let x: Double
        switch align {
        case .leading: x = r.minX
        case .center: x = r.midX - Double(image.width) / 2
        case .trailing: x = r.maxX - Double(image.width)
        }
        canvas.draw(image, x: Int(x.rounded()), y: Int((r.midY - Double(image.height) / 2).rounded()), colour)
    }

    /// A time as the controls write it: "m:ss", or "h:mm:ss" from an hour on.
    static func time(_ seconds: Double) -> String {
        let total = seconds.isFinite ? max(0, Int(seconds.rounded(.down))) : 0
        let (h, m, s) = (total / 3600, total / 60 % 60, total % 60)
        let ss = s < 10 ? "0\(s)" : "\(s)"
        if h > 0 { return "\(h):" + (m < 10 ? "0\(m)" : "\(m)") + ":" + ss }
        return "\(m):" + ss
    }
}
