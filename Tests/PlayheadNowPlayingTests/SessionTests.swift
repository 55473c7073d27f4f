import Foundation
import Playhead
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

/// A player on the tagged file (silent real-time output: these tests are about the bus, not the sound).
@MainActor
private func taggedPlayer() async throws -> Player {
    let player = Player()
    player.audioOutputChoice = .null(untimed: false)
    player.replaceCurrentItem(with: PlayerItem(url: try taggedFile()))
    #expect(await eventually { player.currentItem?.status == .readyToPlay }, "the tagged file did not load")
    return player
}

/// The playerctl name of an active session.
@MainActor
private func name(of session: NowPlayingSession) throws -> String {
    let bus = try #require(session.nowPlayingInfoCenter.mprisBusName, "the session is not on the bus")
    return String(bus.dropFirst("org.mpris.MediaPlayer2.".count))
}

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
        // The remote seeks: the player seeks there and the desktop is told at once.
        _ = try await playerctl(name, "position", "10")
        #expect(await eventually { targets == [10] }, "the player was asked to seek to \(targets)")
        #expect(abs((monitor.positions.first ?? 0) - 10) < 0.01, "Seeked signals: \(monitor.positions)")
        // Once settled, what playerctl reads is what the player plays. (The engine can lose a seek, about once in
        // ten runs here, and then plays on from the old position: a Player bug, reported; the desktop then gets a
        // Seeked to where the player really is.)
        try await Task.sleep(for: .milliseconds(1200))
        let position = try #require(Double(try await playerctl(name, "position")))
        #expect(
            abs(position - player.currentTime().seconds) < 0.3, "playerctl \(position), player \(player.currentTime())")
        // The app seeks: Seeked too.
        let before = monitor.positions.count
        await player.seek(to: MediaTime(seconds: 5, preferredTimescale: 600))
        #expect(
            await eventually { monitor.positions.dropFirst(before).contains { abs($0 - 5) < 0.3 } },
            "Seeked: \(monitor.positions)")
        // 3 s back from the remote (Seek with a negative offset), from where the desktop sees the player.
        try await Task.sleep(for: .milliseconds(600))
        let from = try #require(Double(try await playerctl(name, "position")))
        _ = try await playerctl(name, "position", "3-")
        #expect(await eventually { targets.count == 3 }, "seeks asked: \(targets)")
        #expect(abs((targets.last ?? 0) - (from - 3)) < 0.3, "3 s back from \(from) asked \(targets)")
        // The remote pauses the player.
        _ = try await playerctl(name, "play-pause")
        #expect(await eventually { player.timeControlStatus == .paused })
        #expect(try await playerctl(name, "status") == "Paused")
        // The remote sets the player's volume, and reads it back.
        _ = try await playerctl(name, "volume", "0.5")
        #expect(await eventually { player.volume == 0.5 }, "player volume \(player.volume)")
        #expect(try await playerctl(name, "volume") == "0.500000")
        // Stop: stopped at the start; play goes on from there.
        _ = try await playerctl(name, "stop")
        #expect(try await playerctl(name, "status") == "Stopped")
        // (The player is asked to seek to 0; while paused the engine sometimes loses that seek: reported.)
        #expect(await eventually { targets.last == 0 }, "seeks asked: \(targets)")
        _ = try await playerctl(name, "play")
        #expect(try await eventually { try await playerctl(name, "status") == "Playing" })
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
