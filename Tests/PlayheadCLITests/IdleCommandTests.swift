import Foundation
import PlayheadTestSupport
import Synchronization
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

    /// Paused in a terminal, the status line is drawn once what it shows stops changing, and then only when asked:
    /// it was drawn again every second, and the player woke 11 times a second (2.4 without a terminal).
    @Test func pausedInATerminalSleeps() throws {
        let chirp = try GaplessFixtures.positionChirp()
        let marker = Paths.scratch("paused-terminal").appendingPathComponent("events.json").path
        let activity = Mutex<(pid: Int32?, changes: [ThreadActivity.Change])>((nil, []))
        let sampled = DispatchSemaphore(value: 0)
        let sampler = Thread {
            defer { sampled.signal() }
            // Paused at 2.5 s; watched from 5 s for 10 s (the key q comes at 17.5 s).
            Thread.sleep(forTimeInterval: 5)
            guard let pid = Self.process(named: "playhead", withArgument: "--log-json=\(marker)") else { return }
            let before = ThreadActivity.sample(pid: pid)
            Thread.sleep(forTimeInterval: 10)
            let changes = ThreadActivity.difference(before, ThreadActivity.sample(pid: pid))
            activity.withLock { $0 = (pid, changes) }
        }
        sampler.start()
        let run = try Run.inTerminal(
            [try Paths.playheadBinary(), "--ao=null", "--vo=null", "--no-mpris", "--log-json=\(marker)", chirp.path],
            keys: [(2.5, " "), (15, "q")], tail: 3, timeout: 40)
        sampled.wait()
        #expect(run.status == 0, "\(run.stderr)")
        let (pid, changes) = activity.withLock { $0 }
        try #require(pid != nil, "no playhead process found while it played: \(run.stdout.suffix(300))")
        #expect(!changes.isEmpty, "no threads read for pid \(pid ?? 0)")
        let wakeups = changes.reduce(0) { $0 + $1.wakeups }
        #expect(wakeups <= 50, "\(wakeups) wakeups in 10 s paused: \(ThreadActivity.describe(changes, top: 30))")
        #expect(run.stdout.contains("⏸"), "never shown paused: \(run.stdout.suffix(300))")
    }

    /// The process whose program is `name` and one of whose arguments is `argument`.
    static func process(named name: String, withArgument argument: String) -> Int32? {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        for entry in entries {
            guard let pid = Int32(entry),
                let comm = try? String(contentsOfFile: "/proc/\(entry)/comm", encoding: .utf8),
                comm.trimmingCharacters(in: .whitespacesAndNewlines) == name,
                let cmdline = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
            else { continue }
            if cmdline.split(separator: 0).contains(where: { String(decoding: $0, as: UTF8.self) == argument }) {
                return pid
            }
        }
        return nil
    }
}
