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
        #expect(try await run("playerctl", ["-l"]).stdout.split(separator: "\n").contains { $0 == name })
        #expect(try await playerctl(name, "metadata", "--format", "{{title}}|{{artist}}") == "Now Title|Now Artist")
        #expect(try await playerctl(name, "status") == "Paused")

        let monitor = try await SeekedMonitor()
        defer { monitor.stop() }
        // The app plays: the desktop follows without app code, and sees no Seeked while it plays.
        player.play()
        #expect(try await eventually { try await playerctl(name, "status") == "Playing" })
        try await Task.sleep(for: .milliseconds(800))
        #expect(monitor.positions == [], "Seeked during normal playback")
        // The remote seeks the player, and reads the new position; one Seeked.
        _ = try await playerctl(name, "position", "10")
        #expect(await eventually { (10..<11).contains(player.currentTime().seconds) }, "at \(player.currentTime())")
        let position = try #require(Double(try await playerctl(name, "position")))
        #expect((10..<11.5).contains(position), "playerctl position printed \(position)")
        #expect(monitor.positions.count == 1 && abs((monitor.positions.first ?? 0) - 10) < 0.2, "\(monitor.positions)")
        // The app seeks: Seeked too.
        await player.seek(to: MediaTime(seconds: 5, preferredTimescale: 600))
        #expect(await eventually { monitor.positions.count == 2 }, "Seeked after the app's seek: \(monitor.positions)")
        #expect(abs((monitor.positions.last ?? 0) - 5) < 0.3, "\(monitor.positions)")
        // 3 s back from the remote (Seek with a negative offset).
        _ = try await playerctl(name, "position", "3-")
        #expect(await eventually { (2..<3.5).contains(player.currentTime().seconds) }, "at \(player.currentTime())")
        // The remote pauses the player.
        _ = try await playerctl(name, "play-pause")
        #expect(await eventually { player.timeControlStatus == .paused })
        #expect(try await playerctl(name, "status") == "Paused")
        #expect(monitor.positions.count == 3, "Seeked signals: \(monitor.positions)")
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
}
