import Foundation
import PlayheadTestSupport
import Testing

/// The sound server dies and another one starts; exclusive audio pauses and resumes other MPRIS players.
@Suite(.serialized) struct AudioSessionServerTests {
    /// 4 s whose frequency tells the position: 300 Hz + 100 Hz per second.
    static func chirp() throws -> URL {
        try Fixtures.make(
            "chirp-300-700hz-4s.wav",
            [
                "-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*(300*t+50*t*t)):s=48000:d=4", "-ac", "2", "-c:a",
                "pcm_s16le",
            ])
    }

    /// The media time the chirp plays in `samples[range]` (seconds).
    static func position(_ samples: [Float], at range: Range<Int>) -> Double {
        (AudioAnalysis.frequency(Array(samples[range])) - 300) / 100
    }

    @Test func killingTheServerAndStartingAnotherContinuesFromTheSamePosition() throws {
        let server = PrivatePulseServer()
        try server.start()
        let first = try server.record("test_sink")
        let p = try PlayheadProcess(
            ["--ao=pulse", "--vo=null", try Self.chirp().path], environment: server.environment)
        #expect(waitUntil(timeout: 10) { AudioAnalysis.audibleSeconds(first.samples) >= 1.5 }, "no sound")
        server.kill()
        let before = first.stop()
        #expect(p.waitFor("media-services-lost"), "events: \(p.names)")
        Thread.sleep(forTimeInterval: 1)
        try server.start()
        let second = try server.record("test_sink")
        #expect(p.waitFor("media-services-reset"), "events: \(p.names)")
        #expect(p.waitForExit() == 0, "stderr: \(p.stderr)")
        let after = second.stop()
        // The clock did not run while no server answered, and what the old server had not played is played on the
        // new one: the position at the reset is the one at the loss.
        let lost = p.events.first { ($0["event"] as? String) == "media-services-lost" }?["position"] as? Double ?? -1
        let reset = p.events.first { ($0["event"] as? String) == "media-services-reset" }?["position"] as? Double ?? -1
        #expect(lost > 1 && abs(reset - lost) < 0.05, "position \(lost) s at the loss, \(reset) s at the reset")
        // What was heard last on the old server and first on the new one follow each other in the media: the windows
        // the frequencies are measured on are 0.1 s apart (the 0.3 s the old server held and lost would be 0.4).
        guard let oldSpan = AudioAnalysis.soundSpan(before), let newSpan = AudioAnalysis.soundSpan(after) else {
            Issue.record("no sound on one of the servers")
            return
        }
        let window = 4_800
        let lastOld = Self.position(before, at: max(0, oldSpan.upperBound - window)..<oldSpan.upperBound)
        let firstNew = Self.position(after, at: newSpan.lowerBound..<min(after.count, newSpan.lowerBound + window))
        #expect(
            firstNew - lastOld > -0.05 && firstNew - lastOld < 0.25,
            "old server ended at \(lastOld) s, new began at \(firstNew) s")
        // And it played on to the end of the media.
        let lastNew = Self.position(after, at: max(0, newSpan.upperBound - window)..<newSpan.upperBound)
        #expect(lastNew > 3.7, "the new server heard up to \(lastNew) s of 4")
        #expect(p.stderr.contains("sound server went away"), "\(p.stderr)")
    }

    @Test func aPausedPlayerStaysPausedAcrossAServerResetAndPlaysOnFromItsPosition() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let server = PrivatePulseServer()
        try server.start()
        let first = try server.record("test_sink")
        let p = try PlayheadProcess(
            ["--ao=pulse", "--vo=null", try Self.chirp().path], environment: server.environment)
        #expect(waitUntil(timeout: 10) { AudioAnalysis.audibleSeconds(first.samples) >= 1.5 }, "no sound")
        #expect(try Run.command("playerctl", ["-p", "playhead", "pause"], timeout: 5).status == 0)
        Thread.sleep(forTimeInterval: 0.5)
        let before = first.stop()
        server.kill()
        #expect(p.waitFor("media-services-lost"), "events: \(p.names)")
        try server.start()
        let second = try server.record("test_sink")
        #expect(p.waitFor("media-services-reset"), "events: \(p.names)")
        Thread.sleep(forTimeInterval: 1)
        #expect(AudioAnalysis.audibleSeconds(second.samples) == 0, "a paused player played after the reset")
        #expect(try Run.command("playerctl", ["-p", "playhead", "play"], timeout: 5).status == 0)
        #expect(p.waitForExit() == 0, "stderr: \(p.stderr)")
        let after = second.stop()
        guard let oldSpan = AudioAnalysis.soundSpan(before), let newSpan = AudioAnalysis.soundSpan(after) else {
            Issue.record("no sound on one of the servers")
            return
        }
        let window = 4_800
        let pausedAt = Self.position(before, at: max(0, oldSpan.upperBound - window)..<oldSpan.upperBound)
        let playedFrom = Self.position(after, at: newSpan.lowerBound..<min(after.count, newSpan.lowerBound + window))
        #expect(
            playedFrom - pausedAt > -0.15 && playedFrom - pausedAt < 0.5,
            "paused at \(pausedAt) s, played on from \(playedFrom) s")
    }

    @Test func exclusiveAudioPausesOtherPlayersAndResumesExactlyThem() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let long = try Fixtures.tone(seconds: 20)
        let other = try PlayheadProcess(["--ao=null", "--vo=null", long.path])
        let otherName = "playhead"
        #expect(waitUntil(timeout: 10) { Self.status(otherName) == "Playing" }, "the other player does not play")
        let idle = try PlayheadProcess(["--ao=null", "--vo=null", long.path])
        let idleName = "playhead.instance\(idle.process.processIdentifier)"
        #expect(waitUntil(timeout: 10) { Self.status(idleName) == "Playing" })
        _ = try Run.command("playerctl", ["-p", idleName, "pause"], timeout: 5)
        #expect(waitUntil(timeout: 5) { Self.status(idleName) == "Paused" })

        // Without --exclusive-audio nobody is paused.
        let tone = try Fixtures.tone(seconds: 1)
        let polite = try Run.command(Paths.playheadBinary(), ["--ao=null", "--vo=null", tone.path], timeout: 20)
        #expect(polite.status == 0)
        #expect(Self.status(otherName) == "Playing")

        let sink = try TestSink()
        let me = try PlayheadProcess(["--exclusive-audio", "--ao=pulse", "--audio-device=\(sink.name)", tone.path])
        #expect(waitUntil(timeout: 5) { Self.status(otherName) == "Paused" }, "activation did not pause the other")
        #expect(me.waitForExit() == 0, "stderr: \(me.stderr)")
        #expect(waitUntil(timeout: 5) { Self.status(otherName) == "Playing" }, "deactivation did not resume it")
        #expect(Self.status(idleName) == "Paused", "a player paused before was resumed")
        let rates = other.events.compactMap { $0["event"] as? String == "rate-changed" ? $0["rate"] as? Double : nil }
        #expect(rates == [1, 0, 1], "\(rates)")
    }

    /// `PlaybackStatus` of the MPRIS player `name` (exactly that bus name), as D-Bus answers it.
    static func status(_ name: String) -> String {
        let r = try? Run.command(
            "dbus-send",
            [
                "--session", "--print-reply", "--dest=org.mpris.MediaPlayer2.\(name)", "/org/mpris/MediaPlayer2",
                "org.freedesktop.DBus.Properties.Get", "string:org.mpris.MediaPlayer2.Player",
                "string:PlaybackStatus",
            ], timeout: 5)
        for s in ["Playing", "Paused", "Stopped"] where r?.stdout.contains("\"\(s)\"") == true { return s }
        return "none"
    }
}
