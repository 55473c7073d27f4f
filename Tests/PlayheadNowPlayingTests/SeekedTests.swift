import Foundation
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

/// Records signals on the session bus with `dbus-monitor`: `Seeked` by default. Safe from any thread.
final class SeekedMonitor: Sendable {
    private let process: Process
    private let output: URL

    init(match: String = "type='signal',interface='org.mpris.MediaPlayer2.Player',member='Seeked'") async throws {
        try requireSessionBus()
        output = Paths.scratch("seeked").appendingPathComponent("monitor.txt")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        process = Process()
        process.executableURL = URL(fileURLWithPath: try Run.which("dbus-monitor"))
        process.arguments = ["--session", match]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try Run.start(process)
        // dbus-monitor prints the bus's NameAcquired signal once its match rules are in place.
        let deadline = Date().addingTimeInterval(5)
        while (try? Data(contentsOf: output))?.isEmpty ?? true {
            guard Date() < deadline else { throw TestSupportError("dbus-monitor printed nothing within 5 s") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Everything dbus-monitor printed so far.
    var text: String { (try? String(contentsOf: output, encoding: .utf8)) ?? "" }

    /// The positions (seconds) of the `Seeked` signals seen so far.
    var positions: [Double] {
        var result: [Double] = []
        var inSeeked = false
        for line in text.split(separator: "\n") {
            if line.hasPrefix("signal ") {
                inSeeked = line.contains("member=Seeked")
            } else if inSeeked {
                let words = line.split(separator: " ")
                if words.count == 2, words[0] == "int64", let v = Double(words[1]) { result.append(v / 1e6) }
            }
        }
        return result
    }

    func stop() { Run.kill(process) }
}

extension PlayerctlTests {
    /// `Seeked` after every jump, from the app and from the remote, and none during normal playback.
    @Test func seekedOnJumpsOnly() async throws {
        let (center, player) = try freshCenter()
        let monitor = try await SeekedMonitor()
        defer { monitor.stop() }
        var info = NowPlayingInfo()
        info.title = "Seeked"
        info.playbackDuration = 120
        info.elapsedPlaybackTime = 2
        info.playbackRate = 1
        center.info = info
        center.remoteCommandCenter.changePlaybackPositionCommand.addTarget { event in
            center.info?.elapsedPlaybackTime = event.positionTime
            return .success
        }
        // Normal playback, republished as an app would (periodically, with the elapsed time it reads): no Seeked.
        let start = Date()
        for _ in 0..<5 {
            try await Task.sleep(for: .milliseconds(200))
            center.info?.elapsedPlaybackTime = 2 + Date().timeIntervalSince(start)
        }
        // The app seeks.
        center.info?.elapsedPlaybackTime = 20
        #expect(await eventually { monitor.positions.count == 1 }, "Seeked after the app's seek: \(monitor.positions)")
        // The remote seeks.
        _ = try await playerctl(player, "position", "40")
        #expect(await eventually { monitor.positions.count == 2 }, "Seeked after the remote's: \(monitor.positions)")
        // Pausing is not a seek.
        center.info?.playbackRate = 0
        try await Task.sleep(for: .milliseconds(300))
        let seen = monitor.positions
        #expect(seen.count == 2, "Seeked signals: \(seen)")
        if seen.count == 2 {
            #expect(abs(seen[0] - 20) < 0.1 && abs(seen[1] - 40) < 0.1, "Seeked positions \(seen)")
        }
    }

    /// Changing a command or the playback state without republishing keeps the position where it was heading.
    @Test func noSeekedWhenOnlyCommandsOrStateChange() async throws {
        let (center, player) = try freshCenter()
        let monitor = try await SeekedMonitor()
        defer { monitor.stop() }
        var info = NowPlayingInfo()
        info.title = "Steady"
        info.playbackDuration = 120
        info.elapsedPlaybackTime = 1
        info.playbackRate = 1
        center.info = info
        try await Task.sleep(for: .milliseconds(600))
        center.remoteCommandCenter.playCommand.addTarget { _ in .success }
        center.remoteCommandCenter.nextTrackCommand.isEnabled = false
        center.playbackState = .paused
        let position = try #require(Double(try await playerctl(player, "position")))
        #expect(position > 1.5 && position < 2.2, "position after 0.6 s from 1 s: \(position)")
        try await Task.sleep(for: .milliseconds(300))
        #expect(abs((Double(try await playerctl(player, "position")) ?? 0) - position) < 0.01, "paused: it stays")
        #expect(monitor.positions == [], "Seeked: \(monitor.positions)")
    }
}
