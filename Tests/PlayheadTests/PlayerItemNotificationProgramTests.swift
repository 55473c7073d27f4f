import Foundation
import PlayheadTestSupport
import Testing

/// Rule 9 in a program of its own, as an app is: the end notification, observed with `queue: .main`, is posted
/// once per end with the item as object, and `seek(to: .zero)` plus `play()` from it loops the item, whatever runs
/// the main queue (Tests/Programs: LoopProbe, LoopProbeAsync).
@Suite(.serialized) struct PlayerItemNotificationProgramTests {
    /// Runs a probe program next to the `playhead` binary on a 1 s tone; expects three ends, each once, on the
    /// main queue (the probe traps otherwise) with the item as object.
    func expectThreeLoops(_ program: String, _ arguments: [String]) throws {
        let tone = try Fixtures.tone(seconds: 1)
        let binary = URL(fileURLWithPath: try Paths.playheadBinary()).deletingLastPathComponent()
            .appendingPathComponent(program).path
        let r = try Run.command(binary, arguments + [tone.path], timeout: 30)
        let expected = (1...3).map { "ended \($0) object=item queue=main" } + ["done ends=3"]
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(r.status == 0, "exit \(r.status): \(r.stdout) \(r.stderr)")
        #expect(lines == expected, "\(r.stdout) \(r.stderr)")
        // Three plays of 1 s: the loops did not wait for anything.
        #expect(r.seconds < 8, "took \(r.seconds) s")
    }

    @Test func anItemLoopsFromItsEndNotificationUnderDispatchMain() throws {
        try expectThreeLoops("LoopProbe", ["dispatch"])
    }

    @Test func anItemLoopsFromItsEndNotificationUnderTheMainRunLoop() throws {
        try expectThreeLoops("LoopProbe", ["runloop"])
    }

    @Test func anItemLoopsFromItsEndNotificationInAnAsyncMain() throws {
        try expectThreeLoops("LoopProbeAsync", [])
    }
}
