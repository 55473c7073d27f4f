import Foundation
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

extension PlayerctlTests {
    /// `org.mpris.MediaPlayer2`: Quit reaches the app's quit handler (CanQuit only with one); Raise and Fullscreen
    /// say honestly that there is no window while the app offers none.
    @Test func quitRaiseAndFullscreenAreHonest() async throws {
        let (center, player) = try freshCenter()
        defer { center.quitHandler = nil }
        let bus = "org.mpris.MediaPlayer2.\(player)"
        let monitor = try await SeekedMonitor(
            match: "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
                + "path='/org/mpris/MediaPlayer2'")
        defer { monitor.stop() }
        #expect(try await property(bus, "CanQuit", interface: "") == "b false")
        // Quit while CanQuit is false: the spec's no-op, answered.
        #expect(try await dbusSend(bus, "Quit").status == 0)
        var quits = 0
        center.quitHandler = { quits += 1 }
        #expect(try await property(bus, "CanQuit", interface: "") == "b true")
        #expect(
            await eventually { monitor.text.contains("string \"CanQuit\"") },
            "PropertiesChanged for CanQuit:\n\(monitor.text)")
        #expect(monitor.text.contains("string \"org.mpris.MediaPlayer2\""), "on the root interface")
        let quit = try await dbusSend(bus, "Quit")
        #expect(quit.status == 0, "Quit: \(quit.stderr)")
        #expect(quits == 1)

        // No window: nothing to raise or make fullscreen.
        #expect(try await property(bus, "CanRaise", interface: "") == "b false")
        #expect(try await property(bus, "CanSetFullscreen", interface: "") == "b false")
        #expect(try await property(bus, "Fullscreen", interface: "") == "b false")
        #expect(try await dbusSend(bus, "Raise").status == 0, "Raise is the spec's no-op")
        let fullscreen = try await setProperty(bus, "Fullscreen", "b", "true", interface: "")
        #expect(fullscreen.status != 0 && fullscreen.stderr.contains("not supported"), "\(fullscreen.stderr)")
        #expect(try await property(bus, "Fullscreen", interface: "") == "b false")
        #expect(try await property(bus, "HasTrackList", interface: "") == "b false")
        #expect(try await property(bus, "Identity", interface: "") == "s \"Playhead\"")
        #expect(try await property(bus, "DesktopEntry", interface: "") == "s \"playhead\"")
        #expect(try await playerctl(player, "status") == "Stopped")
    }

    /// With a window: Raise reaches the app's raise handler, Fullscreen set reaches its fullscreen handler, and the
    /// published `Fullscreen` follows the app (with PropertiesChanged).
    @Test func raiseAndFullscreenReachTheAppsWindow() async throws {
        let (center, player) = try freshCenter()
        defer {
            center.raiseHandler = nil
            center.fullscreenHandler = nil
            center.isFullscreen = false
        }
        let bus = "org.mpris.MediaPlayer2.\(player)"
        let monitor = try await SeekedMonitor(
            match: "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
                + "path='/org/mpris/MediaPlayer2'")
        defer { monitor.stop() }
        var raises = 0
        var asked: [Bool] = []
        center.raiseHandler = { raises += 1 }
        center.fullscreenHandler = { on in
            asked.append(on)
            center.isFullscreen = on
        }
        #expect(try await property(bus, "CanRaise", interface: "") == "b true")
        #expect(try await property(bus, "CanSetFullscreen", interface: "") == "b true")
        #expect(try await dbusSend(bus, "Raise").status == 0)
        #expect(await eventually { raises == 1 }, "Raise did not reach the app")
        let set = try await setProperty(bus, "Fullscreen", "b", "true", interface: "")
        #expect(set.status == 0, "\(set.stderr)")
        #expect(await eventually { asked == [true] }, "asked \(asked)")
        #expect(await eventually { monitor.text.contains("string \"Fullscreen\"") }, "\(monitor.text)")
        #expect(try await property(bus, "Fullscreen", interface: "") == "b true")
        center.isFullscreen = false
        #expect(try await property(bus, "Fullscreen", interface: "") == "b false")
    }

    /// Writes to read-only properties and values of the wrong type: error replies; the player still answers.
    @Test func wrongTypesAndReadOnlyPropertiesGetErrorReplies() async throws {
        let (center, player) = try freshCenter()
        let bus = "org.mpris.MediaPlayer2.\(player)"
        var info = NowPlayingInfo()
        info.title = "Types"
        info.playbackDuration = 60
        info.elapsedPlaybackTime = 10
        info.playbackRate = 0
        center.info = info
        let c = center.remoteCommandCenter
        c.playCommand.addTarget { _ in .success }
        var calls = 0
        for command in [c.changeRepeatModeCommand, c.changeShuffleModeCommand, c.changePlaybackPositionCommand] {
            command.addTarget { _ in
                calls += 1
                return .success
            }
        }
        // Each refused by the player itself (its error names the property), not by busctl.
        let root: [(String, String, [String])] = [
            ("Identity", "s", ["Other"]), ("DesktopEntry", "s", ["other"]), ("CanQuit", "b", ["true"]),
            ("HasTrackList", "b", ["true"]), ("SupportedUriSchemes", "as", ["1", "http"]),
        ]
        for (name, type, values) in root {
            let r = try await run(
                "busctl",
                ["--user", "set-property", bus, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2", name, type, "--"]
                    + values)
            #expect(r.status != 0 && r.stderr.contains("'\(name)' is not writable"), "Set \(name): \(r.stderr)")
        }
        let writable: [(String, String, String, String)] = [
            ("Metadata", "a{sv}", "0", "not writable"), ("CanSeek", "b", "false", "not writable"),
            ("MinimumRate", "d", "0.1", "not writable"), ("LoopStatus", "s", "Sometimes", "None, Track or Playlist"),
            ("LoopStatus", "b", "true", "expected 's'"), ("Shuffle", "s", "yes", "expected 'b'"),
            ("Volume", "s", "loud", "expected 'd'"), ("Rate", "d", "inf", "finite"),
        ]
        for (name, type, value, error) in writable {
            let r = try await setProperty(bus, name, type, value)
            #expect(r.status != 0 && r.stderr.contains(error), "Set \(name) \(type) \(value): \(r.stderr)")
        }
        for (member, args) in [
            ("Player.Seek", ["int64:1", "int64:2"]), ("Player.Seek", ["int32:1"]),
            ("Player.SetPosition", ["string:/x", "int64:1"]), ("Player.OpenUri", []), ("Quit", ["string:now"]),
        ] {
            let r = try await run(
                "dbus-send",
                [
                    "--session", "--print-reply", "--dest=\(bus)", "/org/mpris/MediaPlayer2",
                    "org.mpris.MediaPlayer2.\(member)",
                ] + args)
            #expect(r.status != 0 && r.stderr.contains("InvalidArgs"), "\(member) \(args): \(r.stderr)")
        }
        // No URI can be opened through a center without a session: every scheme is unsupported.
        let open = try await dbusSend(bus, "Player.OpenUri", "string:file:///nonexistent.mp3")
        #expect(open.status != 0 && open.stderr.contains("NotSupported"), "\(open.stderr)")
        // Seek past the end with no next item: the spec's no-op; the handlers were never asked.
        #expect(try await dbusSend(bus, "Player.Seek", "int64:999000000").status == 0)
        #expect(calls == 0, "handlers called \(calls) times")
        #expect(try await playerctl(player, "status") == "Paused")
        #expect(try await playerctl(player, "metadata", "title") == "Types")
    }
}
