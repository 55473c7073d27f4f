import Foundation
import Playhead
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

extension PlayerctlTests {
    @Test func sessionPublishesItsPlayerAndTheDefaultHandlersControlIt() async throws {
        _ = try freshCenter()
        let player = try await taggedPlayer()
        defer { player.close() }
        let session = NowPlayingSession(players: [player])
        defer { session.invalidate() }
        session.automaticallyPublishesNowPlayingInfo = true
        #expect(await session.becomeActiveIfPossible())
        let name = try name(of: session)
        // The default center holds org.mpris.MediaPlayer2.playhead: the session takes the spec's instance name.
        #expect(name == "playhead.instance\(getpid())")
        #expect(try await run("playerctl", ["-l"]).stdout.split(separator: "\n").contains { $0 == name })
        #expect(try await playerctl(name, "metadata", "--format", "{{title}}|{{artist}}") == "Now Title|Now Artist")
        #expect(try await playerctl(name, "status") == "Paused")

        let monitor = try await SeekedMonitor()
        defer { monitor.stop() }
        var targets: [Double] = []
        let events = player.events()
        let recorder = Task {
            for await e in events { if case .seekStarted(let target) = e.kind { targets.append(target) } }
        }
        defer { recorder.cancel() }
        // The app plays: the desktop follows without app code, and sees no Seeked while it plays.
        player.play()
        #expect(try await eventually { try await playerctl(name, "status") == "Playing" })
        try await Task.sleep(for: .milliseconds(800))
        #expect(monitor.positions == [], "Seeked during normal playback")
        // The remote seeks: the player seeks there, and the desktop is told once the seek is done.
        _ = try await playerctl(name, "position", "10")
        #expect(await eventually { targets == [10] }, "the player was asked to seek to \(targets)")
        #expect(await eventually { monitor.positions.count == 1 }, "Seeked signals: \(monitor.positions)")
        #expect(abs((monitor.positions.first ?? 0) - 10) < 0.01, "Seeked signals: \(monitor.positions)")
        // Once settled, what playerctl reads is what the player plays.
        try await Task.sleep(for: .milliseconds(1200))
        let position = try #require(Double(try await playerctl(name, "position")))
        #expect(
            abs(position - player.currentTime().seconds) < 0.3, "playerctl \(position), player \(player.currentTime())")
        // The app seeks: Seeked too.
        await player.seek(to: MediaTime(seconds: 5, preferredTimescale: 600))
        #expect(await eventually { monitor.positions.count == 2 }, "Seeked: \(monitor.positions)")
        // 3 s back from the remote (Seek with a negative offset), from where the desktop sees the player.
        try await Task.sleep(for: .milliseconds(600))
        let from = try #require(Double(try await playerctl(name, "position")))
        _ = try await playerctl(name, "position", "3-")
        #expect(await eventually { targets.count == 3 }, "seeks asked: \(targets)")
        #expect(abs((targets.last ?? 0) - (from - 3)) < 0.3, "3 s back from \(from) asked \(targets)")
        #expect(await eventually { monitor.positions.count == 3 }, "Seeked: \(monitor.positions)")
        // The remote pauses the player.
        _ = try await playerctl(name, "play-pause")
        #expect(await eventually { player.timeControlStatus == .paused })
        #expect(try await playerctl(name, "status") == "Paused")
        // The remote sets the player's volume, and reads it back.
        _ = try await playerctl(name, "volume", "0.5")
        #expect(await eventually { player.volume == 0.5 }, "player volume \(player.volume)")
        #expect(try await playerctl(name, "volume") == "0.500000")
        // Stop: stopped at the start (a seek to 0: Seeked); play goes on from there.
        _ = try await playerctl(name, "stop")
        #expect(try await playerctl(name, "status") == "Stopped")
        #expect(await eventually { targets.last == 0 }, "seeks asked: \(targets)")
        #expect(await eventually { monitor.positions.count == 4 }, "Seeked: \(monitor.positions)")
        #expect(try await playerctl(name, "position") == "0.000000")
        _ = try await playerctl(name, "play")
        #expect(try await eventually { try await playerctl(name, "status") == "Playing" })
        // Exactly one Seeked per seek, each where the seek went, and none while playing.
        try await Task.sleep(for: .milliseconds(800))
        let seen = monitor.positions
        #expect(seen.count == 4, "Seeked signals: \(seen) for seeks to \(targets)")
        for (position, target) in zip(seen, targets) {
            #expect(abs(position - target) < 0.05, "Seeked \(seen) for seeks to \(targets)")
        }
    }

    @Test func onlyTheActiveSessionIsVisible() async throws {
        _ = try freshCenter()
        let main = try await taggedPlayer()
        let second = Player()
        second.audioOutputChoice = .null(untimed: false)
        second.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 4)))
        defer {
            main.close()
            second.close()
        }
        let a = NowPlayingSession(players: [main])
        let b = NowPlayingSession(players: [second])
        defer {
            a.invalidate()
            b.invalidate()
        }
        a.automaticallyPublishesNowPlayingInfo = true
        b.automaticallyPublishesNowPlayingInfo = true
        #expect(await a.becomeActiveIfPossible())
        let nameA = try name(of: a)
        #expect(try await playerctl(nameA, "metadata", "title") == "Now Title")
        #expect(await b.becomeActiveIfPossible())
        #expect(b.isActive && !a.isActive)
        let nameB = try name(of: b)
        let listed = try await run("playerctl", ["-l"]).stdout.split(separator: "\n").map(String.init)
        #expect(listed.filter { $0.hasPrefix("playhead.") } == [nameB], "playerctl -l printed \(listed)")
        let title = try await playerctl(nameB, "metadata", "--format", "{{xesam:url}}")
        #expect(title.hasSuffix(try Fixtures.tone(seconds: 4).lastPathComponent), "the desktop shows \(title)")
        // Remote commands reach the active session's player only.
        _ = try await playerctl(nameB, "play")
        #expect(await eventually { second.timeControlStatus == .playing }, "the active session's player plays")
        #expect(main.timeControlStatus == .paused, "the inactive session's player stays paused")
        // And back: the desktop sees the main player again, and the second one no more.
        #expect(await a.becomeActiveIfPossible())
        #expect(a.isActive && !b.isActive)
        let again = try name(of: a)
        let relisted = try await run("playerctl", ["-l"]).stdout.split(separator: "\n").map(String.init)
        #expect(relisted.filter { $0.hasPrefix("playhead.") } == [again], "playerctl -l printed \(relisted)")
        #expect(try await playerctl(again, "metadata", "title") == "Now Title")
        _ = try await playerctl(again, "pause")
        #expect(second.timeControlStatus == .playing, "the second player is no longer controlled")
    }

    @Test func aDroppedSessionLeavesTheBus() async throws {
        _ = try freshCenter()
        let player = try await taggedPlayer()
        defer { player.close() }
        var session: NowPlayingSession? = NowPlayingSession(players: [player])
        #expect(await session?.becomeActiveIfPossible() == true)
        let name = try name(of: try #require(session))
        #expect(try await run("playerctl", ["-l"]).stdout.split(separator: "\n").contains { $0 == name })
        session = nil
        #expect(
            try await eventually {
                try await !run("playerctl", ["-l"]).stdout.split(separator: "\n").contains { $0 == name }
            },
            "\(name) is still on the bus")
    }
}
