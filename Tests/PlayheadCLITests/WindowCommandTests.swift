import Foundation
import PlayheadTestSupport
import Testing

/// `playhead`'s video window on the tests' X server: opened where a display is named and the media has
/// pictures, never without one, driven by the keys typed into it.
@Suite(.serialized) struct WindowCommandTests {
    /// `playhead ARGS` started with `display` as its only display (nil: none), its standard error kept.
    static func launch(_ arguments: [String], display: String?) throws -> (Process, Pipe) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = arguments
        p.environment = TestDisplay.environment(display: display)
        let err = Pipe()
        p.standardError = err
        try Run.start(p)
        return (p, err)
    }

    /// Waits up to `seconds` for `p` to end; true when it did.
    static func waitForExit(_ p: Process, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while p.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return !p.isRunning
    }

    /// Types `keys` into the window titled `title` (focused first, as a click would). The window is looked for
    /// for up to 5 s, as `TestDisplay.waitForWindow` does: once, in a fresh-machine run, `xdotool search` found no
    /// window just after `xwininfo` had found it viewable (while the window manager was still moving windows about).
    static func type(_ keys: [String], into title: String, on display: String? = nil) throws {
        let pattern = "^\(NSRegularExpression.escapedPattern(for: title))$"
        var found = try TestDisplay.xdotool(["search", "--name", pattern], on: display)
        let deadline = Date().addingTimeInterval(5)
        while found.stdout.isEmpty, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.1)
            found = try TestDisplay.xdotool(["search", "--name", pattern], on: display)
        }
        let id = try #require(
            found.stdout.split(separator: "\n").first.map(String.init),
            "no window \(title) (xdotool exit \(found.status): \(found.stderr))")
        try TestDisplay.xdotool(["windowfocus", "--sync", id], on: display)
        try TestDisplay.xdotool(["key", "--delay", "50"] + keys, on: display)
    }

    @Test func aWindowShowsThePicturesTakesTheKeysAndSleepsWhenPaused() throws {
        let display = try TestDisplay.name()
        let bars = try Fixtures.colourBars()
        let (p, err) = try Self.launch(["--ao=null", "--loop-file=inf", bars.path], display: display)
        defer { Run.kill(p) }
        let title = "\(bars.lastPathComponent) - playhead"
        let g = try #require(try TestDisplay.waitForWindow(titled: title), "no window titled \(title)")
        // The picture's own size, each bar in its place.
        #expect(g.width == 320 && g.height == 240, "\(g)")
        let points = Fixtures.barColours.enumerated().map { i, colour in (x: i * 80 + 40, y: 120, colour: colour) }
        let wrong = try TestDisplay.mismatches(in: title, points)
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "; "))")

        // Space pauses (MPRIS says so); paused, the window's thread sleeps like the rest.
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, !(try Run.command("playerctl", ["-l"], timeout: 5).stdout.contains("playhead")) {
            Thread.sleep(forTimeInterval: 0.1)
        }
        try Self.type(["space"], into: title)
        var status = ""
        for _ in 0..<50 {
            status = try Run.command("playerctl", ["-p", "playhead", "status"], timeout: 5).stdout
            if status.hasPrefix("Paused") { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(status.hasPrefix("Paused"), "space in the window left the player \(status)")
        Thread.sleep(forTimeInterval: 1)
        let before = ThreadActivity.sample(pid: p.processIdentifier)
        Thread.sleep(forTimeInterval: 5)
        let activity = ThreadActivity.difference(before, ThreadActivity.sample(pid: p.processIdentifier))
        let wakeups = activity.reduce(0) { $0 + $1.wakeups }
        #expect(wakeups <= 50, "\(wakeups) wakeups in 5 s paused: \(ThreadActivity.describe(activity, top: 30))")
        #expect(activity.contains { $0.thread.hasPrefix("playhead.displa") }, "no display thread")

        // q in the window quits.
        try Self.type(["q"], into: title)
        #expect(Self.waitForExit(p, seconds: 5), "q in the window did not quit")
        #expect(p.terminationStatus == 0)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stderr.isEmpty, "\(stderr)")
    }

    /// `s` saves the picture as a PNG in the current folder, under the first free name: an existing
    /// `playhead-shot0001.png` is left as it was, the picture goes to `playhead-shot0002.png`.
    @Test func sSavesTheShownPictureWithoutReplacingAFile() throws {
        let folder = Paths.scratch("screenshots")
        let taken = folder.appendingPathComponent("playhead-shot0001.png")
        try Data("not mine".utf8).write(to: taken)
        let bars = try Fixtures.colourBars()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = ["--ao=null", "--no-mpris", "--loop-file=inf", bars.path]
        p.environment = TestDisplay.environment(display: try TestDisplay.name())
        p.currentDirectoryURL = folder
        try Run.start(p)
        defer { Run.kill(p) }
        let title = "\(bars.lastPathComponent) - playhead"
        _ = try #require(try TestDisplay.waitForWindow(titled: title), "no window")
        Thread.sleep(forTimeInterval: 0.5)
        try Self.type(["s"], into: title)
        let shot = folder.appendingPathComponent("playhead-shot0002.png")
        var deadline = Date().addingTimeInterval(5)
        while !FileManager.default.fileExists(atPath: shot.path), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)
        }
        deadline = Date().addingTimeInterval(2)
        while (try? Data(contentsOf: shot).count) ?? 0 < 100, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(try Data(contentsOf: taken) == Data("not mine".utf8), "an existing file was replaced")
        let rgb = folder.appendingPathComponent("shot.rgb")
        let r = try Run.command(
            "ffmpeg", ["-v", "error", "-y", "-i", shot.path, "-f", "rawvideo", "-pix_fmt", "rgb24", rgb.path])
        #expect(r.status == 0, "the screenshot is not a picture ffmpeg reads: \(r.stderr)")
        let probe = try Run.command(
            "ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", shot.path])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "png,320,240", "\(probe.stdout)")
        let bytes = [UInt8]((try? Data(contentsOf: rgb)) ?? Data())
        let picture = Screenshot(width: 320, height: 240, rgb: bytes)
        if bytes.count == 320 * 240 * 3 {
            for (i, colour) in Fixtures.barColours.enumerated() {
                let right = picture.matches(i * 80 + 40, 120, colour)
                #expect(right, "bar \(i) is \(picture.pixel(i * 80 + 40, 120)), not \(colour)")
            }
        }
    }

    @Test func withoutADisplayThereIsNoWindowAndNothingIsSaid() throws {
        _ = try TestDisplay.name()
        let bars = try Fixtures.colourBars()
        let (p, err) = try Self.launch(["--ao=null", "--length=1.5", bars.path], display: nil)
        defer { Run.kill(p) }
        #expect(Self.waitForExit(p, seconds: 10))
        #expect(p.terminationStatus == 0)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(stderr.isEmpty, "\(stderr)")
        #expect(try TestDisplay.window(titled: "\(bars.lastPathComponent) - playhead") == nil)
    }

    /// `--vo=sdl` asks for a window: without a display that is said in words a user can act on (it was "cannot
    /// open a window (no display named): none not available").
    @Test func voSDLWithoutADisplaySaysWhy() throws {
        let bars = try Fixtures.colourBars()
        let (p, err) = try Self.launch(["--ao=null", "--vo=sdl", "--length=1", bars.path], display: nil)
        defer { Run.kill(p) }
        #expect(Self.waitForExit(p, seconds: 10))
        #expect(p.terminationStatus == 0)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(
            stderr == "playhead: cannot open a window: neither DISPLAY nor WAYLAND_DISPLAY is set (playing without "
                + "pictures)\n", "\(stderr)")
    }

    @Test func voNullShowsNoWindowOnADisplay() throws {
        let bars = try Fixtures.colourBars()
        let (p, _) = try Self.launch(
            ["--ao=null", "--vo=null", "--length=2", bars.path], display: try TestDisplay.name())
        defer { Run.kill(p) }
        Thread.sleep(forTimeInterval: 1)
        #expect(try TestDisplay.window(titled: "\(bars.lastPathComponent) - playhead") == nil, "--vo=null opened one")
        #expect(Self.waitForExit(p, seconds: 10))
        #expect(p.terminationStatus == 0)
    }

    @Test func aDisplayThatDoesNotAnswerIsSaidOnceAndPlaybackGoesOn() throws {
        _ = try TestDisplay.name()
        let bars = try Fixtures.colourBars()
        let started = Date()
        let (p, err) = try Self.launch(["--ao=null", "--vo=sdl", "--length=2", bars.path], display: ":4999")
        defer { Run.kill(p) }
        #expect(Self.waitForExit(p, seconds: 10), "playhead hung without its display")
        #expect(p.terminationStatus == 0)
        #expect(Date().timeIntervalSince(started) >= 1.9, "it did not play the 2 s")
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1 && stderr.contains("cannot open a window"), "\(stderr)")
    }

    /// The X server ends while the window shows the video: the sound plays on to the end, one line says why the
    /// pictures went, and the program ends normally (Xlib's default is exit(1) at once).
    @Test func aDisplayThatGoesAwayIsSaidOnceAndThePlayerPlaysOn() throws {
        let (server, display) = try TestDisplay.startPrivateServer()
        defer { Run.kill(server) }
        let video = try Fixtures.numberedVideo()
        let log = Paths.scratch("display-lost").appendingPathComponent("events.jsonl")
        let started = Date()
        let (p, err) = try Self.launch(
            ["--ao=null", "--length=4", "--log-json=\(log.path)", video.path], display: display)
        defer { Run.kill(p) }
        let title = "\(video.lastPathComponent) - playhead"
        var shown = false
        for _ in 0..<100 where !shown {
            let r = try Run.command("xwininfo", ["-display", display, "-name", title], timeout: 5)
            shown = r.status == 0 && r.stdout.contains("IsViewable")
            if !shown { Thread.sleep(forTimeInterval: 0.05) }
        }
        #expect(shown, "no window on \(display)")
        Thread.sleep(forTimeInterval: 1)
        Run.kill(server)
        #expect(Self.waitForExit(p, seconds: 15), "playhead hung after its display went away")
        #expect(p.terminationStatus == 0, "exit \(p.terminationStatus)")
        #expect(Date().timeIntervalSince(started) >= 3.9, "it stopped before the end")
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let lines = stderr.split(separator: "\n")
        #expect(lines.count == 1 && stderr.contains("display went away"), "\(stderr)")
        let events = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(events.contains("\"ended\""), "the item did not play to its end: \(events.suffix(300))")
    }

    @Test func geometryPlacesAndSizesTheWindow() throws {
        let bars = try Fixtures.colourBars()
        let (p, _) = try Self.launch(
            ["--ao=null", "--geometry=400x300+50+60", "--length=3", bars.path], display: try TestDisplay.name())
        defer { Run.kill(p) }
        let title = "\(bars.lastPathComponent) - playhead"
        let g = try #require(try TestDisplay.waitForWindow(titled: title))
        #expect(g == TestDisplay.Geometry(x: 50, y: 60, width: 400, height: 300), "\(g)")
        // 320x240 in 400x300: the same aspect, filled.
        let wrong = try TestDisplay.mismatches(
            in: title, [(50, 150, Fixtures.barColours[0]), (350, 150, Fixtures.barColours[3])])
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "; "))")
    }

    /// Each video of another size sizes the window for it, as mpv's playlists do (it kept the first one's size).
    @Test func theWindowFitsEachVideosSize() throws {
        let grey = try Fixtures.positionedCues().video
        let bars = try Fixtures.colourBars()
        let (p, _) = try Self.launch(
            ["--ao=null", "--length=2", grey.path, bars.path], display: try TestDisplay.name())
        defer { Run.kill(p) }
        let first = try #require(try TestDisplay.waitForWindow(titled: "\(grey.lastPathComponent) - playhead"))
        #expect(first.width == 640 && first.height == 360, "\(first)")
        var second = try #require(try TestDisplay.waitForWindow(titled: "\(bars.lastPathComponent) - playhead"))
        for _ in 0..<40 where second.width != 320 {
            Thread.sleep(forTimeInterval: 0.05)
            second = try TestDisplay.window(titled: "\(bars.lastPathComponent) - playhead") ?? second
        }
        #expect(second.width == 320 && second.height == 240, "\(second)")
    }

    /// A larger video's window stays on the screen, about the same centre (it kept its corner and grew off the
    /// 1280x720 screen).
    @Test func aLargerVideosWindowStaysOnTheScreen() throws {
        let bars = try Fixtures.colourBars()
        let large = try Fixtures.make(
            "grey-1920x1080.mp4",
            ["-f", "lavfi", "-i", "color=c=0x404040:s=1920x1080:r=25:d=3", "-c:v", "libx264", "-preset", "ultrafast"])
        let (p, _) = try Self.launch(
            ["--ao=null", "--no-mpris", "--length=1.5", "--geometry=+900+450", bars.path, large.path],
            display: try TestDisplay.name())
        defer { Run.kill(p) }
        let title = "\(large.lastPathComponent) - playhead"
        var g = try #require(try TestDisplay.waitForWindow(titled: title))
        for _ in 0..<40 where g.width != 1152 {
            Thread.sleep(forTimeInterval: 0.05)
            g = try TestDisplay.window(titled: title) ?? g
        }
        #expect(g.width == 1152 && g.height == 648, "\(g)")
        #expect(g.x >= 0 && g.y >= 0 && g.x + g.width <= 1280 && g.y + g.height <= 720, "off the screen: \(g)")
    }

    @Test(arguments: ["--geometry=10x10", "--geometry=640x", "--geometry=+1+2+3", "--geometry=99999x100", "--vo=x"])
    func badVideoOptionsAreRefused(_ option: String) throws {
        let r = try Run.command(try Paths.playheadBinary(), [option, "x.mp4"], timeout: 10)
        #expect(r.status == 2, "\(option): exit \(r.status)")
        let name = option.split(separator: "=")[0]
        #expect(r.stderr.split(separator: "\n").count == 1 && r.stderr.contains(name), "\(r.stderr)")
    }
}
