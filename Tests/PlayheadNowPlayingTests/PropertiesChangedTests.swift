import Foundation
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

extension PlayerctlTests {
    /// PropertiesChanged carries each change a desktop must follow, without polling.
    @Test func propertiesChangedFollowsTheApp() async throws {
        let (center, _) = try freshCenter()
        let monitor = try await SeekedMonitor(
            match: "type='signal',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',"
                + "path='/org/mpris/MediaPlayer2'")
        defer { monitor.stop() }
        func changes() -> Int { monitor.text.components(separatedBy: "member=PropertiesChanged").count - 1 }

        var info = NowPlayingInfo()
        info.title = "Changes"
        info.playbackDuration = 30
        info.elapsedPlaybackTime = 0
        info.playbackRate = 1
        center.info = info
        #expect(await eventually { monitor.text.contains("string \"Playing\"") }, "PlaybackStatus Playing")
        #expect(monitor.text.contains("string \"Changes\""), "the new Metadata")

        // Republishing the same state (only the elapsed time advanced as extrapolated) sends nothing.
        let quiet = changes()
        center.info?.elapsedPlaybackTime = 0.05
        try await Task.sleep(for: .milliseconds(200))
        #expect(changes() == quiet, "PropertiesChanged without a change:\n\(monitor.text)")

        center.info?.playbackRate = 0
        #expect(await eventually { monitor.text.contains("string \"Paused\"") }, "PlaybackStatus Paused")

        // Enabling a command changes its Can* property.
        let before = changes()
        center.remoteCommandCenter.changePlaybackPositionCommand.addTarget { _ in .success }
        #expect(await eventually { changes() > before })
        #expect(monitor.text.contains("string \"CanSeek\""), "CanSeek in PropertiesChanged")
    }
}
