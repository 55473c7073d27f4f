import Foundation
import Playhead
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

extension PlayerctlTests {
    @Test func nextAndPreviousReachTheirHandlersWhileEnabled() async throws {
        let (center, player) = try freshCenter()
        var info = NowPlayingInfo()
        info.title = "Tracks"
        center.info = info
        let c = center.remoteCommandCenter
        c.playCommand.addTarget { _ in .success }
        var calls: [String] = []
        c.nextTrackCommand.addTarget { _ in
            calls.append("next")
            return .success
        }
        c.previousTrackCommand.addTarget { _ in
            calls.append("previous")
            return .success
        }
        _ = try await playerctl(player, "next")
        _ = try await playerctl(player, "previous")
        #expect(calls == ["next", "previous"])
        // Disabled: CanGoNext/CanGoPrevious false, and the calls are the spec's no-op.
        c.nextTrackCommand.isEnabled = false
        c.previousTrackCommand.isEnabled = false
        let bus = "org.mpris.MediaPlayer2.\(player)"
        #expect(try await property(bus, "CanGoNext") == "b false")
        #expect(try await property(bus, "CanGoPrevious") == "b false")
        #expect(try await dbusSend(bus, "Player.Next").status == 0)
        #expect(try await dbusSend(bus, "Player.Previous").status == 0)
        #expect(calls == ["next", "previous"])
    }

    /// Every failure a handler returns reaches the D-Bus caller as its own error.
    @Test func everyHandlerFailureIsAnErrorReply() async throws {
        let (center, player) = try freshCenter()
        var info = NowPlayingInfo()
        info.title = "Failures"
        center.info = info
        let bus = "org.mpris.MediaPlayer2.\(player)"
        let c = center.remoteCommandCenter
        c.playCommand.addTarget { _ in .noSuchContent }
        c.pauseCommand.addTarget { _ in .noActionableNowPlayingItem }
        c.nextTrackCommand.addTarget { _ in .commandFailed }
        c.previousTrackCommand.addTarget { _ in .success }
        for (member, error) in [
            ("Play", "NoSuchContent"), ("Pause", "NoActionableNowPlayingItem"), ("Next", "CommandFailed"),
        ] {
            let r = try await dbusSend(bus, "Player.\(member)")
            #expect(r.status != 0 && r.stderr.contains(error), "\(member): \(r.stderr)")
        }
        #expect(try await dbusSend(bus, "Player.Previous").status == 0)
        // Removing the failing target leaves the command without handlers: hidden, and a no-op.
        c.nextTrackCommand.removeTarget(nil)
        #expect(try await property(bus, "CanGoNext") == "b false")
        #expect(try await dbusSend(bus, "Player.Next").status == 0)
    }

    /// Without a position command, `Seek` is a skip by the offset; the session's skip handlers move its player.
    @Test func seekWithoutAPositionCommandSkips() async throws {
        _ = try freshCenter()
        let (player, session, name) = try await activeSession(PlayerItem(url: try taggedFile()))
        defer {
            session.invalidate()
            player.close()
        }
        let c = session.remoteCommandCenter
        c.changePlaybackPositionCommand.isEnabled = false
        #expect(c.skipForwardCommand.preferredIntervals == [15])
        var targets: [Double] = []
        let events = player.events()
        let recorder = Task {
            for await e in events { if case .seekStarted(let target) = e.kind { targets.append(target) } }
        }
        defer { recorder.cancel() }
        let bus = "org.mpris.MediaPlayer2.\(name)"
        #expect(try await property(bus, "CanSeek") == "b true")
        _ = try await playerctl(name, "position", "15+")
        #expect(await eventually { targets.count == 1 }, "seeks: \(targets)")
        #expect(abs((targets.first ?? 0) - 15) < 0.2, "15 s forward from 0: \(targets)")
        _ = try await playerctl(name, "position", "4-")
        #expect(await eventually { targets.count == 2 }, "seeks: \(targets)")
        #expect(abs((targets.last ?? 0) - 11) < 0.3, "4 s back from 15: \(targets)")
        // Skipping disabled too: nothing can seek.
        c.skipForwardCommand.isEnabled = false
        c.skipBackwardCommand.isEnabled = false
        #expect(try await property(bus, "CanSeek") == "b false")
        await #expect(throws: (any Error).self, "playerctl refuses a player that cannot seek") {
            try await playerctl(name, "position", "3+")
        }
        #expect(try await dbusSend(bus, "Player.Seek", "int64:3000000").status == 0, "the spec's no-op")
        #expect(try await playerctl(name, "status") == "Paused")
        #expect(targets.count == 2, "seeks: \(targets)")
    }

    /// Rule 24: MPRIS has no skip interval. A desktop `Seek` carries its own offset, and that offset is the skip
    /// command's `interval` whatever `preferredIntervals` says (which the desktop never sees).
    @Test func aDesktopSeekSkipsByItsOwnOffsetNotByPreferredIntervals() async throws {
        _ = try freshCenter()
        let (player, session, name) = try await activeSession(PlayerItem(url: try taggedFile()))
        defer {
            session.invalidate()
            player.close()
        }
        let c = session.remoteCommandCenter
        c.changePlaybackPositionCommand.isEnabled = false
        c.skipForwardCommand.preferredIntervals = [30]
        c.skipBackwardCommand.preferredIntervals = [10]
        var intervals: [Double?] = []
        c.skipForwardCommand.removeTarget(nil)
        c.skipForwardCommand.addTarget { event in
            intervals.append(event.interval)
            return .success
        }
        c.skipBackwardCommand.removeTarget(nil)
        c.skipBackwardCommand.addTarget { event in
            intervals.append(event.interval.map { -$0 })
            return .success
        }
        _ = try await playerctl(name, "position", "5+")
        _ = try await playerctl(name, "position", "7-")
        #expect(await eventually { intervals.count == 2 }, "\(intervals)")
        #expect(intervals == [5, -7], "the desktop's offsets, not 30 and 10: \(intervals)")
    }
}
