import Foundation
import PlayheadTestSupport
import Testing

/// The terminal and the window together: `i` (Picture in Picture) and `f` (fullscreen) on the terminal, which
/// without a window say why nothing happens (they were silent; `f` did nothing on the terminal even with a
/// window), and subtitles on the terminal only while no window shows or is about to show them.
@Suite struct TerminalWindowTests {
    @Test func iAndFSayWhyWithoutAWindow() throws {
        let tone = try Fixtures.tone(seconds: 6, ext: "wav")
        let sound = try Run.inTerminal(
            [try Paths.playheadBinary(), "--ao=null", "--no-mpris", "--no-resume", tone.path],
            keys: [(1, "i"), (0.5, "f"), (0.5, "q")], tail: 3, timeout: 30)
        #expect(sound.status == 0, "\(sound.stdout.suffix(300))")
        #expect(sound.stdout.contains("Picture in Picture: this entry has no pictures"), "\(sound.stdout.suffix(600))")
        #expect(sound.stdout.contains("fullscreen: this entry has no pictures"), "\(sound.stdout.suffix(600))")

        let video = try Fixtures.colourBars()
        let null = try Run.inTerminal(
            [try Paths.playheadBinary(), "--ao=null", "--vo=null", "--no-mpris", "--no-resume", video.path],
            keys: [(1, "i"), (0.5, "q")], tail: 3, timeout: 30)
        #expect(null.stdout.contains("Picture in Picture: no window (--vo=null)"), "\(null.stdout.suffix(600))")
        // Only the option given is named (both were, whichever was given).
        let withSound = try Fixtures.barsWithTone()
        let off = try Run.inTerminal(
            [try Paths.playheadBinary(), "--ao=null", "--no-video", "--no-mpris", "--no-resume", withSound.path],
            keys: [(1, "f"), (0.5, "q")], tail: 3, timeout: 30)
        #expect(off.stdout.contains("fullscreen: no window (--no-video)"), "\(off.stdout.suffix(600))")
    }

    /// With a window, `f` on the terminal makes it fullscreen (on an X server of the test's own, 640x480, with
    /// openbox, which carries fullscreen out).
    @Test func fOnTheTerminalMakesTheWindowFullscreen() throws {
        let video = try Fixtures.colourBars()
        let server = try TestDisplay.startManagedServer()
        defer { server.stop() }
        let display = server.display
        let args = [try Paths.playheadBinary(), "--ao=null", "--no-mpris", "--no-resume", video.path]
        let thread = Thread {
            _ = try? Run.inTerminal(
                args, keys: [(1.5, "f"), (1.5, "q")], tail: 2, environment: ["DISPLAY": display], timeout: 30)
        }
        thread.start()
        let title = "\(video.lastPathComponent) - playhead"
        var widest = 0
        while !thread.isFinished {
            if let g = try TestDisplay.window(titled: title, on: display) { widest = max(widest, g.width) }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(widest == 640, "the window was at most \(widest) wide")
    }

    /// A cue at the start is drawn in the window, not flashed on the terminal while the window opens.
    @Test func theFirstCueIsNotFlashedOnTheTerminalWhileTheWindowOpens() throws {
        let folder = Paths.scratch("first-cue")
        let video = folder.appendingPathComponent("Early.mp4")
        try? FileManager.default.removeItem(at: video)
        try FileManager.default.copyItem(at: try Fixtures.positionedCues().video, to: video)
        try "1\n00:00:00,000 --> 00:00:03,000\nEarly words\n".write(
            to: folder.appendingPathComponent("Early.srt"), atomically: true, encoding: .utf8)
        let r = try Run.inTerminal(
            [try Paths.playheadBinary(), "--ao=null", "--no-mpris", "--no-resume", "--length=1.5", video.path],
            keys: [], tail: 2, environment: ["DISPLAY": try TestDisplay.name()], timeout: 30)
        #expect(r.status == 0, "\(r.stdout.suffix(300))")
        #expect(!r.stdout.contains("Early words"), "\(r.stdout.suffix(600))")
    }
}
