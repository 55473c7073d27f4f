import Foundation
import PlayheadTestSupport
import Testing

/// A call (a `phone`-role stream, corked by `module-role-cork`) interrupts `playhead`: it pauses, and resumes by
/// itself when the call ends unless the user paused meanwhile. Heard at the sink, read in the event log.
@Suite(.serialized) struct AudioSessionInterruptionTests {
    @Test func aCallPausesPlaybackAndItsEndResumesIt() throws {
        // 2.5 s: a second before the call, the rest after it.
        let tone = try Fixtures.tone(seconds: 2.5)
        let sink = try TestSink()
        let p = try PlayheadProcess(["--ao=pulse", "--vo=null", "--audio-device=\(sink.name)", tone.path])
        #expect(waitUntil(timeout: 10) { AudioAnalysis.audibleSeconds(sink.samplesSoFar) >= 1 }, "no sound")
        let phone = try startPhoneStream(on: sink.name)
        defer { Run.kill(phone) }
        #expect(p.waitFor("interruption-began"), "events: \(p.names)")
        let interruptedAt = sink.recordedSeconds
        Thread.sleep(forTimeInterval: 1.5)
        let during = audibleSeconds(sink.samplesSoFar, from: interruptedAt + 0.1)
        #expect(during == 0, "\(during) s of music during the call")
        #expect(p.stderr.contains("interrupted"), "no notice: \(p.stderr)")
        Run.kill(phone)
        #expect(p.waitFor("interruption-ended"), "events: \(p.names)")
        #expect(p.waitForExit() == 0, "stderr: \(p.stderr)")
        let samples = sink.stopRecording()
        // Paused, not muted: the whole tone is heard, around a gap as long as the call.
        let heard = AudioAnalysis.audibleSeconds(samples)
        #expect(abs(heard - 2.5) < 0.25, "heard \(heard) s of a 2.5 s tone: music was lost during the call")
        #expect(AudioAnalysis.longestGap(samples) > 1.2, "no pause during the call")
        let interesting = p.events.compactMap { e -> String? in
            switch e["event"] as? String {
            case "interruption-began": return "began"
            case "interruption-ended": return (e["should-resume"] as? Bool) == true ? "ended-resume" : "ended"
            case "rate-changed": return "rate \(e["rate"] as? Double ?? -1)"
            default: return nil
            }
        }
        #expect(interesting == ["rate 1.0", "began", "rate 0.0", "ended-resume", "rate 1.0"], "\(interesting)")
    }

    @Test func aUserPauseDuringTheCallKeepsThePlayerPaused() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let tone = try Fixtures.tone(seconds: 6)
        let sink = try TestSink()
        let p = try PlayheadProcess(["--ao=pulse", "--vo=null", "--audio-device=\(sink.name)", tone.path])
        #expect(waitUntil(timeout: 10) { AudioAnalysis.audibleSeconds(sink.samplesSoFar) >= 1 }, "no sound")
        let phone = try startPhoneStream(on: sink.name)
        defer { Run.kill(phone) }
        #expect(p.waitFor("interruption-began"), "events: \(p.names)")
        let interruptedAt = sink.recordedSeconds
        // The user pauses from the desktop's media controls while the call goes on.
        let paused = try Run.command("playerctl", ["-p", "playhead", "pause"], timeout: 5)
        #expect(paused.status == 0, "playerctl: \(paused.stderr)")
        Thread.sleep(forTimeInterval: 0.5)
        Run.kill(phone)
        #expect(p.waitFor("interruption-ended"), "events: \(p.names)")
        Thread.sleep(forTimeInterval: 1.5)
        let after = audibleSeconds(sink.samplesSoFar, from: interruptedAt + 0.1)
        #expect(after == 0, "\(after) s of music after the call although the user paused")
        #expect(p.process.isRunning, "playhead ended: \(p.stderr)")
        let status = try Run.command("playerctl", ["-p", "playhead", "status"], timeout: 5).stdout
        #expect(status.hasPrefix("Paused"), "playerctl status: \(status)")
        let ended = p.names.lastIndex(of: "interruption-ended") ?? 0
        let resumed = p.events[ended...].contains {
            ($0["event"] as? String) == "rate-changed" && ($0["rate"] as? Double ?? 0) > 0
        }
        #expect(!resumed, "resumed after the call: \(p.names)")
    }

    /// Play from the desktop during the call: the player waits for the call's end (nothing played into the
    /// server's mute), the interruption ends when the call does, at the position the call stopped it, and the whole
    /// tone is heard. It played muted (1-2 s lost) and the interruption ended only at quit, at "position 0".
    @Test func aPlayDuringTheCallWaitsForItsEnd() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let tone = try Fixtures.tone(seconds: 3)
        let sink = try TestSink()
        let p = try PlayheadProcess(["--ao=pulse", "--vo=null", "--audio-device=\(sink.name)", tone.path])
        #expect(waitUntil(timeout: 10) { AudioAnalysis.audibleSeconds(sink.samplesSoFar) >= 1 }, "no sound")
        let phone = try startPhoneStream(on: sink.name)
        defer { Run.kill(phone) }
        #expect(p.waitFor("interruption-began"), "events: \(p.names)")
        Thread.sleep(forTimeInterval: 0.3)
        let played = try Run.command("playerctl", ["-p", "playhead", "play"], timeout: 5)
        #expect(played.status == 0, "playerctl: \(played.stderr)")
        #expect(p.waitFor("rate-changed", count: 3), "events: \(p.names)")
        Thread.sleep(forTimeInterval: 1.5)
        #expect(!p.names.contains("interruption-ended"), "events: \(p.names)")
        Run.kill(phone)
        #expect(p.waitFor("interruption-ended", timeout: 5), "the interruption did not end with the call: \(p.names)")
        #expect(p.waitForExit() == 0, "stderr: \(p.stderr)")
        let samples = sink.stopRecording()
        let heard = AudioAnalysis.audibleSeconds(samples)
        #expect(abs(heard - 3) < 0.25, "heard \(heard) s of a 3 s tone: music was lost during the call")
        let began = p.events.first { $0["event"] as? String == "interruption-began" }?["position"] as? Double
        let ends = p.events.filter { $0["event"] as? String == "interruption-ended" }
        #expect(ends.count == 1, "\(ends)")
        let endedAt = ends.first?["position"] as? Double
        #expect(
            began != nil && endedAt != nil && abs(endedAt! - began!) < 0.05,
            "began at \(String(describing: began)), ended at \(String(describing: endedAt))")
        #expect(p.stderr.contains("the interruption ended"), "\(p.stderr)")
    }
}
