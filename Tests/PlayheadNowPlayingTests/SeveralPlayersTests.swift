import Foundation
import Playhead
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

/// A second player on a 20 s tone (silent real-time output), ready: Picture in Picture's player.
@MainActor
private func pipPlayer() async throws -> (Player, URL) {
    let url = try Fixtures.tone(seconds: 20)
    let player = Player()
    player.audioOutputChoice = .null(untimed: false)
    player.replaceCurrentItem(with: PlayerItem(url: url))
    #expect(await eventually { player.currentItem?.status == .readyToPlay }, "the tone did not load")
    return (player, url)
}

/// Rule 27: a session of several players publishes the one that plays; a session for Picture in Picture and one
/// for the main view take turns on the bus.
extension PlayerctlTests {
    @Test func aSessionOfTwoPlayersPublishesTheOneThatPlays() async throws {
        _ = try freshCenter()
        let main = try await taggedPlayer()
        let (pip, tone) = try await pipPlayer()
        defer {
            main.close()
            pip.close()
        }
        let session = NowPlayingSession(players: [main, pip])
        defer { session.invalidate() }
        session.automaticallyPublishesNowPlayingInfo = true
        #expect(await session.becomeActiveIfPossible())
        let name = try name(of: session)
        func shown() async throws -> String {
            try await playerctl(name, "metadata", "--format", "{{title}}|{{status}}")
        }
        /// What the desktop shows once it shows `expected`, or after 5 s.
        func shown(becoming expected: String) async throws -> String {
            var last = ""
            _ = try await eventually {
                last = try await shown()
                return last == expected
            }
            return last
        }
        let mainPaused = "Now Title|Paused"
        let mainPlaying = "Now Title|Playing"
        let pipPaused = "\(tone.lastPathComponent)|Paused"
        let pipPlaying = "\(tone.lastPathComponent)|Playing"
        // Neither plays: the first player.
        #expect(try await shown() == mainPaused)
        // Picture in Picture plays: the desktop shows it, and its commands reach it only.
        pip.play()
        #expect(try await shown(becoming: pipPlaying) == pipPlaying)
        _ = try await playerctl(name, "pause")
        #expect(await eventually { pip.timeControlStatus == .paused }, "the remote did not pause the playing player")
        // Neither plays again: the session stays with the one it showed last.
        #expect(try await shown(becoming: pipPaused) == pipPaused)
        try await Task.sleep(for: .milliseconds(500))
        #expect(try await shown() == pipPaused, "pausing switched the desktop to the other player")
        #expect(main.timeControlStatus == .paused, "the remote's pause reached the other player")
        // The main player plays: shown.
        main.play()
        #expect(try await shown(becoming: mainPlaying) == mainPlaying)
        // Both play: the first of `players`.
        pip.play()
        #expect(await eventually { pip.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(500))
        #expect(try await shown() == mainPlaying, "with both playing the desktop shows the second")
        // The main one pauses: the one still playing is shown, its position with it.
        main.pause()
        #expect(try await shown(becoming: pipPlaying) == pipPlaying)
        let position = try #require(Double(try await playerctl(name, "position")))
        #expect(abs(position - pip.currentTime().seconds) < 0.3, "playerctl \(position), PiP \(pip.currentTime())")
        _ = try await playerctl(name, "pause")
        #expect(await eventually { pip.timeControlStatus == .paused })
        #expect(main.timeControlStatus == .paused)
    }

    @Test func thePictureInPictureSessionAndTheMainOneTakeTurns() async throws {
        _ = try freshCenter()
        let main = try await taggedPlayer()
        let (pip, tone) = try await pipPlayer()
        defer {
            main.close()
            pip.close()
        }
        let mainSession = NowPlayingSession(players: [main])
        let pipSession = NowPlayingSession(players: [pip])
        defer {
            mainSession.invalidate()
            pipSession.invalidate()
        }
        mainSession.automaticallyPublishesNowPlayingInfo = true
        pipSession.automaticallyPublishesNowPlayingInfo = true
        func listed() async throws -> [String] {
            try await run("playerctl", ["-l"]).stdout.split(separator: "\n").map(String.init).filter {
                $0.hasPrefix("playhead.")
            }
        }
        // The main view plays.
        #expect(await mainSession.becomeActiveIfPossible())
        main.play()
        let mainName = try name(of: mainSession)
        #expect(try await eventually { try await playerctl(mainName, "status") == "Playing" })
        #expect(try await playerctl(mainName, "metadata", "title") == "Now Title")
        // Picture in Picture takes over: the app moves playback to its player and activates its session.
        main.pause()
        pip.play()
        #expect(await pipSession.becomeActiveIfPossible())
        #expect(pipSession.isActive && !mainSession.isActive)
        let pipName = try name(of: pipSession)
        let listedInPiP = try await listed()
        #expect(listedInPiP == [pipName], "playerctl -l printed \(listedInPiP)")
        #expect(try await eventually { try await playerctl(pipName, "status") == "Playing" })
        let url = try await playerctl(pipName, "metadata", "xesam:url")
        #expect(url.hasSuffix(tone.lastPathComponent), "the desktop shows \(url)")
        // The remote reaches Picture in Picture's player only.
        _ = try await playerctl(pipName, "pause")
        #expect(await eventually { pip.timeControlStatus == .paused })
        _ = try await playerctl(pipName, "play")
        #expect(await eventually { pip.timeControlStatus == .playing })
        #expect(main.timeControlStatus == .paused, "the main player moved with the PiP session active")
        // Back to the main view: its session takes over again, showing where the main player stands.
        pip.pause()
        main.play()
        #expect(await mainSession.becomeActiveIfPossible())
        #expect(mainSession.isActive && !pipSession.isActive)
        let again = try name(of: mainSession)
        let listedBack = try await listed()
        #expect(listedBack == [again], "playerctl -l printed \(listedBack)")
        #expect(try await eventually { try await playerctl(again, "status") == "Playing" })
        #expect(try await playerctl(again, "metadata", "title") == "Now Title")
        let position = try #require(Double(try await playerctl(again, "position")))
        #expect(abs(position - main.currentTime().seconds) < 0.3, "playerctl \(position), main \(main.currentTime())")
        _ = try await playerctl(again, "pause")
        #expect(await eventually { main.timeControlStatus == .paused })
        #expect(pip.timeControlStatus == .paused)
    }
}
