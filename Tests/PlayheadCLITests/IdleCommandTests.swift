import Foundation
import PlayheadTestSupport
import Testing

/// `playhead` paused from the desktop sleeps, as mpv does: its threads wake a few times a second at most (the
/// sound server's own timing), and it uses no CPU.
@Suite(.serialized) struct IdleCommandTests {
    @Test func pausedPlayheadSleeps() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = [try Fixtures.numberedVideo().path]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try Run.start(p)
        defer { Run.kill(p) }
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline, !(try Run.command("playerctl", ["-l"], timeout: 5).stdout.contains("playhead")) {
            Thread.sleep(forTimeInterval: 0.1)
        }
        Thread.sleep(forTimeInterval: 1)
        _ = try Run.command("playerctl", ["-p", "playhead", "pause"])
        Thread.sleep(forTimeInterval: 2)
        #expect(try Run.command("playerctl", ["-p", "playhead", "status"]).stdout.hasPrefix("Paused"))
        let before = ThreadActivity.sample(pid: p.processIdentifier)
        Thread.sleep(forTimeInterval: 10)
        let activity = ThreadActivity.difference(before, ThreadActivity.sample(pid: p.processIdentifier))
        #expect(!activity.isEmpty, "no threads read for pid \(p.processIdentifier)")
        let wakeups = activity.reduce(0) { $0 + $1.wakeups }
        let ticks = activity.reduce(0) { $0 + $1.ticks }
        #expect(wakeups <= 100, "\(wakeups) wakeups in 10 s paused: \(ThreadActivity.describe(activity, top: 30))")
        #expect(ticks <= 2, "\(ticks) CPU ticks in 10 s paused: \(ThreadActivity.describe(activity, top: 30))")
    }
}
