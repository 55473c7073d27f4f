import Foundation
import PlayheadTestSupport
import Testing

/// Rule 17 end to end: a call that ends without `.shouldResume` (here the sound server dies during it, and the new
/// server knows nothing of the call) leaves `playhead` paused when something can resume it (MPRIS here); with
/// nothing that could (no terminal, window or MPRIS) the pause would never end, and it plays on.
@Suite(.serialized) struct AudioSessionCallEndTests {
    @Test func aCallEndedByTheServersLossDoesNotResumePlayback() throws {
        let (p, heard, server) = try callEndedByTheServersLoss(mpris: true)
        defer { server.kill() }
        #expect(heard == 0, "\(heard) s played after a call that ended without shouldResume")
        // The player's own rate: set to 0 by the call, never back to 1.
        let rates = p.events.compactMap { $0["event"] as? String == "rate-changed" ? $0["rate"] as? Double : nil }
        #expect(rates.last == 0, "rates \(rates)")
        #expect(p.process.isRunning, "playhead ended: \(p.stderr)")
        #expect(p.stderr.contains("the interruption ended without advice to resume: paused"), "\(p.stderr)")
    }

    /// `cat song.mp3 | playhead --no-mpris -` in a script: paused by the call, nothing could ever resume it.
    @Test func aCallEndedByTheServersLossResumesAPlayerNothingElseCouldResume() throws {
        let (p, heard, server) = try callEndedByTheServersLoss(mpris: false)
        defer { server.kill() }
        #expect(heard > 0.5, "\(heard) s played in 1.5 s after the call: paused for good?")
        #expect(p.waitForExit(timeout: 15) == 0, "still running (paused for good?): \(p.stderr)")
        let rates = p.events.compactMap { $0["event"] as? String == "rate-changed" ? $0["rate"] as? Double : nil }
        #expect(rates == [1, 0, 1], "rates \(rates)")
        #expect(p.stderr.contains("the interruption ended: playing on"), "\(p.stderr)")
    }

    /// Plays a chirp, starts a call (a `phone` stream: the server corks the player), kills the server during the
    /// call and starts it again; returns the player, the seconds heard on the new server in 1.5 s, and the server.
    private func callEndedByTheServersLoss(mpris: Bool) throws -> (PlayheadProcess, Double, PrivatePulseServer) {
        let server = PrivatePulseServer()
        try server.start()
        let first = try server.record("test_sink")
        let p = try PlayheadProcess(
            ["--ao=pulse", "--vo=null"] + (mpris ? [] : ["--no-mpris"])
                + [try AudioSessionServerTests.chirp().path],
            environment: server.environment)
        if mpris {
            let name = try SessionBus.mprisName(of: p.process.processIdentifier, seconds: 10)
            #expect(name != nil, "no MPRIS name: \(p.stderr)")
        }
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
        return (p, AudioAnalysis.audibleSeconds(second.stop()), server)
    }
}
