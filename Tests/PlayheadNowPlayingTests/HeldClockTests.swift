import Foundation
import Playhead
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

extension PlayerctlTests {
    /// The player's clock waits until the sound is heard: on a suspended sink (a device waking from
    /// suspend-on-idle, a Bluetooth headset connecting; a null sink waking from idle took 1.4 s), for 1.2 s here.
    /// The desktop's `Position` waits with it and then runs with it, never ahead. (It ran on from 0 at the rate
    /// while the clock held and jumped back once the clock moved: the session did not republish an elapsed time
    /// that had not changed.)
    @Test func thePositionWaitsWithAClockThatHolds() async throws {
        let p = try await PulseSession()
        defer { p.close() }
        let (sink, player, name) = (p.sink, p.player, p.name)
        _ = try Run.command("pactl", ["suspend-sink", sink.name, "1"], timeout: 5)
        player.play()
        Task.detached {
            try? await Task.sleep(for: .milliseconds(1200))
            _ = try? Run.command("pactl", ["suspend-sink", sink.name, "0"], timeout: 5)
        }
        var readings: [(clock: Double, position: Double)] = []
        let end = MonotonicClock.now() + 2.5
        while MonotonicClock.now() < end {
            let position = try #require(Double(try await playerctl(name, "position")))
            readings.append((player.currentTime().seconds, position))
            try await Task.sleep(for: .milliseconds(50))
        }
        // A reading is at most a poll (0.25 s) of extrapolation ahead of the clock read just after it.
        let ahead = readings.filter { $0.position > $0.clock + 0.3 }
        #expect(ahead.isEmpty, "ahead of the clock: \(ahead)")
        #expect((readings.last?.clock ?? 0) > 1, "the clock did not run: \(readings)")
    }
}
