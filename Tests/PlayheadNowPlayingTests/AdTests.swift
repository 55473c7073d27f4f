import Foundation
import Playhead
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

/// An ad from `start` to `end` seconds on the item's time line.
func ad(_ start: Double, _ end: Double) -> AdTimeRange {
    AdTimeRange(
        timeRange: TimeRange(
            start: MediaTime(seconds: start, preferredTimescale: 600),
            end: MediaTime(seconds: end, preferredTimescale: 600)))
}

extension PlayerctlTests {
    /// The desktop sees the item without its ads; seeking is refused with an error reply while one plays.
    @Test func adsAreLeftOutAndNotSeekableWhilePlaying() async throws {
        let (center, player) = try freshCenter()
        let bus = "org.mpris.MediaPlayer2.\(player)"
        let monitor = try await SeekedMonitor()
        defer { monitor.stop() }
        var info = NowPlayingInfo()
        info.title = "Ads"
        info.playbackDuration = 100
        info.elapsedPlaybackTime = 30
        info.playbackRate = 0
        info.adTimeRanges = [ad(50, 65), ad(0, 10)]
        center.info = info
        let c = center.remoteCommandCenter
        c.playCommand.addTarget { _ in .success }
        var asked: [Double] = []
        c.changePlaybackPositionCommand.addTarget { event in
            asked.append(event.positionTime ?? -1)
            center.info?.elapsedPlaybackTime = event.positionTime
            return .success
        }
        // 100 s with 25 s of ads: 75 s; 30 s into the item, after the 10 s pre-roll: 20 s.
        #expect(try await playerctl(player, "metadata", "mpris:length") == "75000000")
        #expect(try await playerctl(player, "position") == "20.000000")
        // A position asked by the remote is on the desktop's time line: 45 s is 70 s into the item.
        _ = try await playerctl(player, "position", "45")
        #expect(asked == [70], "the app was asked for \(asked)")
        #expect(try await playerctl(player, "position") == "45.000000")
        #expect(await eventually { monitor.positions == [45] }, "Seeked: \(monitor.positions)")

        // The app goes back into the second ad (55 s into the item): the desktop sees 40 s (a jump: Seeked), cannot
        // seek, and seeks get error replies.
        center.info?.elapsedPlaybackTime = 55
        #expect(await eventually { monitor.positions == [45, 40] }, "Seeked: \(monitor.positions)")
        #expect(try await playerctl(player, "position") == "40.000000")
        #expect(try await property(bus, "CanSeek") == "b false")
        let seek = try await dbusSend(bus, "Player.Seek", "int64:5000000")
        #expect(seek.status != 0 && seek.stderr.contains("ad"), "Seek in an ad: \(seek.stderr)")
        let track = try await playerctl(player, "metadata", "mpris:trackid").trimmingCharacters(in: ["'"])
        let set = try await dbusSend(bus, "Player.SetPosition", "objpath:\(track)", "int64:1000000")
        #expect(set.status != 0, "SetPosition in an ad: \(set.stderr)")
        #expect(asked == [70], "the app was asked for \(asked)")
        #expect(try await playerctl(player, "status") == "Paused")

        // Playing to the ad's end: the desktop may seek again with no republishing, and sees no Seeked meanwhile.
        center.info?.elapsedPlaybackTime = 64.8
        center.info?.playbackRate = 1
        #expect(try await property(bus, "CanSeek") == "b false")
        #expect(try await eventually { try await property(bus, "CanSeek") == "b true" }, "CanSeek after the ad")
        let after = try #require(Double(try await playerctl(player, "position")))
        #expect(after >= 40 && after < 41.5, "position after the ad: \(after)")
        #expect(monitor.positions == [45, 40], "Seeked: \(monitor.positions)")
    }

    /// Rule 31 with a real player: a session publishes the item's ads (`PlayerItem.interstitialTimeRanges`), so the
    /// desktop's length and position leave them out (the position stands still during an ad), and its skip
    /// commands follow the player's ad policy: refused in an ad that must be watched, landing at the start of one
    /// they would jump over.
    @Test func aSessionLeavesTheItemsAdsOutAndItsSkipsFollowTheAdPolicy() async throws {
        let item = PlayerItem(url: try Fixtures.tone(seconds: 20))
        func linear(_ start: Double, _ end: Double) -> InterstitialTimeRange {
            InterstitialTimeRange(timeRange: ad(start, end).timeRange, requiresLinearPlayback: true)
        }
        item.interstitialTimeRanges = [linear(0, 2), linear(8, 11)]
        let p = try await PulseSession(item: item)
        defer { p.close() }
        let (player, session, name) = (p.player, p.session, p.name)
        let bus = "org.mpris.MediaPlayer2.\(name)"
        let monitor = try await SeekedMonitor()
        defer { monitor.stop() }
        let commands = session.remoteCommandCenter
        func skip(_ seconds: Double) -> RemoteCommandHandlerStatus {
            var event = RemoteCommandEvent(command: commands.skipForwardCommand)
            event.interval = seconds
            return commands.skipForwardCommand.perform(event)
        }
        // 20 s with 5 s of ads: 15 s.
        #expect(try await playerctl(name, "metadata", "mpris:length") == "15000000")
        player.play()
        #expect(try await eventually { try await playerctl(name, "status") == "Playing" })
        // In the pre-roll: no seeking from the desktop, and the session's skip fails; the player stays in the ad.
        #expect(try await property(bus, "CanSeek") == "b false")
        #expect(skip(5) == .commandFailed)
        let seek = try await dbusSend(bus, "Player.Seek", "int64:5000000")
        #expect(seek.status != 0, "Seek in the pre-roll: \(seek.stdout)")
        #expect(player.currentTime().seconds < 2, "the player left the pre-roll: \(player.currentTime())")
        // After it: the desktop's position leaves it out.
        #expect(await eventually { player.currentTime().seconds > 2.5 })
        #expect(try await eventually { try await property(bus, "CanSeek") == "b true" })
        let before = try #require(Double(try await playerctl(name, "position")))
        #expect(abs(before - (player.currentTime().seconds - 2)) < 0.3, "\(before) for \(player.currentTime())")
        // The desktop skips 10 s (Seek with no position command): the player lands at the mid-roll's start, 8 s
        // into the item, which the desktop sees at 6 s; and there the position stands still.
        commands.changePlaybackPositionCommand.isEnabled = false
        _ = try await playerctl(name, "position", "10+")
        #expect(await eventually { (8..<8.5).contains(player.currentTime().seconds) }, "\(player.currentTime())")
        #expect(await eventually { monitor.positions.count == 1 }, "Seeked: \(monitor.positions)")
        #expect(abs((monitor.positions.first ?? 0) - 6) < 0.05, "Seeked: \(monitor.positions)")
        #expect(try await eventually { try await property(bus, "CanSeek") == "b false" })
        #expect(skip(15) == .commandFailed)
        try await Task.sleep(for: .seconds(1))
        let inAd = try #require(Double(try await playerctl(name, "position")))
        #expect(abs(inAd - 6) < 0.05, "the desktop's position moved to \(inAd) during the ad")
        #expect(player.currentTime().seconds > 9 && player.currentTime().seconds < 11, "\(player.currentTime())")
        // Played through: seeking again, the position moving on from 6 s.
        #expect(await eventually { player.currentTime().seconds > 11.3 })
        #expect(try await eventually { try await property(bus, "CanSeek") == "b true" })
        let after = try #require(Double(try await playerctl(name, "position")))
        #expect(
            after > 6 && abs(after - (player.currentTime().seconds - 5)) < 0.3, "\(after) for \(player.currentTime())")
        // Skipping back over the played mid-roll is free.
        var back = RemoteCommandEvent(command: commands.skipBackwardCommand)
        back.interval = 6
        #expect(commands.skipBackwardCommand.perform(back) == .success)
        #expect(await eventually { monitor.positions.count == 2 }, "Seeked: \(monitor.positions)")
        #expect(player.currentTime().seconds > 5 && player.currentTime().seconds < 7, "\(player.currentTime())")
    }
}
