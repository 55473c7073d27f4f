import Foundation
import Playhead
import Testing

/// Where the player controls' parts go (`ControlsLayout`, which both the painter and the hit test use).
@Suite struct ControlsLayoutTests {
    /// At 320 pixels wide, every part fits: the buttons inside the window and apart, hour-long times in their
    /// labels, a seek bar of at least 100 pixels, a menu inside the window.
    @Test func everyPartFitsA320PixelWideWindow() {
        var state = ControlsState()
        state.duration = 2 * 3600
        state.position = 3599
        state.hasAudioChoice = true
        state.hasSubtitleChoice = true
        state.hasPictureInPicture = true
        state.menu = ControlsMenu(kind: .speed, items: ["0.5×", "Normal", "1.25×", "1.5×", "2×"], selected: 1)
        let layout = ControlsLayout(size: CGSize(width: 320, height: 180), state: state)
        let bounds = CGRect(x: 0, y: 0, width: 320, height: 180)
        #expect(layout.buttons.count == 6, "\(layout.buttons.map(\.element))")
        for (i, b) in layout.buttons.enumerated() {
            #expect(bounds.contains(b.rect), "\(b.element) at \(b.rect)")
            for other in layout.buttons[(i + 1)...] {
                let apart = b.rect.maxX <= other.rect.minX || other.rect.maxX <= b.rect.minX
                #expect(apart, "\(b.element) overlaps \(other.element)")
            }
        }
        #expect(layout.seekTrack.width >= 100, "a seek bar of \(layout.seekTrack.width) pixels")
        #expect(layout.elapsedLabel.maxX <= layout.seekArea.minX && layout.seekArea.maxX <= layout.remainingLabel.minX)
        #expect(layout.elapsedLabel.width >= 7 * 8, "\(layout.elapsedLabel)")
        let menu = layout.menu
        #expect(menu.map { bounds.contains($0) && $0.maxY <= layout.bar.minY } == true, "\(String(describing: menu))")
        #expect(layout.menuRows.count == 5, "\(layout.menuRows.count) of 5 speeds fit")
        #expect(layout.menuRows.allSatisfy { $0.height >= 16 }, "\(layout.menuRows)")
    }

    /// Narrower windows (down to the 64-pixel minimum) leave buttons out rather than draw them over each other:
    /// speed first, then the menus and Picture in Picture, fullscreen only below 80 pixels, play never.
    @Test(arguments: [64.0, 72, 100, 120, 160, 170, 200, 240, 280]) func aNarrowWindowLeavesButtonsOut(width: Double) {
        var state = ControlsState()
        state.duration = 600
        state.hasAudioChoice = true
        state.hasSubtitleChoice = true
        state.hasPictureInPicture = true
        let layout = ControlsLayout(size: CGSize(width: width, height: 180), state: state)
        let shown = layout.buttons.map(\.element)
        #expect(shown.first == .playPause && (shown.count == 1 || shown.last == .fullscreen), "\(shown)")
        if width >= 80 { #expect(shown.contains(.fullscreen), "\(shown)") }
        for (i, b) in layout.buttons.enumerated() where i > 0 {
            let before = layout.buttons[i - 1]
            #expect(before.rect.maxX <= b.rect.minX, "at \(width): \(before.element) overlaps \(b.element)")
        }
        // The time labels: inside the window and apart (they overlapped below 125 pixels), the remaining time
        // left out first.
        let (elapsed, remaining) = (layout.elapsedLabel, layout.remainingLabel)
        let window = CGRect(x: 0, y: 0, width: width, height: 180)
        #expect(elapsed.isEmpty || window.contains(elapsed), "at \(width): \(elapsed)")
        #expect(remaining.isEmpty || window.contains(remaining), "at \(width): \(remaining)")
        #expect(elapsed.isEmpty || remaining.isEmpty || elapsed.maxX <= remaining.minX, "at \(width): overlap")
        #expect(remaining.isEmpty || !elapsed.isEmpty, "at \(width): the remaining time kept over the elapsed")
        if width >= 160 { #expect(!elapsed.isEmpty && !remaining.isEmpty, "at \(width)") }
        if width >= 280 { #expect(shown.count == 6, "\(shown)") }
        // With hour-long labels, the seek track is long enough to use or left out (a knob alone showed at 170 px).
        state.duration = 36_000
        let long = ControlsLayout(size: CGSize(width: width, height: 180), state: state).seekTrack.width
        #expect(long == 0 || long >= 24, "at \(width): a seek track of \(long) px")
        if shown.count < 6 { #expect(!shown.contains(.speed), "speed kept over another button: \(shown)") }
    }
}
