import Foundation
import PlayheadTestSupport
import Testing

/// Rule 17 end to end: a call that ends without `.shouldResume` (here the sound server dies during it, and the new
/// server knows nothing of the call) leaves `playhead` paused.
@Suite(.serialized) struct AudioSessionCallEndTests {
    @Test func aCallEndedByTheServersLossDoesNotResumePlayback() throws {
        let server = PrivatePulseServer()
        try server.start()
        let first = try server.record("test_sink")
        let p = try PlayheadProcess(
            ["--ao=pulse", "--vo=null", "--no-mpris", try AudioSessionServerTests.chirp().path],
            environment: server.environment)
        #expect(waitUntil(timeout: 10) { AudioAnalysis.audibleSeconds(first.samples) >= 1 }, "no sound")
        let phone = try startPhoneStream(on: "test_sink", environment: server.environment)
        defer { Run.kill(phone) }
        #expect(p.waitFor("interruption-began"), "events: \(p.names)")
        _ = first.stop()
        server.kill()
        Run.kill(phone)
        #expect(p.waitFor("media-services-lost"), "events: \(p.names)")
        #expect(p.waitFor("interruption-ended"), "events: \(p.names)")
        let ended = p.events.first { $0["event"] as? String == "interruption-ended" }
        #expect(ended?["should-resume"] as? Bool == false, "\(String(describing: ended))")
        try server.start()
        let second = try server.record("test_sink")
        #expect(p.waitFor("media-services-reset"), "events: \(p.names)")
        Thread.sleep(forTimeInterval: 1.5)
        let heard = AudioAnalysis.audibleSeconds(second.stop())
        #expect(heard == 0, "\(heard) s played after a call that ended without shouldResume")
        // The player's own rate: set to 0 by the call, never back to 1.
        let rates = p.events.compactMap { $0["event"] as? String == "rate-changed" ? $0["rate"] as? Double : nil }
        #expect(rates.last == 0, "rates \(rates)")
        #expect(p.process.isRunning, "playhead ended: \(p.stderr)")
    }
}
