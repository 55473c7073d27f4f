import Foundation
import Playhead
import PlayheadAudio
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

extension PlayerctlTests {
    /// An app that requires linear playback (`Player.requiresLinearPlayback`, which a window's
    /// `requiresLinearPlayback` sets): the desktop sees `CanSeek` false and its seeks and skips have no effect; once
    /// cleared, the desktop seeks again.
    @Test func aPlayerThatRequiresLinearPlaybackRefusesTheDesktopsSeeks() async throws {
        let p = try await PulseSession()
        defer { p.close() }
        let (player, session, name) = (p.player, p.session, p.name)
        let bus = "org.mpris.MediaPlayer2.\(name)"
        player.play()
        #expect(try await eventually { try await playerctl(name, "status") == "Playing" })
        #expect(try await property(bus, "CanSeek") == "b true")

        player.requiresLinearPlayback = true
        #expect(try await eventually { try await property(bus, "CanSeek") == "b false" })
        // Without `CanSeek`, `Seek` and `SetPosition` have no effect (the MPRIS specification).
        _ = try await dbusSend(bus, "Player.Seek", "int64:10000000")
        let track = try await playerctl(name, "metadata", "mpris:trackid").trimmingCharacters(in: ["'"])
        _ = try await dbusSend(bus, "Player.SetPosition", "objpath:\(track)", "int64:12000000")
        var skip = RemoteCommandEvent(command: session.remoteCommandCenter.skipForwardCommand)
        skip.interval = 10
        #expect(session.remoteCommandCenter.skipForwardCommand.perform(skip) == .commandFailed)
        try await Task.sleep(for: .milliseconds(500))
        #expect(player.currentTime().seconds < 3, "the desktop moved a linear player: \(player.currentTime())")

        player.requiresLinearPlayback = false
        #expect(try await eventually { try await property(bus, "CanSeek") == "b true" })
        _ = try await dbusSend(bus, "Player.SetPosition", "objpath:\(track)", "int64:12000000")
        #expect(await eventually { player.currentTime().seconds > 11.5 }, "not seeked: \(player.currentTime())")
    }
}
