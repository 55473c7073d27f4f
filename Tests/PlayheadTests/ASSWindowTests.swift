import Foundation
import Playhead
import PlayheadSubtitles
import PlayheadTestSupport
import Testing

/// ASS/SSA subtitles drawn with their track's styles: colour, alignment, `\pos` and a fade, read back from the
/// window's pixels, for an embedded track and a script given beside the video.
@MainActor @Suite(.serialized) struct ASSWindowTests {
    /// The red (text in `RedTop`) and white (text in `Default`) pixels of the window titled `title`, as points.
    static func colouredPoints(_ title: String) throws -> (red: [(x: Int, y: Int)], white: [(x: Int, y: Int)]) {
        let g = try #require(try TestDisplay.window(titled: title))
        let shot = try TestDisplay.grab(g)
        var red: [(x: Int, y: Int)] = []
        var white: [(x: Int, y: Int)] = []
        for y in 0..<shot.height {
            for x in 0..<shot.width {
                let p = shot.pixel(x, y)
                if p.r > 180, p.g < 90, p.b < 90 { red.append((x, y)) }
                if p.r > 180, p.g > 180, p.b > 180 { white.append((x, y)) }
            }
        }
        return (red, white)
    }

    /// Shows `seconds` in the paused player and waits up to 5 s for `ready` to hold for the window's pixels.
    static func show(
        _ player: Player, at seconds: Double, title: String,
        until ready: ((red: [(x: Int, y: Int)], white: [(x: Int, y: Int)])) -> Bool
    ) async -> (red: [(x: Int, y: Int)], white: [(x: Int, y: Int)]) {
        _ = await player.seek(
            to: MediaTime(seconds: seconds, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero)
        var points = (red: [(x: Int, y: Int)](), white: [(x: Int, y: Int)]())
        for _ in 0..<50 {
            try? await Task.sleep(for: .milliseconds(100))
            points = (try? colouredPoints(title)) ?? points
            if ready(points) { break }
        }
        return points
    }

    /// The box around `points`, for messages.
    static func bounds(_ points: [(x: Int, y: Int)]) -> String {
        let xs = points.map(\.x)
        let ys = points.map(\.y)
        return "x \(xs.min() ?? -1)...\(xs.max() ?? -1), y \(ys.min() ?? -1)...\(ys.max() ?? -1)"
    }

    /// Plays `item` paused in a 640x360 window and checks both events of `Fixtures.styledASS`.
    func expectStyled(_ item: PlayerItem, title: String) async throws {
        try TestDisplay.useInThisProcess()
        defer { TestDisplay.leave() }
        let player = Player()
        player.audioOutputChoice = .disabled
        defer { player.close() }
        player.replaceCurrentItem(with: item)
        #expect(await eventually { player.currentItem?.status == .readyToPlay })
        let window = try await PlayerWindow.open(player: player, title: title, width: 640, height: 360)
        defer { window.close() }
        #expect(await eventually { window.playerLayer.isReadyForDisplay })

        // The style's colour and alignment (top centre), drawn opaque (past the fade-in) at the fade's start.
        let top = await Self.show(player, at: 1.05, title: title) { $0.red.count > 100 }
        #expect(
            top.red.count > 100,
            "red text: \(top.red.count) pixels; the layer holds \(window.playerLayer.displayedSubtitles.map(\.text))")
        #expect(top.red.allSatisfy { $0.y < 90 && (200...440).contains($0.x) }, "red text in \(Self.bounds(top.red))")
        #expect(top.white.isEmpty, "white text with the red cue in \(Self.bounds(top.white))")

        // `\pos(120,120)`: the text's bottom centre at (120, 120) in the script's 640x360, the window's size.
        let placed = await Self.show(player, at: 3.5, title: title) { $0.white.count > 40 }
        #expect(placed.white.count > 40, "white text: \(placed.white.count) pixels")
        #expect(
            placed.white.allSatisfy { (40...200).contains($0.x) && (80...125).contains($0.y) },
            "placed text in \(Self.bounds(placed.white))")
        #expect(placed.red.isEmpty, "red text after its event: \(Self.bounds(placed.red))")
    }

    /// An ASS track in Matroska (its header in the track's codec private data).
    @Test func anEmbeddedTrackIsDrawnWithItsStyles() async throws {
        let item = PlayerItem(url: try Fixtures.styledSubtitles().video)
        let told = CueCapture()
        item.add(told)
        try await expectStyled(item, title: "embedded ASS")
        // Text outputs get the plain text; the event keeps its style and tags.
        let red = told.cues.first { $0.text == "Red at the top" }
        #expect(red?.assEvent?.fields == "0,RedTop,,0,0,0,,{\\fad(400,400)}Red at the top", "\(told.cues)")
    }

    /// `--sub-file` / `subtitleFiles`: an ASS script read beside a video without subtitles.
    @Test func aScriptBesideTheVideoIsDrawnWithItsStyles() async throws {
        let script = try Fixtures.styledSubtitles().script
        let asset = URLAsset(url: try Fixtures.positionedCues().video, options: [.subtitleFiles: [script]])
        let item = PlayerItem(asset: asset)
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        item.select(legible.options.first, in: legible)
        try await expectStyled(item, title: "ASS file")
    }
}
