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
