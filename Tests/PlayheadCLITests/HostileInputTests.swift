import Foundation
import PlayheadTestSupport
import Testing

/// Issue 18, wrong answers to bad or unusual input: random bytes with a media name played "nothing" with exit 0,
/// a FIFO was "empty", standard input did not play, `/dev/zero` was "empty", and a file name that is not UTF-8
/// was "no such file".
@Suite(.serialized) struct HostileInputTests {
    /// `playhead ARGS` with the options every test here uses.
    func play(_ arguments: [String], timeout: Double = 30) throws -> Run.Result {
        try Run.command(
            Paths.playheadBinary(), ["--ao=null", "--vo=null", "--no-mpris"] + arguments, timeout: timeout)
    }

    func errorLines(_ r: Run.Result) -> [Substring] {
        r.stderr.split(separator: "\n").filter { $0.hasPrefix("playhead:") }
    }

    /// Deterministic noise (a fixed seed), so a failure can be replayed.
    func noise(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        }
    }

    @Test(arguments: ["mp3", "flac", "m4a", "ogg", "wav"])
    func randomBytesWithAMediaNameAreAnError(_ ext: String) throws {
        for seed in [UInt64(1), 2, 3] {
            let file = Fixtures.file("noise-\(seed).\(ext)", bytes: noise(100_000, seed: seed))
            let r = try play([file.path])
            #expect(r.status == 1, "\(file.lastPathComponent): exit \(r.status); stderr: \(r.stderr)")
            let lines = errorLines(r)
            #expect(lines.count == 1, "\(file.lastPathComponent): expected one error line, got: \(r.stderr)")
            #expect(lines.first?.contains(file.path) == true, "the error does not name \(file.path): \(r.stderr)")
        }
    }

    @Test(arguments: ["03 - wrong bit depth.flac", "11 - incorrect metadata block length.flac"])
    func corruptFLACTestFilesThatDecodeNothingAreErrors(_ name: String) throws {
        // Two of the FLAC test bench's faulty files, in which FFmpeg decodes no frame: they exited 0 at once.
        let path = Paths.corpora.appendingPathComponent("media/flac-test-files/faulty/\(name)").path
        try #require(FileManager.default.fileExists(atPath: path), "corpus file \(path)")
        let r = try play(["--untimed", path])
        #expect(r.status == 1, "\(name): exit \(r.status); stderr: \(r.stderr)")
        let lines = errorLines(r)
        #expect(lines.count == 1 && lines[0].contains(path), "\(name): \(r.stderr)")
    }

    @Test func randomBytesDoNotStopTheNextInput() throws {
        let bad = Fixtures.file("noise-9.mp3", bytes: noise(50_000, seed: 9))
        let tone = try Fixtures.tone(seconds: 0.5, ext: "flac")
        let log = Paths.scratch("noise").appendingPathComponent("e.jsonl")
        let r = try play(["--log-json=\(log.path)", bad.path, tone.path])
        #expect(r.status == 1, "exit \(r.status); stderr: \(r.stderr)")
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.contains("\"event\":\"ended\",\"input\":\"\\/"), "the tone did not play to its end: \(text)")
    }

    @Test(arguments: ["flac", "mp3", "m4a", "wav"])
    func aFIFOPlays(_ ext: String) throws {
        let tone = try Fixtures.tone(seconds: 1, ext: ext)
        let fifo = Paths.scratch("fifo").appendingPathComponent("pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        let log = fifo.deletingLastPathComponent().appendingPathComponent("e.jsonl")
        // `cat song > p & playhead p`, as the issue has it.
        let r = try Run.command(
            "bash",
            [
                "-c",
                "cat '\(tone.path)' > '\(fifo.path)' & exec '\(try Paths.playheadBinary())' --ao=null --no-mpris "
                    + "--log-json='\(log.path)' '\(fifo.path)'",
            ], timeout: 30)
        #expect(r.status == 0, "\(ext) through a FIFO: exit \(r.status); stderr: \(r.stderr)")
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(text.contains("\"first-audio\"") && text.contains("\"ended\""), "\(ext): \(text)")
        #expect(r.seconds > 0.8, "\(ext): a 1 s tone ended after \(r.seconds) s")
    }

    /// A FIFO nobody writes to: Ctrl-C (SIGINT) quits at once and cleanly. The open waits for a writer and nothing
    /// interrupts it, so the player sat out its 2 s wait for the stopped threads first.
    @Test func aFIFOWithoutAWriterQuitsAtOnce() throws {
        let fifo = Paths.scratch("fifo-alone").appendingPathComponent("pipe")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        // bash measures from the signal to the exit, in milliseconds.
        let r = try Run.command(
            "bash",
            [
                "-c",
                "'\(try Paths.playheadBinary())' --ao=null --no-mpris '\(fifo.path)' & pid=$!; sleep 1; "
                    + "t=$(date +%s%N); kill -INT $pid; wait $pid; s=$?; echo \"$s $(( ($(date +%s%N) - t) / 1000000 ))\"",
            ], timeout: 30)
        let words = r.stdout.split(separator: " ").compactMap {
            Int($0.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        #expect(words.count == 2 && words[0] == 0, "exit status and milliseconds: \(r.stdout); stderr: \(r.stderr)")
        #expect(words.count == 2 && words[1] < 1500, "quit \(words.last ?? -1) ms after Ctrl-C")
        var info = stat()
        #expect(stat(fifo.path, &info) == 0 && info.st_mode & S_IFMT == S_IFIFO, "the FIFO was replaced")
    }

    @Test(arguments: ["-", "/dev/stdin"])
    func standardInputPlays(_ name: String) throws {
        let tone = try Fixtures.tone(seconds: 1, ext: "flac")
        let log = Paths.scratch("stdin").appendingPathComponent("e.jsonl")
        let r = try Run.command(
            "bash",
            [
                "-c",
                "cat '\(tone.path)' | '\(try Paths.playheadBinary())' --ao=null --no-mpris --log-json='\(log.path)' "
                    + "'\(name)'",
            ], timeout: 30)
        #expect(r.status == 0, "\(name): exit \(r.status); stderr: \(r.stderr)")
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(text.contains("\"first-audio\"") && text.contains("\"ended\""), "\(name): \(text)")
        #expect(r.seconds > 0.8, "\(name): a 1 s tone ended after \(r.seconds) s")
    }

    /// Standard input is named as it was given: `-` (it was `/dev/stdin`, which the user did not type).
    @Test func standardInputIsNamedAsGiven() throws {
        let r = try Run.command(
            "bash", ["-c", "echo 'just text' | '\(try Paths.playheadBinary())' --ao=null --no-mpris -"], timeout: 30)
        #expect(r.status == 1, "exit \(r.status); stderr: \(r.stderr)")
        #expect(errorLines(r).count == 1 && r.stderr.hasPrefix("playhead: -: "), "\(r.stderr)")
    }

    @Test func devZeroIsAnHonestOneLineError() throws {
        let r = try play(["/dev/zero"], timeout: 30)
        #expect(r.status == 1, "exit \(r.status); stderr: \(r.stderr)")
        let lines = errorLines(r)
        #expect(lines.count == 1, "expected one error line, got: \(r.stderr)")
        #expect(lines.first?.contains("/dev/zero") == true, "\(r.stderr)")
        #expect(lines.first?.contains("empty") == false, "/dev/zero is not empty: \(r.stderr)")
        #expect(lines.first?.contains("not a media file") == true, "\(r.stderr)")
        #expect(r.seconds < 15, "took \(r.seconds) s")
    }

    /// A scratch file whose name has the byte 0xE9 (Latin-1 "é"), which is not UTF-8.
    func latin1Name(_ stem: String, in dir: URL) -> [CChar] {
        Array((dir.path + "/" + stem).utf8CString.dropLast()) + [CChar(bitPattern: 0xE9), 0]
    }

    /// Copies `source` to `dir/stem` + the byte 0xE9 (a name that is not UTF-8).
    func copyToLatin1Name(_ source: URL, _ stem: String, in dir: URL) throws {
        let data = try Data(contentsOf: source)
        let fd = open(latin1Name(stem, in: dir), O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0)
        _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    @Test func aFileNameThatIsNotUTF8Plays() throws {
        let tone = try Fixtures.tone(seconds: 0.5, ext: "flac")
        let dir = Paths.scratch("bytes")
        try copyToLatin1Name(tone, "caf", in: dir)
        // The name goes through the shell as bytes ($'...\xe9').
        let log = dir.appendingPathComponent("e.jsonl")
        let r = try Run.command(
            "bash",
            [
                "-c",
                "exec '\(try Paths.playheadBinary())' --ao=null --no-mpris --log-json='\(log.path)' "
                    + "$'\(dir.path)/caf\\xe9'",
            ], timeout: 30)
        #expect(r.status == 0, "exit \(r.status); stderr: \(r.stderr)")
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        #expect(text.contains("\"ended\""), "\(text)")
    }

    /// The window's title names such a file by its name, read lossily (it said "5", from `/proc/self/fd/5`).
    @Test func aFileNameThatIsNotUTF8TitlesTheWindow() throws {
        let dir = Paths.scratch("bytes")
        try copyToLatin1Name(try Fixtures.positionedCues().video, "film", in: dir)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        p.arguments = [
            "-c", "exec '\(try Paths.playheadBinary())' --ao=null --no-mpris --length=4 $'\(dir.path)/film\\xe9'",
        ]
        p.environment = TestDisplay.environment(display: try TestDisplay.name())
        try Run.start(p)
        defer { Run.kill(p) }
        let g = try TestDisplay.waitForWindow(titled: "film\u{FFFD} - playhead")
        #expect(g != nil, "no window titled 'film\u{FFFD} - playhead'")
    }

    /// Now Playing names such a file (without a title tag) as the window does: playerctl read "5"; its URL is the
    /// file's.
    @Test func aFileNameThatIsNotUTF8TitlesNowPlaying() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let dir = Paths.scratch("bytes")
        try copyToLatin1Name(try Fixtures.tone(seconds: 6, ext: "wav"), "song", in: dir)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/bin/bash")
        // Given relative, through a folder and back: the URL is the file's, as a UTF-8 name's is.
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        p.arguments = [
            "-c", "cd '\(dir.path)' && exec '\(try Paths.playheadBinary())' --ao=null --length=4 $'./sub/../song\\xe9'",
        ]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try Run.start(p)
        defer { Run.kill(p) }
        let title = metadata("xesam:title", once: { $0.contains("song") })
        #expect(title == "song\u{FFFD}", "title '\(title)'")
        // Its URL is its own name's, the byte percent-encoded (it was file:///proc/self/fd/N).
        let url = metadata("xesam:url")
        #expect(url == "file://\(dir.path)/song%E9", "url '\(url)'")
        // Such a URL, opened over MPRIS (`playerctl open`), plays that file (it was "no such file": an empty path).
        try copyToLatin1Name(try Fixtures.tone(seconds: 6, ext: "wav"), "other", in: dir)
        let open = try Run.command(
            "playerctl", ["-p", "playhead", "open", "file://\(dir.path)/other%E9"], timeout: 5)
        #expect(open.status == 0, "playerctl open: \(open.stderr)")
        let playing = metadata("xesam:url", once: { $0.contains("other") })
        #expect(playing == "file://\(dir.path)/other%E9", "url '\(playing)'")
        let newTitle = metadata("xesam:title")
        #expect(newTitle == "other\u{FFFD}", "title '\(newTitle)'")
    }

    /// What `playerctl` reads of `key` from the player, trimmed: once `ready` holds of it, or after 5 s.
    func metadata(_ key: String, once ready: (String) -> Bool = { _ in true }) -> String {
        var value = ""
        let deadline = Date().addingTimeInterval(5)
        repeat {
            value = (try? Run.command("playerctl", ["-p", "playhead", "metadata", key], timeout: 5).stdout) ?? ""
            value = value.trimmingCharacters(in: .whitespacesAndNewlines)
            if ready(value) { break }
            Thread.sleep(forTimeInterval: 0.1)
        } while Date() < deadline
        return value
    }

    @Test func aMissingFileNameThatIsNotUTF8IsReportedLossily() throws {
        let dir = Paths.scratch("bytes")
        let r = try Run.command(
            "bash", ["-c", "exec '\(try Paths.playheadBinary())' --ao=null --no-mpris $'\(dir.path)/gone\\xe9.mp3'"],
            timeout: 30)
        #expect(r.status == 1, "exit \(r.status); stderr: \(r.stderr)")
        let lines = errorLines(r)
        #expect(lines.count == 1, "\(r.stderr)")
        #expect(lines.first?.contains("\(dir.path)/gone\u{FFFD}.mp3: no such file") == true, "\(r.stderr)")
    }

    @Test(arguments: ["wav", "flac", "mp3"])
    func nothingToPlayBetweenStartAndEndIsNotAnError(_ ext: String) throws {
        // Media that decodes nothing because of where it starts or stops is still media: no "not a media file".
        // A start past the end is said as such, once; an end before the start, or a length of 0, is a usage error
        // (exit status 2, HostileNumberTests). Both played nothing without a word before.
        let tone = try Fixtures.tone(seconds: 1, ext: ext)
        for range in [["--start=100"], ["--start=100", "--length=5"]] {
            let r = try play(range + [tone.path])
            #expect(r.status == 0, "\(ext) \(range): exit \(r.status); stderr: \(r.stderr)")
            #expect(
                errorLines(r).allSatisfy { $0.hasSuffix("--start=01:40 is past its end (00:01)") },
                "\(ext) \(range): \(r.stderr)")
        }
    }

    @Test func aDamagedButNotMediaFileStillErrsAfterAGoodOne() throws {
        // Not media with an audio name after a good input: the good one plays, the bad one is reported.
        let tone = try Fixtures.tone(seconds: 0.3, ext: "wav")
        let bad = Fixtures.file("noise-5.flac", bytes: noise(30_000, seed: 5))
        let r = try play([tone.path, bad.path])
        #expect(r.status == 1, "exit \(r.status); stderr: \(r.stderr)")
        #expect(errorLines(r).count == 1 && r.stderr.contains(bad.path), "\(r.stderr)")
    }
}
