import Foundation
import PlayheadTestSupport
import Testing

/// What the command writes (`--ao=wav:PATH`, `--log-json=PATH`) never costs the user a file, and what it prints
/// never crashes it. Found by a QA pass: the WAV export was a new file renamed over PATH (a FIFO, `/dev/null` as
/// root, a symlink or a user's notes became a WAV file; the input itself when named as the output), `--log-json`
/// emptied an input named as the log and waited forever on a FIFO nobody read, and a message to a closed standard
/// error trapped.
@Suite(.serialized) struct OutputFileCommandTests {
    func play(_ arguments: [String], timeout: Double = 30) throws -> Run.Result {
        try Run.command(Paths.playheadBinary(), ["--vo=null", "--no-mpris"] + arguments, timeout: timeout)
    }

    /// A scratch folder, removed afterwards by the caller.
    func folder(_ name: String) throws -> URL {
        let f = Paths.scratch(name)
        try FileManager.default.createDirectory(at: f, withIntermediateDirectories: true)
        return f
    }

    @Test func aFileOfAnotherKindIsNotOverwritten() throws {
        let dir = try folder("outputs-kept")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tone = try Fixtures.tone(seconds: 1, ext: "wav")
        let notes = dir.appendingPathComponent("notes.txt")
        for flag in ["--ao=wav:", "--log-json="] {
            try "IMPORTANT USER DATA\n".write(to: notes, atomically: false, encoding: .utf8)
            let r = try play([flag + notes.path] + (flag.hasPrefix("--ao") ? [] : ["--ao=null"]) + [tone.path])
            #expect(r.status == 2, "\(flag): exit \(r.status); \(r.stderr)")
            #expect(r.stderr.contains("not overwritten"), "\(flag): \(r.stderr)")
            #expect(try String(contentsOf: notes, encoding: .utf8) == "IMPORTANT USER DATA\n", "\(flag)")
        }
        // A previous export or log is written over, as a second run of the same command expects.
        let wav = dir.appendingPathComponent("out.wav")
        for _ in 0..<2 { #expect(try play(["--ao=wav:" + wav.path, tone.path]).status == 0) }
        let seconds = Double(try GaplessFixtures.samples(of: wav).count) / Double(GaplessFixtures.sampleRate)
        #expect(abs(seconds - 1) < 0.05, "the second export holds \(seconds) s")
    }

    /// A WAV export that cannot be written is a usage error naming the option, before anything plays, as a log
    /// that cannot be is (it was the input's failure: exit 1, without the option's name).
    @Test func aWAVExportThatCannotBeWrittenIsAUsageError() throws {
        let dir = try folder("output-unwritable")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tone = try Fixtures.tone(seconds: 1, ext: "wav")
        let missing = dir.appendingPathComponent("no-such-folder/out.wav").path
        for (path, reason) in [(missing, "No such file or directory"), (dir.path, "Is a directory")] {
            let r = try play(["--ao=wav:" + path, tone.path])
            #expect(r.status == 2, "\(path): exit \(r.status); \(r.stderr)")
            #expect(r.stderr == "playhead: --ao=wav: \(path): \(reason)\n", "\(r.stderr)")
        }
    }

    @Test func anInputIsNeverTheOutput() throws {
        let dir = try folder("output-input")
        defer { try? FileManager.default.removeItem(at: dir) }
        let input = dir.appendingPathComponent("song.wav")
        try FileManager.default.copyItem(at: try Fixtures.tone(seconds: 1, ext: "wav"), to: input)
        let before = try Data(contentsOf: input)
        // The same file by another name too: a hard link.
        let link = dir.appendingPathComponent("link.wav")
        try FileManager.default.linkItem(at: input, to: link)
        for output in [input.path, link.path] {
            let r = try play(["--ao=wav:" + output, input.path])
            #expect(r.status == 2 && r.stderr.contains("also an input"), "\(output): exit \(r.status); \(r.stderr)")
        }
        #expect(try Data(contentsOf: input) == before, "the input changed")
    }

    /// A FIFO stays a FIFO and its reader gets the export; a symlink is followed, not replaced; a file keeps its
    /// mode. A FIFO no program reads is one error line at once (it waited for ever).
    @Test func specialFilesStayWhatTheyAre() throws {
        let dir = try folder("output-special")
        defer { try? FileManager.default.removeItem(at: dir) }
        let tone = try Fixtures.tone(seconds: 1, ext: "wav")
        let fifo = dir.appendingPathComponent("fifo")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let copy = dir.appendingPathComponent("from-fifo.wav")
        let reader = try Run.command(
            "bash",
            [
                "-c",
                "cat '\(fifo.path)' > '\(copy.path)' & sleep 0.3; '\(try Paths.playheadBinary())' "
                    + "--vo=null --no-mpris --ao=wav:'\(fifo.path)' '\(tone.path)'; s=$?; wait; exit $s",
            ], timeout: 30)
        #expect(reader.status == 0, "\(reader.stderr)")
        var st = stat()
        #expect(lstat(fifo.path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFIFO, "the FIFO was replaced")
        let heard = Double(try GaplessFixtures.samples(of: copy).count) / Double(GaplessFixtures.sampleRate)
        #expect(abs(heard - 1) < 0.05, "the reader got \(heard) s")

        let target = dir.appendingPathComponent("target.wav")
        let link = dir.appendingPathComponent("link.wav")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: target)
        #expect(try play(["--ao=wav:" + link.path, tone.path]).status == 0)
        #expect(lstat(link.path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFLNK, "the symlink was replaced")
        #expect(FileManager.default.fileExists(atPath: target.path), "the symlink's target was not written")

        let secret = dir.appendingPathComponent("secret.wav")
        #expect(try play(["--ao=wav:" + secret.path, tone.path]).status == 0)
        #expect(chmod(secret.path, 0o600) == 0)
        #expect(try play(["--ao=wav:" + secret.path, tone.path]).status == 0)
        #expect(
            stat(secret.path, &st) == 0 && st.st_mode & 0o777 == 0o600,
            "mode now \(String(st.st_mode & 0o777, radix: 8))")

        let unread = dir.appendingPathComponent("unread")
        #expect(mkfifo(unread.path, 0o644) == 0)
        let r = try play(["--ao=null", "--log-json=" + unread.path, tone.path], timeout: 10)
        #expect(r.status == 2 && r.stderr.contains("a pipe no program reads"), "exit \(r.status); \(r.stderr)")
        #expect(r.seconds < 6, "took \(r.seconds) s (its reader has 3 s to come)")
    }

    /// Messages to a closed standard error, or to a pipe whose reader is gone, are lost, not a crash.
    @Test func aClosedStandardErrorIsNotACrash() throws {
        let dir = try folder("closed-stderr")
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = dir.appendingPathComponent("many-missing.m3u")
        try (1...200).map { "missing-\($0).wav" }.joined(separator: "\n")
            .write(to: list, atomically: true, encoding: .utf8)
        let bin = try Paths.playheadBinary()
        for command in [
            "'\(bin)' --vo=null --ao=null --no-mpris '\(dir.path)/nothing.wav' 2>&-; echo $?",
            "'\(bin)' --vo=null --ao=null --no-mpris '\(list.path)' 2>&1 | { read -r _; }; echo ${PIPESTATUS[0]}",
        ] {
            let r = try Run.command("bash", ["-c", command], timeout: 30)
            #expect(
                r.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1", "\(command): \(r.stdout) \(r.stderr)")
        }
    }
}
