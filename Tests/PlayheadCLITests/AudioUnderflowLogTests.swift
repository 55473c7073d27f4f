import Foundation
import PlayheadTestSupport
import Testing

/// A dropout (the sound server ran out of the player's sound) is in `--log-json` as `audio-underflow`, with the
/// seconds since the player last wrote; a file that plays through logs none, its end (where the stream drains and
/// the server runs out on purpose) included.
@Suite(.serialized) struct AudioUnderflowLogTests {
    func underflows(_ p: PlayheadProcess) -> [[String: Any]] {
        p.events.filter { $0["event"] as? String == "audio-underflow" }
    }

    @Test func aDropoutIsLoggedAndAnEndIsNot() throws {
        let server = PrivatePulseServer()
        try server.start()
        let tone = try Fixtures.tone(seconds: 3, frequency: 440, ext: "wav").path
        let whole = try PlayheadProcess(["--ao=pulse", "--vo=null", tone], environment: server.environment)
        #expect(whole.waitForExit() == 0, "stderr: \(whole.stderr)")
        #expect(whole.names.contains("first-audio"), "events: \(whole.names)")
        #expect(underflows(whole).isEmpty, "a file played through: \(underflows(whole))")

        // The whole player stands still for 0.8 s (as a machine that stops it would): the server plays the 0.3 s
        // it holds and runs dry.
        let held = try PlayheadProcess(["--ao=pulse", "--vo=null", tone], environment: server.environment)
        #expect(held.waitFor("first-audio"), "events: \(held.names)")
        Thread.sleep(forTimeInterval: 1)
        let pid = held.process.processIdentifier
        kill(pid, SIGSTOP)
        Thread.sleep(forTimeInterval: 0.8)
        kill(pid, SIGCONT)
        #expect(held.waitForExit() == 0, "stderr: \(held.stderr)")
        let logged = underflows(held)
        #expect(logged.count == 1, "\(logged)")
        let since = logged.first?["since-write"] as? Double ?? -1
        #expect(since >= 0.3, "the writer was held back, yet the last write was \(since) s before: \(logged)")
    }
}
