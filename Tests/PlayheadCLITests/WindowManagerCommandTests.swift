import Foundation
import PlayheadTestSupport
import Testing

/// `playhead`'s window under a window manager (openbox on an X server of the test's own): fullscreen from the
/// keys, the command line and the desktop's media controls (MPRIS), and the window manager's close.
@Suite(.serialized) struct WindowManagerCommandTests {
    /// The object and interface after the bus name, for `busctl`.
    static let mpris = ["/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2"]

    /// The MPRIS property `name` of the player on the bus as `bus`.
    static func property(_ name: String, of bus: String) throws -> String {
        try Run.command("busctl", ["--user", "get-property", bus] + mpris + [name], timeout: 5).stdout
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Waits up to 5 s for the MPRIS property `name` of `bus` to read `value`; what it read last.
    static func waitForProperty(_ name: String, of bus: String, toBe value: String) throws -> String {
        var read = ""
        for _ in 0..<100 {
            read = try property(name, of: bus)
            if read == value { break }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return read
    }

    /// Waits up to 5 s for the window titled `title` on `display` to have `size`.
    static func waitForSize(_ title: String, _ display: String, _ size: (Int, Int)) throws -> TestDisplay.Geometry? {
        var g: TestDisplay.Geometry?
        for _ in 0..<100 {
            g = try TestDisplay.window(titled: title, on: display)
            if let g, g.width == size.0, g.height == size.1 { return g }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return g
    }

    @Test func fullscreenFollowsKeysAndMPRISAndTheWindowManagersCloseQuits() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let x = try TestDisplay.startManagedServer()
        defer { x.stop() }
        let bars = try Fixtures.colourBars()
        let (p, _) = try WindowCommandTests.launch(["--ao=null", "--loop-file=inf", bars.path], display: x.display)
        defer { Run.kill(p) }
        let title = "\(bars.lastPathComponent) - playhead"
        _ = try #require(try TestDisplay.waitForWindow(titled: title, on: x.display), "no window")
        // Its own name: a player of an earlier test, killed, may not have been let go of by the bus yet.
        let bus = try #require(try SessionBus.mprisName(of: p.processIdentifier), "playhead did not take an MPRIS name")
        // The window is offered over MPRIS once its opening returns to the main actor, just after it is shown.
        #expect(try Self.waitForProperty("CanRaise", of: bus, toBe: "b true") == "b true")
        #expect(try Self.property("CanSetFullscreen", of: bus) == "b true")
        #expect(try Self.property("Fullscreen", of: bus) == "b false")

        // f: the whole 640x480 screen, the 4:3 picture filling it (each bar 160 wide).
        try WindowCommandTests.type(["f"], into: title, on: x.display)
        let full = try Self.waitForSize(title, x.display, (640, 480))
        #expect(full?.width == 640 && full?.height == 480, "f left the window at \(String(describing: full))")
        let points = Fixtures.barColours.enumerated().map { i, c in (x: i * 160 + 80, y: 240, colour: c) }
        let wrong = try TestDisplay.mismatches(in: title, on: x.display, points)
        #expect(wrong.isEmpty, "\(wrong.joined(separator: "; "))")
        #expect(try Self.property("Fullscreen", of: bus) == "b true")

        // The desktop's media controls take it out of fullscreen.
        let set = try Run.command(
            "busctl", ["--user", "set-property", bus] + Self.mpris + ["Fullscreen", "b", "false"])
        #expect(set.status == 0, "\(set.stderr)")
        let back = try Self.waitForSize(title, x.display, (320, 240))
        #expect(back?.width == 320 && back?.height == 240, "MPRIS left the window at \(String(describing: back))")
        #expect(try Self.property("Fullscreen", of: bus) == "b false")

        // The window manager's close (its close button): playhead ends, normally.
        let close = try Run.command("wmctrl", ["-c", title], environment: ["DISPLAY": x.display])
        #expect(close.status == 0, "\(close.stderr)")
        let deadline = Date().addingTimeInterval(5)
        while p.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!p.isRunning, "closing the window did not quit")
        if !p.isRunning { #expect(p.terminationStatus == 0) }
    }

    @Test func ontopAsksTheWindowManagerToKeepTheWindowAbove() throws {
        let x = try TestDisplay.startManagedServer()
        defer { x.stop() }
        let bars = try Fixtures.colourBars()
        let title = "\(bars.lastPathComponent) - playhead"
        for (arguments, above) in [([String](), false), (["--ontop"], true)] {
            let (p, _) = try WindowCommandTests.launch(
                ["--ao=null", "--no-mpris", "--length=3"] + arguments + [bars.path], display: x.display)
            defer { Run.kill(p) }
            _ = try #require(try TestDisplay.waitForWindow(titled: title, on: x.display), "no window")
            var state = ""
            for _ in 0..<40 {
                state = try Run.command(
                    "xprop", ["-display", x.display, "-name", title, "_NET_WM_STATE"], timeout: 5
                ).stdout
                if state.contains("_NET_WM_STATE_ABOVE") == above { break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            #expect(state.contains("_NET_WM_STATE_ABOVE") == above, "\(arguments): \(state)")
        }
    }

    @Test func fsStartsInFullscreen() throws {
        let x = try TestDisplay.startManagedServer()
        defer { x.stop() }
        let bars = try Fixtures.colourBars()
        let (p, _) = try WindowCommandTests.launch(
            ["--ao=null", "--no-mpris", "--fs", "--length=3", bars.path], display: x.display)
        defer { Run.kill(p) }
        let title = "\(bars.lastPathComponent) - playhead"
        _ = try TestDisplay.waitForWindow(titled: title, on: x.display)
        let g = try Self.waitForSize(title, x.display, (640, 480))
        #expect(g?.width == 640 && g?.height == 480, "--fs opened \(String(describing: g))")
    }

    /// Out of fullscreen, the window takes the size of the video playing now: one of another size began while it
    /// was fullscreen (it came back at the first video's size). The 640x480 screen fits 640x360 as 576x324.
    @Test func leavingFullscreenFitsTheVideoPlayingNow() throws {
        let x = try TestDisplay.startManagedServer()
        defer { x.stop() }
        let bars = try Fixtures.colourBars()
        let grey = try Fixtures.positionedCues().video
        let (p, _) = try WindowCommandTests.launch(
            ["--ao=null", "--no-mpris", "--fs", "--length=2.5", bars.path, grey.path], display: x.display)
        defer { Run.kill(p) }
        let title = "\(grey.lastPathComponent) - playhead"
        _ = try #require(try TestDisplay.waitForWindow(titled: title, on: x.display), "the second entry did not come")
        Thread.sleep(forTimeInterval: 0.3)
        try WindowCommandTests.type(["f"], into: title, on: x.display)
        let g = try Self.waitForSize(title, x.display, (576, 324))
        #expect(g?.width == 576 && g?.height == 324, "out of fullscreen at \(String(describing: g))")
    }
}
