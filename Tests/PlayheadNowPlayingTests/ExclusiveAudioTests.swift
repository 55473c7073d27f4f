import Foundation
import PlayheadAudio
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

/// Rule 16: activating a non-mixable category pauses the other MPRIS players that play (`MPRISOtherPlayers`), and
/// only `setActive(false, options: .notifyOthersOnDeactivation)` resumes them; a plain `setActive(false)` leaves
/// them paused.
@MainActor @Suite(.serialized) struct ExclusiveAudioTests {
    /// Another `playhead` playing a 30 s tone on the null output, and its MPRIS player name for playerctl.
    func otherPlayer() async throws -> (Process, String) {
        try requireSessionBus()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = ["--ao=null", "--vo=null", try Fixtures.tone(seconds: 30).path]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        p.standardInput = FileHandle.nullDevice
        try Run.start(p)
        // "playhead" when this test process has not taken that name itself (its own center never plays here).
        let names = ["playhead.instance\(p.processIdentifier)", "playhead"]
        for _ in 0..<100 {
            let listed = try await run("playerctl", ["-l"]).stdout.split(separator: "\n").map(String.init)
            for name in names where listed.contains(name) {
                if try await playerctl(name, "status") == "Playing" { return (p, name) }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        Run.kill(p)
        throw TestSupportError("the other playhead did not show up playing on the bus")
    }

    @Test func othersResumeOnlyWhenDeactivationNotifiesThem() async throws {
        let session = AudioSession.shared
        try session.setActive(false)  // a player of an earlier test activated it (`play()` does, as AVPlayer's)
        session.otherApplications = MPRISOtherPlayers()
        defer { session.otherApplications = nil }
        try session.setCategory(.playback)
        defer { try? session.setCategory(.soloAmbient) }
        let (other, name) = try await otherPlayer()
        defer { Run.kill(other) }

        // Without the option: paused on activation, still paused after deactivation.
        try session.setActive(true)
        #expect(try await eventually { try await playerctl(name, "status") == "Paused" }, "activation did not pause")
        try session.setActive(false)
        try await Task.sleep(for: .seconds(1))
        #expect(try await playerctl(name, "status") == "Paused", "a plain setActive(false) resumed the other")

        // With it: resumed.
        _ = try await playerctl(name, "play")
        #expect(try await eventually { try await playerctl(name, "status") == "Playing" })
        try session.setActive(true)
        #expect(try await eventually { try await playerctl(name, "status") == "Paused" }, "activation did not pause")
        try session.setActive(false, options: .notifyOthersOnDeactivation)
        #expect(
            try await eventually { try await playerctl(name, "status") == "Playing" },
            "setActive(false, options: .notifyOthersOnDeactivation) did not resume the other")
    }
}
