import Foundation
import PlayheadTestSupport
import Testing

/// Resume positions across runs, and the queue keys and status line in a terminal.
@Suite(.serialized) struct ResumeAndQueueKeysTests {
    /// A private `XDG_STATE_HOME` for one test.
    func stateHome() -> (env: [String: String], file: URL) {
        let home = Paths.scratch("state")
        return (["XDG_STATE_HOME": home.path], home.appendingPathComponent("playhead/resume.json"))
    }

    /// Runs `playhead ARGS` on a pseudo-terminal (`script`), typing `keys` as (delay, text) pairs, then waiting
    /// `tail` seconds (or until it has ended) before closing its input.
    func runInTerminal(
        _ arguments: [String], keys: [(Double, String)], environment: [String: String] = [:], tail: Double = 3
    ) throws -> Run.Result {
        try Run.inTerminal(
            [try Paths.playheadBinary()] + arguments, keys: keys, tail: tail, environment: environment, timeout: 40)
    }

    /// The position the chirp fixture was at, from the pitch of the first 0.5 s heard.
    func chirpPosition(_ samples: [Float]) -> Double? {
        guard let span = AudioAnalysis.soundSpan(samples), span.count > 24_000 else { return nil }
        let f = AudioAnalysis.frequency(Array(samples[(span.lowerBound + 2_400)..<(span.lowerBound + 26_400)]))
        // 200 + 2t Hz; the window is centred 0.3 s after the start.
        return (f - 200) / 2 - 0.3
    }

    /// Runs `playhead ARGS` on a test sink of PulseAudio: the run's result, and the chirp position heard first.
    func playOnSink(_ arguments: [String], environment: [String: String]) throws -> (run: Run.Result, at: Double?) {
        let sink = try TestSink()
        let run = try Run.command(
            Paths.playheadBinary(), ["--ao=pulse", "--no-mpris", "--audio-device=\(sink.name)"] + arguments,
            environment: environment, timeout: 20)
        let heard = sink.stopRecording()
        return (run, chirpPosition(heard))
    }

    @Test func quitAt200sThenResumeThere() throws {
        let chirp = try GaplessFixtures.positionChirp()
        let (env, file) = stateHome()
        // Play from 198 s and quit with q at about 200 s.
        let first = try runInTerminal(
            ["--ao=null", "--no-mpris", "--start=198", chirp.path], keys: [(2.0, "q")], environment: env, tail: 1)
        #expect(first.status == 0, "\(first.stderr)")
        let saved = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: [String: Double]]
        let position = try #require(saved?[chirp.path]?["position"], "nothing saved: \(String(describing: saved))")
        #expect(abs(position - 200) < 1, "saved \(position)")

        // Playing it again resumes there, says so, and the sound is the chirp at 200 s.
        let (again, heard) = try playOnSink(["--end=\(Int(position) + 3)", chirp.path], environment: env)
        #expect(again.status == 0, "\(again.stderr)")
        #expect(again.stdout.contains("Resuming \(chirp.path) at 03:"), "\(again.stdout)")
        let heardAt = try #require(heard, "nothing heard")
        #expect(abs(heardAt - position) < 1, "resumed at \(heardAt) s, saved \(position) s")

        // --no-resume starts from the beginning.
        try JSONSerialization.data(withJSONObject: [chirp.path: ["position": 200.0]]).write(to: file)
        let (r, heardFirst) = try playOnSink(["--no-resume", "--end=2", chirp.path], environment: env)
        #expect(r.status == 0)
        #expect(!r.stdout.contains("Resuming"))
        let start = try #require(heardFirst)
        #expect(abs(start) < 1, "started at \(start) s")
    }

    @Test func aDamagedStateFileIsIgnoredWithAWarning() throws {
        let chirp = try GaplessFixtures.positionChirp()
        let (env, file) = stateHome()
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        for garbage in [Data("{\"\(chirp.path)\": {\"posi".utf8), Data((0..<512).map { UInt8($0 % 251) })] {
            try garbage.write(to: file)
            let r = try Run.command(
                Paths.playheadBinary(), ["--ao=null", "--no-mpris", "--end=0.5", chirp.path], environment: env,
                timeout: 20)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stderr == "playhead: \(file.path): the resume state is damaged; ignored (it will be rewritten)\n")
            #expect(!r.stdout.contains("Resuming"))
        }
        // A short item is never remembered; a finished one forgets its position.
        let tone = try Fixtures.tone(seconds: 1)
        try JSONSerialization.data(withJSONObject: [chirp.path: ["position": 100.0]]).write(to: file)
        let end = try Run.command(
            Paths.playheadBinary(), ["--ao=null", "--no-mpris", "--start=298", chirp.path, tone.path],
            environment: env, timeout: 20)
        #expect(end.status == 0)
        let left = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any]
        #expect(left?.isEmpty == true, "\(String(describing: left))")
    }

    /// A file replaced since by another of a different size (a shorter recording under the same name) starts from
    /// its beginning, without "Resuming": the position saved with the old file's size is not taken. (It resumed at
    /// 03:20 in a file of 20 s and played nothing, exit 0.) The same file still resumes.
    @Test func aFileReplacedSinceStartsFromTheBeginning() throws {
        let chirp = try GaplessFixtures.positionChirp()
        let short = try Fixtures.make("position-chirp-20s.mp3", ["-i", chirp.path, "-t", "20", "-c", "copy"])
        let (env, file) = stateHome()
        let episode = Paths.scratch("replaced").appendingPathComponent("episode.mp3")
        try FileManager.default.copyItem(at: chirp, to: episode)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: episode.path)[.size] as? Int)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try JSONSerialization.data(withJSONObject: [episode.path: ["position": 200.0, "size": size]]).write(to: file)
        for replaced in [false, true] {
            if replaced {
                try FileManager.default.removeItem(at: episode)
                try FileManager.default.copyItem(at: short, to: episode)
            }
            let (r, heard) = try playOnSink(["--length=2", episode.path], environment: env)
            #expect(r.status == 0, "\(r.stderr)")
            #expect(r.stdout.contains("Resuming") == !replaced, "\(r.stdout)")
            let heardAt = try #require(heard, "nothing heard (replaced: \(replaced))")
            #expect(abs(heardAt - (replaced ? 0 : 200)) < 1, "heard at \(heardAt) s (replaced: \(replaced))")
        }
    }

    @Test func nextPreviousKeysAndTheStatusLine() throws {
        let folder = Paths.scratch("keys")
        let urls = try zip(["a", "b", "c"], [440, 660, 880]).map { name, f in
            let url = folder.appendingPathComponent("\(name).wav")
            try FileManager.default.copyItem(at: try Fixtures.tone(seconds: 6, frequency: f, ext: "wav"), to: url)
            return url
        }
        let sink = try TestSink()
        let log = folder.appendingPathComponent("events.jsonl")
        // a: > (to b), < within 3 s (back to a), > (b), then after 4 s < (restart b), then q.
        let r = try runInTerminal(
            ["--ao=pulse", "--no-mpris", "--audio-device=\(sink.name)", "--log-json=\(log.path)"] + urls.map(\.path),
            keys: [(1.5, ">"), (1.5, "<"), (1.5, ">"), (4.0, "<"), (1.0, "q")], tail: 1)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.contains("[1/3] a.wav"), "\(r.stdout.suffix(300))")
        #expect(r.stdout.contains("next: b.wav"), "\(r.stdout.suffix(300))")
        #expect(r.stdout.contains("[2/3] b.wav"))
        #expect(AudioAnalysis.toneSequence(sink.stopRecording()) == [440, 660, 440, 660])
        let events = try String(contentsOf: log, encoding: .utf8)
        #expect(events.contains("\"event\":\"seek-started\""), "the late < restarted b with a seek: \(events)")
        #expect(!events.contains("tone-880") && !events.contains("c.wav\",\"time\""), "c never played")
    }
}
