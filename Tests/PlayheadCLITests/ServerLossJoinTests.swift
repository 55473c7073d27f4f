import Foundation
import PlayheadTestSupport
import Testing

/// The sound server goes away in the last moment of a queue's first input, after its end was written and before
/// it was heard: nothing is heard, so the join waits, and the loop that watches it must sleep meanwhile, not look
/// again every millisecond (a player left without a server would burn a core at real-time priority).
@Suite(.serialized) struct ServerLossJoinTests {
    @Test func aJoinWaitingForALostServerSleeps() throws {
        let server = PrivatePulseServer()
        try server.start()
        let recording = try server.record("test_sink")
        let inputs = try [440, 660].map { try Fixtures.tone(seconds: 2, frequency: $0, ext: "wav").path }
        let p = try PlayheadProcess(["--ao=pulse", "--vo=null"] + inputs, environment: server.environment)
        // The output holds 0.3 s: from 1.7 s on the second input's sound follows the first's in the stream.
        #expect(
            waitUntil(timeout: 10) { AudioAnalysis.audibleSeconds(recording.samples) >= 1.9 },
            "no sound: \(p.stderr)")
        server.kill()
        _ = recording.stop()
        #expect(p.waitFor("media-services-lost"), "events: \(p.names)")
        // A position may stand for a moment without a server's fault (after an uncork): the looks back off after
        // a quarter of a second of it.
        Thread.sleep(forTimeInterval: 0.5)
        let pid = p.process.processIdentifier
        let before = ThreadActivity.sample(pid: pid)
        Thread.sleep(forTimeInterval: 2)
        let changes = ThreadActivity.difference(before, ThreadActivity.sample(pid: pid))
        let loop = changes.filter { $0.thread.hasPrefix("playhead.loop") }
        let changed = p.events.contains {
            $0["event"] as? String == "item-changed" && $0["input"] as? String == inputs[1]
        }
        #expect(!loop.isEmpty, "no playback loop thread: \(ThreadActivity.describe(changes))")
        #expect(!changed, "the second input began while no server answered: \(p.names)")
        let wakeups = loop.map(\.wakeups).max() ?? 0
        #expect(wakeups <= 8, "the loop woke \(wakeups) times in 2 s: \(ThreadActivity.describe(changes))")
        try server.start()
        #expect(p.waitFor("media-services-reset"), "events: \(p.names)")
        #expect(p.waitForExit() == 0, "stderr: \(p.stderr)")
    }
}
