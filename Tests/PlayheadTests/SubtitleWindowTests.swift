import Foundation
import Playhead
import PlayheadSubtitles
import PlayheadTestSupport
import Testing

/// Subtitles drawn by libass over the picture in a `PlayerWindow`, read back from the screen.
@MainActor @Suite(.serialized) struct SubtitleWindowTests {
    /// Which pixels of the band where subtitles go (the bottom quarter of a 640x360 window) are bright (text), and
    /// how many bright pixels the rest of the window has.
    static func textPixels(_ title: String) throws -> (band: Set<Int>, elsewhere: Int) {
        let g = try #require(try TestDisplay.window(titled: title))
        let shot = try TestDisplay.grab(g)
        var band = Set<Int>()
        var elsewhere = 0
        for y in 0..<shot.height {
            for x in 0..<shot.width {
                let p = shot.pixel(x, y)
                guard p.r > 180, p.g > 180, p.b > 180 else { continue }
                if y >= shot.height * 3 / 4 { band.insert(y * shot.width + x) } else { elsewhere += 1 }
            }
        }
        return (band, elsewhere)
    }

    /// Seeks the paused player to `seconds` and waits for the window to have drawn what shows there.
    static func show(_ player: Player, at seconds: Double) async {
        _ = await player.seek(
            to: MediaTime(seconds: seconds, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero)
        try? await Task.sleep(for: .milliseconds(700))
    }

    @Test func cuesAreDrawnWhileActiveItalicsDifferAndNothingRemainsAfter() async throws {
        try TestDisplay.useInThisProcess()
        defer { TestDisplay.leave() }
        let player = Player()
        player.audioOutputChoice = .disabled
        defer { player.close() }
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.subtitledVideo()))
        #expect(await eventually { player.currentItem?.status == .readyToPlay })
        let title = "subtitles"
        let window = try await PlayerWindow.open(player: player, title: title, width: 640, height: 360)
        defer { window.close() }
        #expect(await eventually { window.playerLayer.isReadyForDisplay })

        await Self.show(player, at: 0.5)
        let before = try Self.textPixels(title)
        #expect(before.band.isEmpty && before.elsewhere == 0, "text before the first cue: \(before.band.count)")

        await Self.show(player, at: 1.8)
        let plain = try Self.textPixels(title)
        #expect(plain.band.count > 150, "the active cue drew \(plain.band.count) text pixels")
        #expect(plain.elsewhere == 0, "text outside the bottom band: \(plain.elsewhere)")

        await Self.show(player, at: 3.0)
        let between = try Self.textPixels(title)
        #expect(between.band.isEmpty, "\(between.band.count) text pixels after the cue ended")

        await Self.show(player, at: 4.2)
        let italic = try Self.textPixels(title)
        #expect(italic.band.count > 150, "the italic cue drew \(italic.band.count) text pixels")
        let shared = plain.band.intersection(italic.band).count
        #expect(
            Double(shared) < 0.7 * Double(plain.band.count), "italic looks like plain: \(shared) of \(plain.band.count)"
        )

        // Hidden by the layer: the picture alone.
        window.playerLayer.showsSubtitles = false
        try await Task.sleep(for: .milliseconds(500))
        #expect(try Self.textPixels(title).band.isEmpty, "showsSubtitles false still draws them")
    }

    /// The bright (text) pixels of the window titled `title`, as points.
    static func textPoints(_ title: String) throws -> [(x: Int, y: Int)] {
        let g = try #require(try TestDisplay.window(titled: title))
        let shot = try TestDisplay.grab(g)
        return shot.brightPixels(inRows: 0..<shot.height).map { ($0 % shot.width, $0 / shot.width) }
    }

    /// WebVTT cue settings place the text: a box of 10-40 % of the width, the top line, the middle, a region.
    @Test func webVTTSettingsPlaceTheCues() async throws {
        try TestDisplay.useInThisProcess()
        defer { TestDisplay.leave() }
        let player = Player()
        player.audioOutputChoice = .disabled
        defer { player.close() }
        let (video, cues) = try Fixtures.positionedCues()
        let asset = URLAsset(url: video, options: [.subtitleFiles: [cues]])
        let item = PlayerItem(asset: asset)
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        item.select(legible.options.first, in: legible)
        player.replaceCurrentItem(with: item)
        #expect(await eventually { player.currentItem?.status == .readyToPlay })
        let title = "positioned subtitles"
        let window = try await PlayerWindow.open(player: player, title: title, width: 640, height: 360)
        defer { window.close() }
        #expect(await eventually { window.playerLayer.isReadyForDisplay })
        await Self.expectPlaced(
            [
                (1.0, "the 10-40 % box", 64...256, 180...359),
                (2.5, "the top line", 0...639, 0...90),
                (4.0, "the middle", 0...639, 135...225),
                (5.5, "the region", 352...608, 40...126),
            ], player: player, window: window, title: title)
    }

    /// Where text is expected at a time: `xs` and `ys` bound every text pixel of the window.
    typealias Placement = (seconds: Double, what: String, xs: ClosedRange<Int>, ys: ClosedRange<Int>)

    /// Shows each time of `checks` in the paused window titled `title` and expects its text inside its bounds.
    static func expectPlaced(_ checks: [Placement], player: Player, window: PlayerWindow, title: String) async {
        for check in checks {
            await Self.show(player, at: check.seconds)
            // The cue arrives within milliseconds of the seek (measured); a loaded machine may delay its drawing
            // past the fixed wait: wait for text for up to 5 s, then judge where it is. (Nothing at 1.0 s, seen
            // twice under load, was not the drawing: the subtitle file had failed the seek, and the text thread
            // kept the time before it; fixed in 1daf182 and bfad9eb.)
            var waited = 0
            while waited < 50, ((try? Self.textPoints(title))?.count ?? 0) <= 40 {
                try? await Task.sleep(for: .milliseconds(100))
                waited += 1
            }
            guard let points = try? Self.textPoints(title) else {
                Issue.record("\(check.what): no window titled \(title)")
                continue
            }
            // Whether the layer had the cue (a drawing problem) or not (a delivery problem), when none is seen.
            let held = window.playerLayer.displayedSubtitles.map(\.text)
            #expect(
                points.count > 40,
                "\(check.what): \(points.count) text pixels at \(player.currentTime().seconds) s; the layer holds \(held)"
            )
            let outside = points.filter { !check.xs.contains($0.x) || !check.ys.contains($0.y) }
            let xs = points.map(\.x)
            let ys = points.map(\.y)
            #expect(
                outside.isEmpty,
                "\(check.what): \(outside.count) text pixels outside, text in x \(xs.min() ?? -1)...\(xs.max() ?? -1), y \(ys.min() ?? -1)...\(ys.max() ?? -1)"
            )
        }
    }

    /// A WebVTT track inside Matroska places its cues by their settings, as a WebVTT file's are, and its cues reach
    /// the item's legible outputs with their settings and identifiers.
    @Test func embeddedWebVTTSettingsPlaceTheCues() async throws {
        try TestDisplay.useInThisProcess()
        defer { TestDisplay.leave() }
        let player = Player()
        player.audioOutputChoice = .disabled
        defer { player.close() }
        let item = PlayerItem(url: try Fixtures.embeddedPositionedCues())
        let told = CueCapture()
        item.add(told)
        player.replaceCurrentItem(with: item)
        #expect(await eventually { player.currentItem?.status == .readyToPlay })
        let title = "embedded positioned subtitles"
        let window = try await PlayerWindow.open(player: player, title: title, width: 640, height: 360)
        defer { window.close() }
        #expect(await eventually { window.playerLayer.isReadyForDisplay })
        await Self.expectPlaced(
            [
                (1.0, "the 10-40 % box", 64...256, 180...359),
                (2.5, "the top line", 0...639, 0...90),
                (4.0, "the middle", 0...639, 135...225),
                (5.5, "no settings: the bottom", 0...639, 270...359),
            ], player: player, window: window, title: title)
        let cues = told.cues
        let left = cues.first { $0.text == "Left box" }
        #expect(left?.id == "left" && left?.settings.position == 10 && left?.settings.size == 30, "\(cues)")
        #expect(left?.settings.align == .left, "\(String(describing: left))")
        let top = cues.first { $0.text == "Top" }
        #expect(top?.id == "top" && top?.settings.line == 0, "\(String(describing: top))")
        let bottom = cues.first { $0.text == "Bottom" }
        #expect(bottom?.id == "" && bottom?.settings == CueSettings(), "\(String(describing: bottom))")
    }
}

/// Every cue a legible output was shown, once each. Any thread.
final class CueCapture: LegibleOutput, @unchecked Sendable {
    private let shown = Locked([SubtitleCue]())

    func show(_ cues: [SubtitleCue], at time: MediaTime) {
        shown.withLock { all in all += cues.filter { !all.contains($0) } }
    }

    var cues: [SubtitleCue] { shown.current }
}
