import Foundation
import PlayheadTestSupport
import Testing

/// Route changes seen from `playhead`: the sink playing is removed (headphones pulled), a sink appears, devices
/// are listed and chosen.
@Suite(.serialized) struct AudioSessionRouteTests {
    @Test func removingThePlayingSinkPausesAndPlayContinuesOnTheOther() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let tone = try Fixtures.tone(seconds: 4)
        let playing = try TestSink()
        let remaining = try TestSink()
        // The server moves streams of a removed sink to the default sink: make it ours for this test.
        try Run.command("pactl", ["set-default-sink", remaining.name])
        defer { _ = try? Run.command("pactl", ["set-default-sink", "test_sink"]) }
        let p = try PlayheadProcess(["--ao=pulse", "--vo=null", "--audio-device=\(playing.name)", tone.path])
        #expect(waitUntil(timeout: 10) { AudioAnalysis.audibleSeconds(playing.samplesSoFar) >= 1 }, "no sound")
        // The recording of the removed sink ends with it: what it played up to its removal is all counted (a
        // recording stopped before the removal would miss what played while `pactl` started).
        try Run.command("pactl", ["unload-module", playing.module])
        let heardBefore = AudioAnalysis.audibleSeconds(playing.stopRecording())
        #expect(p.waitFor("route-change"), "events: \(p.names)")
        let change = p.events.first { ($0["event"] as? String) == "route-change" }
        #expect(change?["reason"] as? String == "oldDeviceUnavailable", "\(String(describing: change))")
        #expect(change?["device"] as? String == remaining.name, "\(String(describing: change))")
        #expect(p.stderr.contains("audio device went away"), "no notice: \(p.stderr)")
        // Paused, and it stays paused on the sink the stream moved to.
        Thread.sleep(forTimeInterval: 1.5)
        let leaked = AudioAnalysis.audibleSeconds(remaining.samplesSoFar)
        #expect(leaked < 0.1, "\(leaked) s played on the remaining sink before pausing")
        #expect(p.process.isRunning)
        // play() continues there; a new sink meanwhile is announced without pausing.
        let markBeforePlay = remaining.recordedSeconds
        #expect(try Run.command("playerctl", ["-p", "playhead", "play"], timeout: 5).status == 0)
        #expect(waitUntil(timeout: 5) { audibleSeconds(remaining.samplesSoFar, from: markBeforePlay) > 0.3 })
        let added = try TestSink(fresh: true)
        #expect(p.waitFor("route-change", count: 2), "events: \(p.names)")
        let last = p.events.last { ($0["event"] as? String) == "route-change" }
        #expect(last?["reason"] as? String == "newDeviceAvailable", "\(String(describing: last))")
        #expect(p.waitForExit() == 0, "stderr: \(p.stderr)")
        _ = added
        let samples = remaining.stopRecording()
        let heardAfter = AudioAnalysis.audibleSeconds(samples)
        #expect(abs(heardBefore + heardAfter - 4) < 0.3, "heard \(heardBefore) + \(heardAfter) s of a 4 s tone")
        let resumed = Array(samples.dropFirst(Int(markBeforePlay * 48_000)))
        #expect(abs(AudioAnalysis.frequency(resumed) - 440) < 5, "\(AudioAnalysis.frequency(resumed)) Hz")
        let rates = p.events.compactMap { $0["event"] as? String == "rate-changed" ? $0["rate"] as? Double : nil }
        #expect(rates == [1, 0, 1], "one pause for the removed sink, none for the new one: \(rates)")
    }

    /// With no terminal, no window and no MPRIS nothing could end the pause: `cat song.mp3 | playhead --no-mpris -`
    /// stood paused for good (a test of it hung on a clean machine with this fingerprint: the stream corked, the
    /// program waiting). It plays on where the server moved the stream, and says so.
    @Test func removingThePlayingSinkWithNothingToResumeFromPlaysOn() throws {
        let tone = try Fixtures.tone(seconds: 4)
        let playing = try TestSink()
        let remaining = try TestSink()
        try Run.command("pactl", ["set-default-sink", remaining.name])
        defer { _ = try? Run.command("pactl", ["set-default-sink", "test_sink"]) }
        let p = try PlayheadProcess([
            "--ao=pulse", "--vo=null", "--no-mpris", "--audio-device=\(playing.name)", tone.path,
        ])
        #expect(waitUntil(timeout: 10) { AudioAnalysis.audibleSeconds(playing.samplesSoFar) >= 1 }, "no sound")
        try Run.command("pactl", ["unload-module", playing.module])
        let heardBefore = AudioAnalysis.audibleSeconds(playing.stopRecording())
        #expect(p.waitFor("route-change"), "events: \(p.names)")
        #expect(p.waitForExit(timeout: 15) == 0, "still running (paused for good?): \(p.stderr)")
        #expect(p.stderr.contains("audio device went away: playing on \(remaining.name)"), "\(p.stderr)")
        let heardAfter = AudioAnalysis.audibleSeconds(remaining.stopRecording())
        #expect(abs(heardBefore + heardAfter - 4) < 0.3, "heard \(heardBefore) + \(heardAfter) s of a 4 s tone")
        let rates = p.events.compactMap { $0["event"] as? String == "rate-changed" ? $0["rate"] as? Double : nil }
        #expect(rates == [1], "no pause: \(rates)")
    }

    @Test func audioDeviceHelpListsTheSinksAndAnUnknownDeviceFails() throws {
        let sink = try TestSink()
        let help = try Run.command(Paths.playheadBinary(), ["--audio-device=help"], timeout: 10)
        #expect(help.status == 0, "\(help.stderr)")
        for name in ["test_sink", "second_sink", sink.name] {
            #expect(help.stdout.contains(name), "\(name) missing from: \(help.stdout)")
        }
        #expect(help.stdout.contains("[null]"), "the port type is shown: \(help.stdout)")
        let tone = try Fixtures.tone(seconds: 1)
        let bad = try Run.command(
            Paths.playheadBinary(), ["--ao=pulse", "--audio-device=no_such_sink", tone.path], timeout: 20)
        #expect(bad.status == 1)
        #expect(bad.stderr.contains("no_such_sink"), "\(bad.stderr)")
        #expect(bad.stderr.split(separator: "\n").count == 1, "one line: \(bad.stderr)")
        let noServer = try Run.command(
            Paths.playheadBinary(), ["--audio-device=help"], environment: ["PULSE_SERVER": "unix:/nonexistent"],
            timeout: 10)
        #expect(noServer.status == 1)
        #expect(noServer.stderr.contains("no sound server"), "\(noServer.stderr)")
    }

    @Test func audioDeviceMovesPlaybackToTheChosenSink() throws {
        let tone = try Fixtures.tone(seconds: 2)
        let chosen = try TestSink()
        let other = try TestSink()
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=pulse", "--vo=null", "--audio-device=\(chosen.name)", tone.path],
            environment: ["PULSE_SINK": other.name], timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(abs(AudioAnalysis.audibleSeconds(chosen.stopRecording()) - 2) < 0.15)
        #expect(AudioAnalysis.audibleSeconds(other.stopRecording()) == 0)
    }
}
