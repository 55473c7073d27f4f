import Foundation
import PlayheadTestSupport
import Testing

/// While no sound server answers, nothing is heard and the player's clock stands: the desktop must see the same
/// (MPRIS `Position` stands still and `Rate` is 0), not a position that runs on and then jumps back.
@Suite(.serialized) struct ServerLossPositionTests {
    /// `playerctl position` in seconds.
    func position() throws -> Double {
        Double(try Run.command("playerctl", ["-p", "playhead", "position"], timeout: 5).stdout.trimmed) ?? -1
    }

    @Test func thePositionTheDesktopSeesStandsWhileNoServerAnswers() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let server = PrivatePulseServer()
        try server.start()
        let first = try server.record("test_sink")
        let p = try PlayheadProcess(
            ["--ao=pulse", "--vo=null", try AudioSessionServerTests.chirp().path], environment: server.environment)
        #expect(waitUntil(timeout: 10) { AudioAnalysis.audibleSeconds(first.samples) >= 1.5 }, "no sound")
        server.kill()
        _ = first.stop()
        #expect(p.waitFor("media-services-lost"), "events: \(p.names)")
        Thread.sleep(forTimeInterval: 0.5)
        let atLoss = try position()
        Thread.sleep(forTimeInterval: 2)
        let later = try position()
        #expect(atLoss > 1, "position \(atLoss) s at the loss")
        #expect(
            abs(later - atLoss) < 0.2, "the desktop's position ran on from \(atLoss) s to \(later) s with no server")
        try server.start()
        let second = try server.record("test_sink")
        #expect(p.waitFor("media-services-reset"), "events: \(p.names)")
        #expect(p.waitForExit() == 0, "stderr: \(p.stderr)")
        _ = second.stop()
    }
}

extension String {
    fileprivate var trimmed: String { trimmingCharacters(in: .whitespacesAndNewlines) }
}
