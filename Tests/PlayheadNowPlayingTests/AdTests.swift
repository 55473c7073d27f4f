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
}
