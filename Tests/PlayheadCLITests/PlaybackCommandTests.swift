import Foundation
import PlayheadTestSupport
import Testing

/// `playhead` as a user runs it: what reaches the sound server, what it prints, how it exits.
@Suite(.serialized) struct PlaybackCommandTests {
    @Test func playsAToneThroughPulseAudio() throws {
        let tone = try Fixtures.tone(seconds: 3)
        let sink = try TestSink()
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=pulse", "--vo=null", "--audio-device=\(sink.name)", tone.path], timeout: 30)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let samples = sink.stopRecording()
        let f = AudioAnalysis.frequency(samples)
        let d = AudioAnalysis.soundSeconds(samples)
        #expect(abs(f - 440) / 440 < 0.01, "frequency \(f)")
        #expect(abs(d - 3) / 3 < 0.05, "duration \(d)")
        #expect(AudioAnalysis.longestGap(samples) < 0.005, "a gap in the middle of the tone")
    }

    @Test func doubleSpeedKeepsPitchAndHalvesTime() throws {
        let tone = try Fixtures.tone(seconds: 6)
        let sink = try TestSink()
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=pulse", "--vo=null", "--speed=2", "--audio-device=\(sink.name)", tone.path],
            timeout: 30)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let samples = sink.stopRecording()
        let f = AudioAnalysis.frequency(samples)
        let d = AudioAnalysis.soundSeconds(samples)
        #expect(abs(f - 440) / 440 < 0.01, "pitch changed: \(f) Hz")
        #expect(abs(d - 3) / 3 < 0.10, "played for \(d) s")
        // The wall time a listener hears is the recorded span above; the command's own run time also holds the
        // start-up and the drain, so it is checked only against the 1x duration.
        #expect(r.seconds < 6, "the command took \(r.seconds) s: did it play at 1x?")
    }

    @Test func logJSONRecordsTheEngineEvents() throws {
        let tone = try Fixtures.tone(seconds: 1)
        let log = Paths.scratch("log").appendingPathComponent("events.jsonl")
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=null", "--log-json=\(log.path)", tone.path], timeout: 30)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let lines = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        let events = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let names = events.map { $0["event"] as! String }
        for expected in ["opened", "ready", "first-audio", "ended"] {
            #expect(names.contains(expected), "missing \(expected) in \(names)")
        }
        let times = events.map { $0["time"] as! Double }
        #expect(times == times.sorted(), "timestamps go backwards: \(times)")
        let ended = events.first { $0["event"] as? String == "ended" }?["time"] as? Double ?? 0
        #expect(ended > 0.9, "a 1 s tone ended after \(ended) s on the real-time null output")
    }

    @Test func startAndLengthBoundPlayback() throws {
        let tone = try Fixtures.tone(seconds: 6)
        let sink = try TestSink()
        let r = try Run.command(
            Paths.playheadBinary(),
            ["--ao=pulse", "--audio-device=\(sink.name)", "--start=2", "--length=2", tone.path], timeout: 30)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let d = AudioAnalysis.soundSeconds(sink.stopRecording())
        #expect(abs(d - 2) < 0.25, "played \(d) s of --start=2 --length=2")
    }

    @Test func loopFileMuteAndNoAudio() throws {
        let tone = try Fixtures.tone(seconds: 1)
        let sink = try TestSink()
        let looped = try Run.command(
            Paths.playheadBinary(), ["--ao=pulse", "--audio-device=\(sink.name)", "--loop-file=2", tone.path],
            timeout: 30)
        #expect(looped.status == 0, "\(looped.stderr)")
        let samples = sink.stopRecording()
        #expect(
            abs(AudioAnalysis.audibleSeconds(samples) - 3) < 0.15, "played \(AudioAnalysis.audibleSeconds(samples)) s")
        let mutedSink = try TestSink()
        let muted = try Run.command(
            Paths.playheadBinary(), ["--ao=pulse", "--audio-device=\(mutedSink.name)", "--mute", tone.path], timeout: 30
        )
        #expect(muted.status == 0)
        #expect(AudioAnalysis.soundSpan(mutedSink.stopRecording()) == nil, "--mute let sound through")
        let noAudio = try Run.command(Paths.playheadBinary(), ["--no-audio", "--log-json=/dev/stdout", tone.path])
        #expect(noAudio.status == 1, "an audio-only file with --no-audio has nothing to play")
        #expect(noAudio.stderr.contains("no audio or video stream"), "\(noAudio.stderr)")
    }

    @Test func helpAndVersion() throws {
        let help = try Run.command(Paths.playheadBinary(), ["--help"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--ao=auto|pulse|null|wav:PATH"))
        #expect(help.stdout.contains("Exit status"))
        let version = try Run.command(Paths.playheadBinary(), ["--version"])
        #expect(version.stdout.hasPrefix("playhead "))
        let bad = try Run.command(Paths.playheadBinary(), ["--speed=fast", "x.mp3"])
        #expect(bad.status == 2)
        #expect(bad.stderr.contains("--speed"))
    }

    @Test func wavOutputWritesTheDecodedSound() throws {
        let tone = try Fixtures.tone(seconds: 2, frequency: 1000)
        let out = Paths.scratch("wav").appendingPathComponent("out.wav")
        let r = try Run.command(Paths.playheadBinary(), ["--ao=wav:\(out.path)", "--untimed", tone.path], timeout: 30)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        #expect(r.seconds < 1.5, "untimed WAV output should not run in real time (\(r.seconds) s)")
        let samples = AudioAnalysis.wavSamples(out)
        #expect(abs(Double(samples.count) / 48_000 - 2) < 0.05)
        #expect(abs(AudioAnalysis.frequency(samples) - 1000) < 10)
    }

    /// `playhead FOLDER` plays the folder's media files in the order a file manager lists them (track 2 before
    /// track 10); it was an "is a directory" error.
    @Test func aFolderPlaysItsFilesInOrder() throws {
        let folder = Paths.scratch("play-folder")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.copyItem(
            at: try Fixtures.tone(seconds: 1, frequency: 470), to: folder.appendingPathComponent("2 first.m4a"))
        try FileManager.default.copyItem(
            at: try Fixtures.tone(seconds: 1, frequency: 620), to: folder.appendingPathComponent("10 second.m4a"))
        let out = Paths.scratch("wav").appendingPathComponent("folder.wav")
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=wav:\(out.path)", "--untimed", "--no-mpris", folder.path], timeout: 30)
        #expect(r.status == 0, "stderr: \(r.stderr)")
        let samples = AudioAnalysis.wavSamples(out)
        #expect(AudioAnalysis.toneSequence(samples) == [470, 620], "\(AudioAnalysis.toneSequence(samples))")
    }
}
