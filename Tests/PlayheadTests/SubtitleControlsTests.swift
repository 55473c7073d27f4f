import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Subtitles while the player controls show: they move above the bar at their size (they shrank with the area
/// left above the bar, and jumped as they did).
@MainActor @Suite(.serialized) struct SubtitleControlsTests {
    /// The rows and columns of the bright (text) pixels above `rowsAbove`, nil when there are none.
    nonisolated static func textBox(_ shot: Screenshot, rowsAbove: Int) -> (ys: ClosedRange<Int>, xs: ClosedRange<Int>)?
    {
        let points = shot.brightPixels(inRows: 0..<rowsAbove).map { ($0 % shot.width, $0 / shot.width) }
        guard let y0 = points.map(\.1).min(), let y1 = points.map(\.1).max(), let x0 = points.map(\.0).min(),
            let x1 = points.map(\.0).max()
        else { return nil }
        return (y0...y1, x0...x1)
    }

    @Test func subtitlesGoAboveTheControlsAtTheirSize() async throws {
        try TestDisplay.useInThisProcess()
        defer { TestDisplay.leave() }
        let player = Player()
        player.audioOutputChoice = .disabled
        defer { player.close() }
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.subtitledVideo()))
        #expect(await eventually { player.currentItem?.status == .readyToPlay })
        let controls = PlayerControlsTests()
        let (window, g) = try await controls.open(player, "subtitles and controls")
        defer { window.close() }
        await SubtitleWindowTests.show(player, at: 1.8)
        let plain = try #require(Self.textBox(try await controls.shot(g), rowsAbove: 360), "no text")

        try controls.hover(g, 320, 200)
        #expect(try await controls.within(3) { try await controls.barShown(g) }, "the controls did not show")
        let top = ControlsLayout(size: CGSize(width: 640, height: 360), state: ControlsState()).bar.minY
        var moved: (ys: ClosedRange<Int>, xs: ClosedRange<Int>)?
        _ = try await controls.within(3) {
            moved = Self.textBox(try await controls.shot(g), rowsAbove: Int(top))
            return moved.map { $0.ys.upperBound < plain.ys.lowerBound } ?? false
        }
        let above = try #require(moved, "no text above the bar (top \(top))")
        #expect(above.ys.upperBound < Int(top), "text at \(above.ys) reaches the bar at \(top)")
        #expect(
            abs(above.ys.count - plain.ys.count) <= 1,
            "text \(above.ys.count) rows high, \(plain.ys.count) without the bar")
        #expect(
            abs(above.xs.count - plain.xs.count) <= 2, "text \(above.xs.count) wide, \(plain.xs.count) without the bar")
    }
}
