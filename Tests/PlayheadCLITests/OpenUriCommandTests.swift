import Foundation
import PlayheadTestSupport
import Testing

/// A file the desktop opens (MPRIS `OpenUri`) while a playlist plays is named as itself: in `--log-json` and the
/// messages (the entry it interrupted was named: its item-changed, opened and ended said the entry left), and
/// Next goes on to the playlist's next entry.
@Suite(.serialized) struct OpenUriCommandTests {
    @Test func anOpenedFileIsNamedAsItselfAndThePlaylistGoesOn() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let first = try Fixtures.tone(seconds: 20)
        let second = try Fixtures.tone(seconds: 1, frequency: 1000)
        let opened = try GaplessFixtures.positionChirp()
        let p = try PlayheadProcess(["--ao=null", "--vo=null", first.path, second.path])
        let name = try SessionBus.mprisName(of: p.process.processIdentifier, seconds: 10)
        let bus = try #require(name, "no MPRIS name: \(p.stderr)")
        #expect(p.waitFor("first-audio"), "events: \(p.names)")
        let open = try Run.command(
            "dbus-send",
            [
                "--session", "--print-reply", "--dest=\(bus)", "/org/mpris/MediaPlayer2",
                "org.mpris.MediaPlayer2.Player.OpenUri", "string:\(opened.absoluteString)",
            ], timeout: 20)
        #expect(open.status == 0, "OpenUri: \(open.stderr)")
        #expect(p.waitFor("first-audio", count: 2), "events: \(p.names)")
        let next = try Run.command(
            "dbus-send",
            [
                "--session", "--print-reply", "--dest=\(bus)", "/org/mpris/MediaPlayer2",
                "org.mpris.MediaPlayer2.Player.Next",
            ], timeout: 20)
        #expect(next.status == 0, "Next: \(next.stderr)")
        #expect(p.waitForExit() == 0, "stderr: \(p.stderr)")
        let named = p.events.compactMap { e -> String? in
            guard let event = e["event"] as? String, ["item-changed", "first-audio", "ended"].contains(event) else {
                return nil
            }
            return "\(event) \(((e["input"] as? String ?? "") as NSString).lastPathComponent)"
        }
        let (a, b, c) = (first.lastPathComponent, second.lastPathComponent, opened.lastPathComponent)
        #expect(
            named == [
                "item-changed \(a)", "first-audio \(a)", "item-changed \(c)", "first-audio \(c)", "item-changed \(b)",
                "first-audio \(b)", "ended \(b)", "item-changed ",
            ], "\(named)")
    }
}
