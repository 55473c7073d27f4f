import Foundation
import Playhead
import PlayheadSubtitles
import PlayheadTestSupport
import Testing

/// ASS/SSA subtitles drawn with their track's styles: colour, alignment, `\pos`, and a fade and a move drawn as
/// they go, read back from the window's pixels, for an embedded track and a script given beside the video.
@MainActor @Suite(.serialized) struct ASSWindowTests {
    typealias Points = (red: [(x: Int, y: Int)], white: [(x: Int, y: Int)], tinted: [(x: Int, y: Int)])

    /// The red (text in `RedTop`), white (text in `Default`) and faintly red (red text fading over the grey
    /// picture) pixels of the window titled `title`, as points.
    static func colouredPoints(_ title: String) throws -> Points {
        let g = try #require(try TestDisplay.window(titled: title))
        let shot = try TestDisplay.grab(g)
        var points: Points = ([], [], [])
        for y in 0..<shot.height {
            for x in 0..<shot.width {
                let p = shot.pixel(x, y)
                if p.r > 180, p.g < 90, p.b < 90 {
                    points.red.append((x, y))
                } else if Int(p.r) > Int(p.g) + 15, Int(p.r) > Int(p.b) + 15 {
                    points.tinted.append((x, y))
                }
                if p.r > 180, p.g > 180, p.b > 180 { points.white.append((x, y)) }
            }
        }
        return points
    }

    /// Shows `seconds` in the paused player and waits up to 5 s for `ready` to hold for the window's pixels.
    static func show(
        _ player: Player, at seconds: Double, title: String, until ready: (Points) -> Bool
    ) async -> Points {
        _ = await player.seek(
            to: MediaTime(seconds: seconds, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero)
        var points: Points = ([], [], [])
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

        // The fade-in is drawn as it goes (each event was a still, a second in): 50 ms in, faint...
        let faint = await Self.show(player, at: 1.05, title: title) { $0.red.isEmpty && $0.tinted.count > 100 }
        #expect(
            faint.red.isEmpty && faint.tinted.count > 100,
            "50 ms into the fade: \(faint.red.count) red and \(faint.tinted.count) faintly red pixels")
        // ...past it, opaque, in the style's colour and alignment (top centre).
        let top = await Self.show(player, at: 1.7, title: title) { $0.red.count > 100 }
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

    /// An event that moves (`\move`) is drawn where it is at each picture's time, in the subtitle delay's time
    /// too (it was a still, a second into the event, wherever the picture was).
    @Test func aMovingEventIsDrawnWhereItIsAtEachPicture() async throws {
        try TestDisplay.useInThisProcess()
        defer { TestDisplay.leave() }
        let title = "moving ASS"
        let player = Player()
        player.audioOutputChoice = .disabled
        defer { player.close() }
        let item = PlayerItem(url: try Fixtures.movingSubtitles())
        player.replaceCurrentItem(with: item)
        #expect(await eventually { player.currentItem?.status == .readyToPlay })
        let window = try await PlayerWindow.open(player: player, title: title, width: 640, height: 360)
        defer { window.close() }
        #expect(await eventually { window.playerLayer.isReadyForDisplay })
        func centre(_ p: Points) -> Int { p.white.isEmpty ? -1 : p.white.map(\.x).reduce(0, +) / p.white.count }
        // The text's centre: x 210 at 2 s, 430 at 4 s.
        for (seconds, x) in [(2.0, 210), (4.0, 430), (2.0, 210)] {
            let shown = await Self.show(player, at: seconds, title: title) {
                $0.white.count > 40 && abs(centre($0) - x) < 30
            }
            #expect(
                shown.white.count > 40 && abs(centre(shown) - x) < 30,
                "at \(seconds) s: \(shown.white.count) white pixels centred at x \(centre(shown)), not \(x)")
        }
        // Paused at 3 s: the window and a screenshot of the picture (it drew each event at its middle) agree.
        let paused = await Self.show(player, at: 3, title: title) { abs(centre($0) - 320) < 30 }
        #expect(abs(centre(paused) - 320) < 30, "at 3 s: centred at x \(centre(paused)), not 320")
        #expect(abs(try Self.screenshotCentre(player, window, delay: 0) - 320) < 30, "the screenshot at 3 s")
        // A second of subtitle delay, set while paused: at 3 s of the picture's time the text is where it is at
        // 2 s of its own, at once (it waited for the next picture).
        item.subtitleDelay = 1
        var delayed = paused
        for _ in 0..<50 where abs(centre(delayed) - 210) >= 30 {
            try await Task.sleep(for: .milliseconds(100))
            delayed = (try? Self.colouredPoints(title)) ?? delayed
        }
        #expect(abs(centre(delayed) - 210) < 30, "delayed by 1 s, at 3 s: centred at x \(centre(delayed)), not 210")
        #expect(abs(try Self.screenshotCentre(player, window, delay: 1) - 210) < 30, "the delayed screenshot")
    }

    /// The x of the centre of the white text in a screenshot of `player`'s picture with `window`'s subtitles
    /// (`VideoFrame.pngData`), -1 without any.
    static func screenshotCentre(_ player: Player, _ window: PlayerWindow, delay: Double) throws -> Int {
        let frame = try #require(player.currentVideoFrame, "no picture")
        let png = try frame.pngData(subtitles: window.playerLayer.displayedSubtitles, subtitleDelay: delay)
        let folder = Paths.scratch("ass-screenshot")
        let file = folder.appendingPathComponent("shot.png")
        let rgb = folder.appendingPathComponent("shot.rgb")
        try Data(png).write(to: file)
        let r = try Run.command(
            "ffmpeg", ["-v", "error", "-y", "-i", file.path, "-f", "rawvideo", "-pix_fmt", "rgb24", rgb.path])
        try #require(r.status == 0, "\(r.stderr)")
        let bytes = [UInt8](try Data(contentsOf: rgb))
        try #require(bytes.count == 640 * 360 * 3, "\(bytes.count) bytes: not 640x360")
        var xs: [Int] = []
        for i in stride(from: 0, to: bytes.count, by: 3)
        where bytes[i] > 180 && bytes[i + 1] > 180 && bytes[i + 2] > 180 {
            xs.append(i / 3 % 640)
        }
        return xs.isEmpty ? -1 : xs.reduce(0, +) / xs.count
    }
}
