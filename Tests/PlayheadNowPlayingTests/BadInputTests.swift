import Foundation
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

extension PlayerctlTests {
    @Test func badInputGetsAnErrorReplyOrTheSpecsNoOp() async throws {
        let (center, player) = try freshCenter()
        let bus = "org.mpris.MediaPlayer2.\(player)"
        var info = NowPlayingInfo()
        info.title = "Bad input"
        info.playbackDuration = 60
        info.elapsedPlaybackTime = 10
        info.playbackRate = 0
        center.info = info
        var positions: [Double] = []
        var pauses = 0
        var rates: [Double] = []
        let c = center.remoteCommandCenter
        c.playCommand.addTarget { _ in .success }
        c.changePlaybackPositionCommand.addTarget { event in
            positions.append(event.positionTime ?? -1)
            return .success
        }
        c.pauseCommand.addTarget { _ in
            pauses += 1
            return .success
        }
        c.changePlaybackRateCommand.addTarget { event in
            rates.append(event.playbackRate ?? -1)
            return .success
        }

        // Wrong argument types, unknown methods, unsupported schemes: error replies.
        #expect(try await dbusSend(bus, "Player.Seek", "string:far").status != 0)
        #expect(try await dbusSend(bus, "Player.SetPosition", "int64:5").status != 0)
        #expect(try await dbusSend(bus, "Player.Bogus").status != 0)
        #expect(try await dbusSend(bus, "Player.OpenUri", "string:gopher://example/x").status != 0)
        // Rates: negative, NaN, out of range and the wrong type are refused; 0 pauses (the spec).
        for (value, type, error) in [
            ("-1", "d", "must not be negative"), ("nan", "d", "finite"), ("100", "d", "rate outside"),
            ("fast", "s", "expected 'd'"),
        ] {
            let r = try await setProperty(bus, "Rate", type, value)
            #expect(r.status != 0 && r.stderr.contains(error), "Rate \(type) \(value): \(r.stderr)")
        }
        #expect(try await setProperty(bus, "Rate", "d", "0").status == 0)
        #expect(await eventually { pauses == 1 }, "Rate 0 paused \(pauses) times")
        #expect(try await setProperty(bus, "Rate", "d", "2").status == 0)
        #expect(await eventually { rates == [2] }, "rates asked: \(rates)")
        // Read-only properties, and Volume when nothing controls it.
        for (name, type, value, error) in [
            ("PlaybackStatus", "s", "Playing", "not writable"), ("Position", "x", "0", "not writable"),
            ("Volume", "d", "0.5", "not controllable"),
        ] {
            let r = try await setProperty(bus, name, type, value)
            #expect(r.status != 0 && r.stderr.contains(error), "Set \(name): \(r.stderr)")
        }
        #expect(try await playerctl(player, "status") == "Paused")
        // SetPosition with a stale track id, a negative position or one beyond the end: ignored (the spec).
        #expect(
            try await dbusSend(bus, "Player.SetPosition", "objpath:/org/playhead/track/0", "int64:5000000").status == 0)
        let track = try await playerctl(player, "metadata", "mpris:trackid").trimmingCharacters(in: ["'"])
        #expect(try await dbusSend(bus, "Player.SetPosition", "objpath:\(track)", "int64:-5").status == 0)
        #expect(try await dbusSend(bus, "Player.SetPosition", "objpath:\(track)", "int64:61000000").status == 0)
        #expect(positions == [], "positions asked: \(positions)")
        #expect(try await dbusSend(bus, "Player.SetPosition", "objpath:\(track)", "int64:5000000").status == 0)
        #expect(positions == [5], "positions asked: \(positions)")

        // A flood of calls: every one answered, the player still answers.
        // (xargs, not shell jobs: the test runner's children inherit a blocked SIGCHLD, so `wait` would hang.)
        let flood = try await run(
            "sh",
            [
                "-c",
                "seq 1 100 | xargs -P 25 -I{} dbus-send --session --print-reply --dest=\(bus) /org/mpris/MediaPlayer2 "
                    + "org.mpris.MediaPlayer2.Player.Seek int64:1000",
            ], timeout: 60)
        #expect(flood.status == 0, "\(flood.stderr)")
        #expect(flood.stdout.components(separatedBy: "method return").count == 101, "every call answered")
        #expect(await eventually { positions.count == 101 }, "\(positions.count - 1) of 100 seeks reached the handler")
        #expect(try await playerctl(player, "status") == "Paused")
    }

    @Test func loopShuffleAndVolumeReachTheApp() async throws {
        let (center, player) = try freshCenter()
        var info = NowPlayingInfo()
        info.title = "Modes"
        center.info = info
        let c = center.remoteCommandCenter
        c.playCommand.addTarget { _ in .success }
        c.changeRepeatModeCommand.addTarget { event in
            c.changeRepeatModeCommand.currentRepeatType = event.repeatType ?? .off
            return .success
        }
        c.changeShuffleModeCommand.addTarget { event in
            c.changeShuffleModeCommand.currentShuffleType = event.shuffleType ?? .off
            return .success
        }
        _ = try await playerctl(player, "loop", "Track")
        #expect(await eventually { c.changeRepeatModeCommand.currentRepeatType == .one })
        #expect(try await playerctl(player, "loop") == "Track")
        _ = try await playerctl(player, "loop", "Playlist")
        #expect(try await eventually { try await playerctl(player, "loop") == "Playlist" })
        _ = try await playerctl(player, "shuffle", "On")
        #expect(try await eventually { try await playerctl(player, "shuffle") == "On" })
        #expect(c.changeShuffleModeCommand.currentShuffleType == .items)
        // Disabling the command makes the mode read-only to the desktop.
        c.changeShuffleModeCommand.isEnabled = false
        _ = try? await playerctl(player, "shuffle", "Off")
        try await Task.sleep(for: .milliseconds(100))
        #expect(c.changeShuffleModeCommand.currentShuffleType == .items)
    }
}
