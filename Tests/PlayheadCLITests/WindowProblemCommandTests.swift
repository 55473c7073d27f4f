import Foundation
import PlayheadTestSupport
import Testing

/// A window that cannot draw everything says so once and plays on: a broken libass (no subtitles) and a broken
/// SDL2_ttf (controls without text), each a file that is not a library found first on `LD_LIBRARY_PATH`.
@Suite(.serialized) struct WindowProblemCommandTests {
    @Test func brokenLibassAndSDL2ttfAreSaidOnceAndThePicturePlays() throws {
        let display = try TestDisplay.name()
        let broken = Paths.scratch("broken-libraries")
        for name in ["libass.so.9", "libSDL2_ttf-2.0.so.0"] {
            try Data("not a library\n".utf8).write(to: broken.appendingPathComponent(name))
        }
        defer { try? FileManager.default.removeItem(at: broken) }
        let video = try Fixtures.subtitledVideo()
        let subtitles = video.deletingLastPathComponent().appendingPathComponent("hello.srt")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = ["--ao=null", "--no-mpris", "--sub-file=\(subtitles.path)", video.path]
        var environment = TestDisplay.environment(display: display)
        environment["LD_LIBRARY_PATH"] = broken.path
        p.environment = environment
        let err = Pipe()
        p.standardError = err
        try Run.start(p)
        defer { Run.kill(p) }
        let title = "\(video.lastPathComponent) - playhead"
        let g = try #require(try TestDisplay.waitForWindow(titled: title), "no window titled \(title)")
        // The pointer moves over the window: the controls show (without their text).
        for (x, y) in [(100, 100), (120, 110), (140, 120)] {
            try TestDisplay.xdotool(["mousemove", "\(g.x + x)", "\(g.y + y)"])
            Thread.sleep(forTimeInterval: 0.2)
        }
        // The grey picture is on screen the whole time.
        let wrong = try TestDisplay.mismatches(in: title, [(x: 320, y: 100, colour: (64, 64, 64))])
        #expect(wrong.isEmpty, "\(wrong)")
        #expect(WindowCommandTests.waitForExit(p, seconds: 15), "playhead did not end")
        try? TestDisplay.parkPointer()
        let lines = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .split(separator: "\n")
        let subtitleLines = lines.filter { $0.contains("subtitles cannot be drawn: cannot load libass") }
        let textLines = lines.filter { $0.contains("the controls are drawn without text: cannot load SDL2_ttf") }
        #expect(subtitleLines.count == 1, "\(lines)")
        #expect(textLines.count == 1, "\(lines)")
        #expect(p.terminationStatus == 0, "exit \(p.terminationStatus): \(lines)")
    }
}

/// `s` in the window saves what the window shows of the picture: the subtitles with it, none once `v` hid them.
@Suite(.serialized) struct ScreenshotSubtitleCommandTests {
    /// The bright (text) pixels of the bottom quarter of a PNG file.
    static func textPixels(_ png: URL) throws -> Int {
        let rgb = png.deletingPathExtension().appendingPathExtension("rgb")
        let r = try Run.command(
            "ffmpeg", ["-v", "error", "-y", "-i", png.path, "-f", "rawvideo", "-pix_fmt", "rgb24", rgb.path])
        try #require(r.status == 0, "\(png.lastPathComponent) is not a picture ffmpeg reads: \(r.stderr)")
        let picture = Screenshot(width: 640, height: 360, rgb: [UInt8](try Data(contentsOf: rgb)))
        try #require(picture.rgb.count == 640 * 360 * 3, "\(picture.rgb.count) bytes: not 640x360")
        return picture.brightPixels(inRows: 270..<360).count
    }

    /// Waits for `file` to be written whole (a PNG ends with its IEND chunk).
    static func waitFor(_ file: URL) -> Bool {
        let deadline = Date().addingTimeInterval(8)
        while Date() < deadline {
            if let data = try? Data(contentsOf: file), data.count > 100, data.suffix(8).starts(with: [0x49, 0x45]) {
                return true
            }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    @Test func sSavesThePictureWithTheSubtitlesShown() throws {
        let folder = Paths.scratch("subtitle-screenshots")
        let video = try Fixtures.subtitledVideo()
        // One cue the whole length of the clip: whenever the pause lands, it is on screen.
        let subtitles = folder.appendingPathComponent("all-along.srt")
        try "1\n00:00:00,000 --> 00:00:06,000\nHello world\n".write(to: subtitles, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = ["--ao=null", "--no-mpris", "--sub-file=\(subtitles.path)", video.path]
        p.environment = TestDisplay.environment(display: try TestDisplay.name())
        p.currentDirectoryURL = folder
        try Run.start(p)
        defer { Run.kill(p) }
        let title = "\(video.lastPathComponent) - playhead"
        _ = try #require(try TestDisplay.waitForWindow(titled: title), "no window")
        // Paused with the cue on screen.
        Thread.sleep(forTimeInterval: 0.5)
        try WindowCommandTests.type(["p", "s"], into: title)
        let first = folder.appendingPathComponent("playhead-shot0001.png")
        #expect(Self.waitFor(first), "no screenshot")
        let drawn = try Self.textPixels(first)
        #expect(drawn > 150, "\(drawn) text pixels in the screenshot with a cue on screen")
        try WindowCommandTests.type(["v", "s"], into: title)
        let second = folder.appendingPathComponent("playhead-shot0002.png")
        #expect(Self.waitFor(second), "no second screenshot")
        #expect(try Self.textPixels(second) == 0, "subtitles in the screenshot after v hid them")
    }

    /// In Picture in Picture the subtitles the floating window shows are saved too (they were left out: the main
    /// window, which shows nothing then, was asked). Under openbox on an X server of the test's own.
    @Test func sInPictureInPictureSavesTheSubtitlesToo() throws {
        let folder = Paths.scratch("subtitle-screenshots-pip")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let video = try Fixtures.subtitledVideo()
        let subtitles = folder.appendingPathComponent("all-along.srt")
        try "1\n00:00:00,000 --> 00:00:06,000\nHello world\n".write(to: subtitles, atomically: true, encoding: .utf8)
        let x = try TestDisplay.startManagedServer()
        defer { x.stop() }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = ["--ao=null", "--no-mpris", "--pip", "--sub-file=\(subtitles.path)", video.path]
        p.environment = TestDisplay.environment(display: x.display)
        p.currentDirectoryURL = folder
        try Run.start(p)
        defer { Run.kill(p) }
        let floating = "\(video.lastPathComponent) - playhead (Picture in Picture)"
        _ = try #require(try TestDisplay.waitForWindow(titled: floating, on: x.display), "no floating window")
        Thread.sleep(forTimeInterval: 0.5)
        try WindowCommandTests.type(["p", "s"], into: floating, on: x.display)
        let shot = folder.appendingPathComponent("playhead-shot0001.png")
        #expect(Self.waitFor(shot), "no screenshot")
        let drawn = try Self.textPixels(shot)
        #expect(drawn > 150, "\(drawn) text pixels in the screenshot taken in Picture in Picture")
    }
}
