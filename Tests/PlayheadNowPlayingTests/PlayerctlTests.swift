import Foundation
import Playhead
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

/// What `playerctl`, a real MPRIS client, sees of and does to an app using `NowPlayingInfoCenter` and
/// `RemoteCommandCenter`. One center per process: the suite runs serially.
@Suite(.serialized)
@MainActor
struct PlayerctlTests {
    @Test func listedWithTagsLengthAndArtwork() async throws {
        let (center, player) = try freshCenter()
        let file = try taggedFile()
        let published = try await info(from: file)
        center.info = published
        // playerctl shows the metadata of players that can play.
        center.remoteCommandCenter.playCommand.addTarget { _ in .success }
        let list = try await run("playerctl", ["-l"]).stdout.split(separator: "\n").map(String.init)
        #expect(list.contains(player), "playerctl -l printed \(list)")
        #expect(player.hasPrefix("playhead"))

        let format = "{{title}}|{{artist}}|{{album}}|{{mpris:length}}|{{mpris:artUrl}}|{{xesam:url}}"
        let fields = try await playerctl(player, "metadata", "--format", format).components(separatedBy: "|")
        try #require(fields.count == 6, "playerctl metadata printed \(fields)")
        #expect(fields[0] == "Now Title")
        #expect(fields[1] == "Now Artist")
        #expect(fields[2] == "Now Album")
        let length = try #require(Double(fields[3]), "mpris:length \(fields[3])")
        #expect(abs(length / 1e6 - (published.playbackDuration ?? 0)) < 0.001)
        #expect(fields[5] == file.absoluteString)
        // The cover is a file holding exactly the embedded picture, under XDG_CACHE_HOME.
        let art = try #require(URL(string: fields[4]), "mpris:artUrl \(fields[4])")
        #expect(art.isFileURL)
        if let cache = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] {
            #expect(art.path.hasPrefix(cache), "\(art.path) is not under \(cache)")
        }
        #expect(Array(try Data(contentsOf: art)) == published.artwork?.data)
    }

    @Test func statusFollowsPublishedState() async throws {
        let (center, player) = try freshCenter()
        #expect(try await playerctl(player, "status") == "Stopped")
        var info = NowPlayingInfo()
        info.title = "Status"
        info.playbackDuration = 60
        info.elapsedPlaybackTime = 1
        info.playbackRate = 1
        center.info = info
        #expect(try await playerctl(player, "status") == "Playing")
        info.playbackRate = 0
        center.info = info
        #expect(try await playerctl(player, "status") == "Paused")
        center.playbackState = .stopped
        #expect(try await playerctl(player, "status") == "Stopped")
    }

    @Test func playPauseReachesTheHandlerAndTheStatusFollows() async throws {
        let (center, player) = try freshCenter()
        var info = NowPlayingInfo()
        info.title = "Toggle"
        info.playbackDuration = 60
        info.elapsedPlaybackTime = 0
        info.playbackRate = 0
        center.info = info
        var calls = 0
        center.remoteCommandCenter.togglePlayPauseCommand.addTarget { _ in
            calls += 1
            let playing = (center.info?.playbackRate ?? 0) > 0
            center.info?.playbackRate = playing ? 0 : 1
            return .success
        }
        _ = try await playerctl(player, "play-pause")
        #expect(calls == 1)
        #expect(try await playerctl(player, "status") == "Playing")
        _ = try await playerctl(player, "play-pause")
        #expect(calls == 2)
        #expect(try await playerctl(player, "status") == "Paused")
    }

    @Test func positionCommandSeeksAndPositionIsExtrapolated() async throws {
        let (center, player) = try freshCenter()
        var info = NowPlayingInfo()
        info.title = "Seek"
        info.playbackDuration = 60
        info.elapsedPlaybackTime = 1
        info.playbackRate = 1
        center.info = info
        var asked: [Double] = []
        center.remoteCommandCenter.changePlaybackPositionCommand.addTarget { event in
            asked.append(event.positionTime ?? -1)
            center.info?.elapsedPlaybackTime = event.positionTime
            return .success
        }
        // Playing at rate 1 from 1 s: the position read later has moved on, with no republishing.
        try await Task.sleep(for: .milliseconds(600))
        let moving = try #require(Double(try await playerctl(player, "position")))
        #expect(moving > 1.4 && moving < 3, "position \(moving)")

        _ = try await playerctl(player, "position", "30")
        #expect(asked.count == 1 && abs(asked[0] - 30) < 0.001, "handler got \(asked)")
        let after = try #require(Double(try await playerctl(player, "position")))
        #expect(after >= 30 && after < 31.5, "position after 'position 30': \(after)")

        _ = try await playerctl(player, "position", "5+")
        #expect(asked.count == 2 && abs((asked.last ?? 0) - after - 5) < 1, "handler got \(asked)")
    }

    @Test func metadataIsHiddenFromPlayerctlUntilTheAppCanPlay() async throws {
        let (center, player) = try freshCenter()
        var info = NowPlayingInfo()
        info.title = "Not yet"
        center.info = info
        await #expect(throws: (any Error).self) { try await playerctl(player, "metadata", "title") }
        let play = center.remoteCommandCenter.playCommand
        play.addTarget { _ in .success }
        #expect(try await playerctl(player, "metadata", "title") == "Not yet")
        play.isEnabled = false
        await #expect(throws: (any Error).self) { try await playerctl(player, "metadata", "title") }
    }

    @Test func failingHandlerIsAnErrorReply() async throws {
        let (center, player) = try freshCenter()
        var info = NowPlayingInfo()
        info.title = "Fail"
        center.info = info
        center.remoteCommandCenter.playCommand.addTarget { _ in .commandFailed }
        let name = "org.mpris.MediaPlayer2.\(player)"
        let r = try await run(
            "dbus-send",
            [
                "--session", "--print-reply", "--dest=\(name)", "/org/mpris/MediaPlayer2",
                "org.mpris.MediaPlayer2.Player.Play",
            ])
        #expect(r.status != 0)
        #expect(r.stderr.contains("CommandFailed"), "dbus-send printed \(r.stderr)")
        // The player still answers.
        #expect(try await playerctl(player, "status") == "Paused")
    }

    @Test func canPropertiesFollowCommands() async throws {
        let (center, player) = try freshCenter()
        var info = NowPlayingInfo()
        info.title = "Can"
        info.playbackDuration = 60
        center.info = info
        let name = "org.mpris.MediaPlayer2.\(player)"
        func can(_ property: String) async throws -> String {
            let r = try await run(
                "busctl",
                ["--user", "get-property", name, "/org/mpris/MediaPlayer2", "org.mpris.MediaPlayer2.Player", property])
            return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(try await can("CanSeek") == "b false", "no position handler yet")
        let seek = center.remoteCommandCenter.changePlaybackPositionCommand
        seek.addTarget { _ in .success }
        #expect(try await can("CanSeek") == "b true")
        seek.isEnabled = false
        #expect(try await can("CanSeek") == "b false")
        seek.isEnabled = true
        center.info?.isLiveStream = true
        #expect(try await can("CanSeek") == "b false", "a live item cannot seek")
        center.remoteCommandCenter.nextTrackCommand.addTarget { _ in .success }
        #expect(try await can("CanGoNext") == "b true")
        center.remoteCommandCenter.nextTrackCommand.removeTarget(nil)
        #expect(try await can("CanGoNext") == "b false")
    }
}
