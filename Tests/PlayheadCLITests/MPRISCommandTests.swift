import Foundation
import PlayheadTestSupport
import Testing

/// `playhead` seen from the desktop: playerctl on the private session bus the test command starts.
@Suite(.serialized) struct MPRISCommandTests {
    @Test func playerctlSeesAndControlsPlayhead() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let tone = try Fixtures.tone(seconds: 6)
        let log = Paths.scratch("mpris").appendingPathComponent("e.jsonl")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = ["--ao=null", "--log-json=\(log.path)", tone.path]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try Run.start(p)
        defer { Run.kill(p) }
        let deadline = Date().addingTimeInterval(5)
        var listed = ""
        while Date() < deadline {
            listed = try Run.command("playerctl", ["-l"], timeout: 5).stdout
            if listed.contains("playhead") { break }
            Thread.sleep(forTimeInterval: 0.1)
        }
        #expect(listed.contains("playhead"), "playerctl -l: \(listed)")
        #expect(try Run.command("playerctl", ["-p", "playhead", "status"]).stdout.hasPrefix("Playing"))
        let title = try Run.command("playerctl", ["-p", "playhead", "metadata", "xesam:title"]).stdout
        #expect(title.contains("tone-440hz-6.0s"), "title \(title)")
        _ = try Run.command("playerctl", ["-p", "playhead", "pause"])
        Thread.sleep(forTimeInterval: 0.3)
        #expect(try Run.command("playerctl", ["-p", "playhead", "status"]).stdout.hasPrefix("Paused"))
        let events = try String(contentsOf: log, encoding: .utf8)
        #expect(events.contains("\"rate\":0"), "the remote pause did not reach the player: \(events)")
    }

    @Test func quitOverMPRISEndsPlayheadCleanly() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let tone = try Fixtures.tone(seconds: 30)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = ["--ao=null", tone.path]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try Run.start(p)
        defer { Run.kill(p) }
        var deadline = Date().addingTimeInterval(5)
        while Date() < deadline, !(try Run.command("playerctl", ["-l"], timeout: 5).stdout.contains("playhead")) {
            Thread.sleep(forTimeInterval: 0.1)
        }
        let name = "org.mpris.MediaPlayer2.playhead"
        let canQuit = try Run.command(
            "busctl", ["--user", "get-property", name, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2", "CanQuit"])
        #expect(canQuit.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "b true", "\(canQuit.stderr)")
        let quit = try Run.command(
            "dbus-send",
            ["--session", "--print-reply", "--dest=\(name)", "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Quit"])
        #expect(quit.status == 0, "Quit: \(quit.stderr)")
        // It ends long before the 30 s tone would, with status 0, and leaves the bus.
        deadline = Date().addingTimeInterval(10)
        while p.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!p.isRunning, "playhead still runs after Quit")
        if !p.isRunning { #expect(p.terminationStatus == 0) }
        #expect(!(try Run.command("playerctl", ["-l"]).stdout.contains("playhead")))
    }

    @Test func playerctlNextAndPreviousFollowThePlayOrder() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let first = try Fixtures.tone(seconds: 20)
        let second = try Fixtures.tone(seconds: 20, frequency: 550)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = ["--ao=null", "--no-resume", first.path, second.path]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try Run.start(p)
        defer { Run.kill(p) }
        func title() throws -> String {
            try Run.command("playerctl", ["-p", "playhead", "metadata", "xesam:title"], timeout: 5).stdout
        }
        func waitFor(_ text: String) throws -> Bool {
            let deadline = Date().addingTimeInterval(5)
            while Date() < deadline {
                if try title().contains(text) { return true }
                Thread.sleep(forTimeInterval: 0.1)
            }
            return false
        }
        #expect(try waitFor("tone-440hz"), "title \((try? title()) ?? "")")
        let hasTrackList = try Run.command(
            "busctl",
            [
                "--user", "get-property", "org.mpris.MediaPlayer2.playhead", "/org/mpris/MediaPlayer2",
                "org.mpris.MediaPlayer2", "HasTrackList",
            ])
        #expect(hasTrackList.stdout.hasPrefix("b true"), "\(hasTrackList.stdout)")
        _ = try Run.command("playerctl", ["-p", "playhead", "next"])
        #expect(try waitFor("tone-550hz"), "after next: \((try? title()) ?? "")")
        _ = try Run.command("playerctl", ["-p", "playhead", "previous"])
        #expect(try waitFor("tone-440hz"), "after previous: \((try? title()) ?? "")")
        #expect(p.isRunning)
    }

    /// A track the desktop added (MPRIS `AddTrack`) after the last entry is where Next goes (it did nothing: the
    /// command's Next followed its own entries only). Also: repeat and shuffle set to what they are.
    @Test func nextGoesToATrackTheDesktopAdded() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let first = try Fixtures.tone(seconds: 20)
        let added = try Fixtures.tone(seconds: 4, frequency: 660, ext: "wav")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = ["--ao=null", "--vo=null", "--no-resume", first.path]
        try Run.start(p)
        defer { Run.kill(p) }
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, !(try Run.command("playerctl", ["-l"], timeout: 5).stdout.contains("playhead")) {
            Thread.sleep(forTimeInterval: 0.1)
        }
        let name = "org.mpris.MediaPlayer2.playhead"
        let add = try Run.command(
            "busctl",
            [
                "--user", "call", name, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.TrackList", "AddTrack",
                "sob", added.absoluteString, "/org/mpris/MediaPlayer2/TrackList/NoTrack", "false",
            ])
        #expect(add.status == 0, "\(add.stderr)")
        // Repeat and shuffle are not the command's: setting them as they are is no change (a desktop syncing its
        // toggles got an error), setting another value is refused.
        for (property, signature, value, accepted) in [
            ("LoopStatus", "s", "None", true), ("Shuffle", "b", "false", true), ("LoopStatus", "s", "Track", false),
        ] {
            let set = try Run.command(
                "busctl",
                [
                    "--user", "set-property", name, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player",
                    property,
                    signature, value,
                ])
            #expect((set.status == 0) == accepted, "\(property)=\(value): exit \(set.status) \(set.stderr)")
        }
        Thread.sleep(forTimeInterval: 0.5)
        _ = try Run.command("playerctl", ["-p", "playhead", "next"])
        var title = ""
        let until = Date().addingTimeInterval(5)
        while Date() < until, !title.contains("tone-660hz") {
            Thread.sleep(forTimeInterval: 0.2)
            title = try Run.command("playerctl", ["-p", "playhead", "metadata", "xesam:title"]).stdout
        }
        #expect(title.contains("tone-660hz-4.0s"), "after Next: \(title)")
    }

    @Test func noMPRISAndNoBusAreQuiet() throws {
        let tone = try Fixtures.tone(seconds: 1)
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=null", "--no-mpris", tone.path], timeout: 20)
        #expect(r.status == 0)
        let noBus = try Run.command(
            "env", ["-u", "DBUS_SESSION_BUS_ADDRESS", try Paths.playheadBinary(), "--ao=null", tone.path], timeout: 20)
        #expect(noBus.status == 0)
        #expect(noBus.stderr.isEmpty, "a missing bus is not an error: \(noBus.stderr)")
        let verbose = try Run.command(
            "env", ["-u", "DBUS_SESSION_BUS_ADDRESS", try Paths.playheadBinary(), "-v", "--ao=null", tone.path],
            timeout: 20)
        #expect(verbose.status == 0)
        #expect(
            verbose.stderr.components(separatedBy: "no D-Bus session bus").count == 2,
            "one notice with -v: \(verbose.stderr)")
    }
}
