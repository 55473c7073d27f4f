import Foundation
import PlayheadTestSupport
import Testing

/// Issue 18, crashes: numbers from the command line and from `resume.json` that trapped the Swift runtime (exit
/// 132), and `--log-json` on a full file system. Each must end in a clear line, or be ignored with a warning.
@Suite(.serialized) struct HostileNumberTests {
    /// `playhead ARGS`, with the playing options every test here uses.
    func play(_ arguments: [String], environment: [String: String] = [:], timeout: Double = 30) throws -> Run.Result {
        try Run.command(
            Paths.playheadBinary(), ["--ao=null", "--vo=null", "--no-mpris"] + arguments, environment: environment,
            timeout: timeout)
    }

    /// The `playhead:` lines of stderr.
    func errorLines(_ r: Run.Result) -> [Substring] {
        r.stderr.split(separator: "\n").filter { $0.hasPrefix("playhead:") }
    }

    @Test(arguments: [
        "--start=1e16", "--start=1e300", "--start=inf", "--end=1e16", "--length=1e19", "--start=99999999999:00:00",
        "--network-timeout=1e300", "--network-timeout=inf", "--hls-bitrate=1e308M", "--hls-max-resolution=1e300x1e300",
        // Read as times or numbers by the parser's laxness (a QA pass): four fields, 60 minutes, a fraction of an
        // hour, hexadecimal (`Double` reads it), and a length that plays nothing.
        "--start=1:1:1:1", "--end=1:2:3:4", "--start=1:60", "--start=1.5:00", "--speed=0x1", "--volume=0x10",
        "--sub-delay=0x3", "--length=0",
    ])
    func outOfRangeOptionIsAUsageError(_ option: String) throws {
        let tone = try Fixtures.tone(seconds: 1)
        let r = try play([option, tone.path])
        let name = String(option.prefix { $0 != "=" })
        #expect(r.status == 2, "\(option): exit \(r.status) (132 is a trap); stderr: \(r.stderr)")
        let lines = errorLines(r)
        #expect(lines.count == 1, "\(option): expected one usage line, got: \(r.stderr)")
        #expect(lines.first?.contains(name) == true, "\(option): the error does not name \(name): \(r.stderr)")
    }

    @Test func largestAcceptedStartPlaysNothingAndEnds() throws {
        // At the limit the option is accepted: the start is past the end, so nothing plays; no trap.
        let tone = try Fixtures.tone(seconds: 1)
        let r = try play(["--start=1000000000", tone.path])
        #expect(r.status == 0 || r.status == 1, "exit \(r.status); stderr: \(r.stderr)")
    }

    /// A private state folder whose `resume.json` gives `position` (a JSON value, as text) for `file`, and `size`
    /// when given.
    func stateHome(position: String, size: String? = nil, for file: URL) throws -> (env: [String: String], file: URL) {
        let home = Paths.scratch("state")
        let json = home.appendingPathComponent("playhead/resume.json")
        try FileManager.default.createDirectory(at: json.deletingLastPathComponent(), withIntermediateDirectories: true)
        let key = try JSONSerialization.data(withJSONObject: [file.path], options: [.withoutEscapingSlashes])
        let keyText = String(decoding: key, as: UTF8.self).dropFirst().dropLast()
        let sizeText = size.map { ", \"size\": \($0)" } ?? ""
        try Data("{\(keyText): {\"position\": \(position)\(sizeText)}}".utf8).write(to: json)
        return (["XDG_STATE_HOME": home.path], json)
    }

    /// Plays the resumable chirp to 2 s with a `resume.json` entry of `position` and `size` (JSON text): it must not
    /// resume, and must say so in one warning naming the file. `what` names the case in messages.
    func expectIgnoredWithOneWarning(position: String, size: String? = nil, what: String) throws {
        // A long file (over 3 minutes, so it is resumable), stopped at 2 s with --end: resume.json is read at start.
        let chirp = try GaplessFixtures.positionChirp()
        let (env, json) = try stateHome(position: position, size: size, for: chirp)
        let r = try play(["--untimed", "--end=2", chirp.path], environment: env)
        #expect(r.status == 0, "\(what): exit \(r.status) (132 is a trap); stderr: \(r.stderr)")
        let lines = errorLines(r)
        #expect(lines.count == 1, "\(what): expected one warning, got: \(r.stderr)")
        #expect(lines.first?.contains(json.path) == true, "the warning does not name \(json.path): \(r.stderr)")
        #expect(!r.stdout.contains("Resuming"), "\(what): resumed: \(r.stdout)")
    }

    @Test(arguments: ["1e16", "1e308", "-5", "\"ten\"", "9.3e18", "[]"])
    func untrustedResumePositionIsIgnoredWithOneWarning(_ position: String) throws {
        try expectIgnoredWithOneWarning(position: position, what: "position \(position)")
    }

    /// A file size in the entry that is not a whole number of bytes: the entry cannot tell the file it was left in
    /// from another, and is ignored with the same warning. (It resumed, the size unchecked, without a word.)
    @Test(arguments: ["12.5", "-1", "\"big\"", "1e30", "null"])
    func untrustedResumeSizeIsIgnoredWithOneWarning(_ size: String) throws {
        try expectIgnoredWithOneWarning(position: "100", size: size, what: "size \(size)")
        // The same entry with the file's own size resumes.
        let chirp = try GaplessFixtures.positionChirp()
        let bytes = try FileManager.default.attributesOfItem(atPath: chirp.path)[.size] as? Int ?? 0
        let (env, _) = try stateHome(position: "100", size: "\(bytes)", for: chirp)
        let good = try play(["--untimed", "--end=102", chirp.path], environment: env)
        #expect(good.stdout.contains("Resuming"), "did not resume with the file's size: \(good.stdout) \(good.stderr)")
    }

    /// `--start` past the end plays nothing and says so; `--end` not after `--start`, and a negative time, are
    /// usage errors that say why.
    @Test func timesOutsideTheFileAreSaid() throws {
        let tone = try Fixtures.tone(seconds: 3, frequency: 590)
        let past = try play(["--start=40", tone.path])
        #expect(past.status == 0, "exit \(past.status); stderr: \(past.stderr)")
        #expect(errorLines(past) == ["playhead: \(tone.path): --start=00:40 is past its end (00:03)"], "\(past.stderr)")
        for options in [["--start=5", "--end=3"], ["--start=5", "--end=5"], ["--end=0"]] {
            let r = try play(options + [tone.path])
            #expect(r.status == 2, "\(options): exit \(r.status)")
            #expect(errorLines(r).first?.contains("must come after --start") == true, "\(options): \(r.stderr)")
        }
        let negative = try play(["--length=-1", tone.path])
        #expect(negative.status == 2 && negative.stderr.contains("is negative"), "\(negative.stderr)")
    }

    @Test func validResumeEntriesSurviveABadOne() throws {
        let chirp = try GaplessFixtures.positionChirp()
        let (env, json) = try stateHome(position: "1e308", for: chirp)
        // Add a good entry for another long file beside the bad one.
        let other = try Fixtures.make(
            "silence-200s.mp3", ["-f", "lavfi", "-i", "anullsrc=r=48000:cl=mono:d=200", "-c:a", "libmp3lame"])
        var object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        object[other.path] = ["position": 42.0]
        try JSONSerialization.data(withJSONObject: object).write(to: json)
        let r = try play(["--untimed", "--end=43", other.path], environment: env)
        #expect(r.status == 0, "exit \(r.status); stderr: \(r.stderr)")
        #expect(r.stdout.contains("Resuming \(other.path) at 00:42"), "stdout: \(r.stdout); stderr: \(r.stderr)")
    }

    @Test func logJSONOnAFullFileSystemWarnsOnceAndKeepsPlaying() throws {
        // A file size limit of 1 KiB makes the log's writes fail (EFBIG, SIGXFSZ ignored) after a few events, as
        // a full disk (ENOSPC) does; the old `FileHandle.write` trapped.
        // 20 plays of a 0.1 s tone: a few hundred bytes of events each, so the limit is hit in the third.
        let tone = try Fixtures.tone(seconds: 0.1)
        let log = Paths.scratch("full").appendingPathComponent("events.jsonl")
        let command =
            try "trap '' XFSZ; ulimit -f 1; exec '\(Paths.playheadBinary())' --ao=null --no-mpris "
            + "--loop-file=19 --log-json='\(log.path)' '\(tone.path)'"
        let r = try Run.command("bash", ["-c", command], timeout: 30)
        #expect(r.status == 0, "exit \(r.status) (132 is a trap); stderr: \(r.stderr)")
        let lines = errorLines(r)
        #expect(lines.count == 1, "expected one warning, got: \(r.stderr)")
        #expect(lines.first?.contains("--log-json") == true && lines.first?.contains(log.path) == true, "\(r.stderr)")
        // It played on to the end of the twentieth play (2 s, paced, as --ao=null is).
        #expect(r.seconds > 1.8, "ended after \(r.seconds) s")
        let size = (try FileManager.default.attributesOfItem(atPath: log.path)[.size] as? Int) ?? 0
        #expect(size > 0 && size <= 1024, "log size \(size)")
    }
}
