import Foundation
import PlayheadTestSupport
import Testing

/// `playhead --pip` and the `i` key, under a window manager (openbox on an X server of the test's own): the
/// floating window, the way back, and the desktop's media controls while in Picture in Picture.
@Suite(.serialized) struct PictureInPictureCommandTests {
    static func mapped(_ title: String, on display: String) throws -> Bool {
        try Run.command("xwininfo", ["-display", display, "-name", title], timeout: 10).stdout.contains("IsViewable")
    }

    static func waitUntil(_ condition: () throws -> Bool, seconds: Double = 5) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        repeat {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date() < deadline
        return false
    }

    @Test func pipStartsFloatingAndTheKeysAndTheDesktopsControlsWorkThere() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let x = try TestDisplay.startManagedServer()
        defer { x.stop() }
        let bars = try Fixtures.colourBars()
        let log = Paths.scratch("pip-log").appendingPathComponent("log.jsonl")
        let (p, _) = try WindowCommandTests.launch(
            ["--ao=null", "--loop-file=inf", "--pip", "--log-json=\(log.path)", bars.path], display: x.display)
        defer { Run.kill(p) }
        let title = "\(bars.lastPathComponent) - playhead"
        let floating = "\(title) (Picture in Picture)"
        let g = try #require(try TestDisplay.waitForWindow(titled: floating, on: x.display), "no floating window")
        #expect(g.width == 160 && g.height == 120, "\(g)")
        #expect(try Self.waitUntil { try !Self.mapped(title, on: x.display) }, "the main window shows beside it")

        // The desktop's media controls act on the player in Picture in Picture.
        _ = Self.waitUntil { (try? Run.command("playerctl", ["-l"], timeout: 5).stdout.contains("playhead")) == true }
        _ = try Run.command("playerctl", ["--player=playhead", "pause"], timeout: 5)
        #expect(
            Self.waitUntil { (try? Run.command("playerctl", ["--player=playhead", "status"]).stdout) == "Paused\n" },
            "MPRIS pause in Picture in Picture")
        _ = try Run.command("playerctl", ["--player=playhead", "play"], timeout: 5)

        // i in the floating window: back to the main window; i there: floating again.
        try WindowCommandTests.type(["i"], into: floating, on: x.display)
        #expect(try Self.waitUntil { try Self.mapped(title, on: x.display) }, "i did not bring the main window back")
        #expect(try Self.waitUntil { try !Self.mapped(floating, on: x.display) }, "the floating window stayed")
        try WindowCommandTests.type(["i"], into: title, on: x.display)
        #expect(try Self.waitUntil { try Self.mapped(floating, on: x.display) }, "i did not float the player")
        // f in the floating window: back to the main window, covering the screen (the floating window itself
        // went fullscreen and on top, while MPRIS said it was not); f there leaves fullscreen, i floats it again.
        try WindowCommandTests.type(["f"], into: floating, on: x.display)
        #expect(try Self.waitUntil { try Self.mapped(title, on: x.display) }, "f did not bring the main window back")
        #expect(try Self.waitUntil { try !Self.mapped(floating, on: x.display) }, "the floating window stayed")
        let bus = try #require(try SessionBus.mprisName(of: p.processIdentifier), "no MPRIS name")
        #expect(try WindowManagerCommandTests.waitForProperty("Fullscreen", of: bus, toBe: "b true") == "b true")
        try WindowCommandTests.type(["f", "i"], into: title, on: x.display)
        #expect(try WindowManagerCommandTests.waitForProperty("Fullscreen", of: bus, toBe: "b false") == "b false")
        #expect(try Self.waitUntil { try Self.mapped(floating, on: x.display) }, "i did not float the player")
        // q in the floating window quits, as in the main one.
        try WindowCommandTests.type(["q"], into: floating, on: x.display)
        #expect(WindowCommandTests.waitForExit(p, seconds: 5), "q in Picture in Picture did not quit")
        if !p.isRunning { #expect(p.terminationStatus == 0) }
        // --log-json: each start and stop, and the media opened and decoders made, the same all along.
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }.filter { $0["event"] as? String == "picture-in-picture" }
        #expect(lines.map { $0["active"] as? Bool } == [true, false, true, false, true], "\(lines)")
        #expect(Set(lines.map { $0["opens"] as? Int }).count == 1, "opens \(lines.map { $0["opens"] ?? "-" })")
        #expect(Set(lines.map { $0["decoders"] as? Int }).count == 1, "\(lines.map { $0["decoders"] ?? "-" })")
    }
}
