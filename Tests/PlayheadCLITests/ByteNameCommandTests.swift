import Foundation
import PlayheadTestSupport
import Testing

/// File names that are not UTF-8 (legal on Linux, as old archives and Windows copies have them) wherever a name
/// reaches the player: in a folder, as an option's value, beside the input, in a playlist, in a `file:` URL. Only
/// a name given alone as an argument played before; the rest were skipped, refused or read as other names. And
/// how the entries of a folder or playlist given relative are named.
@Suite(.serialized) struct ByteNameCommandTests {
    /// `name` as bytes: each U+00xx character one byte (so "caf\u{E9}" is the Latin-1 name `caf\xE9`).
    static func bytes(_ name: String) -> [UInt8] { name.unicodeScalars.map { UInt8($0.value) } }

    /// Creates `path` (bytes) as a folder, or as a file holding `contents`.
    static func make(_ path: [UInt8], contents: Data? = nil) {
        let cPath = (path + [0]).map { CChar(bitPattern: $0) }
        guard let contents else {
            #expect(mkdir(cPath, 0o755) == 0, "mkdir \(String(decoding: path, as: UTF8.self))")
            return
        }
        let fd = open(cPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        #expect(fd >= 0, "create \(String(decoding: path, as: UTF8.self))")
        _ = contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    /// Runs `bash -c COMMAND` where COMMAND holds raw bytes (through a script file: arguments are text).
    static func bash(_ command: [UInt8], in folder: URL, timeout: Double = 30) throws -> Run.Result {
        let script = folder.appendingPathComponent("run.sh")
        try Data(command).write(to: script)
        return try Run.command("bash", [script.path], timeout: timeout)
    }

    /// The frequencies heard in `wav` in pieces of `seconds`, rounded to 10 Hz; silent pieces left out.
    static func tones(_ wav: URL, seconds: Double) -> [Int] {
        let samples = AudioAnalysis.wavSamples(wav)
        let piece = Int(seconds * 48_000)
        return stride(from: 0, to: samples.count, by: piece).compactMap { start -> Int? in
            // The middle of each piece: the joins between files are not exactly on the boundaries.
            let middle = Array(
                samples[min(samples.count, start + piece / 4)..<min(samples.count, start + piece * 3 / 4)])
            guard AudioAnalysis.audibleSeconds(middle) > 0 else { return nil }
            return Int((AudioAnalysis.frequency(middle) / 10).rounded()) * 10
        }
    }

    /// A folder named in Latin-1 holding a Latin-1 file and a Latin-1 subfolder plays all three of its files in
    /// name order (Foundation's listing skipped such names: only `b.wav` played).
    @Test func aFolderPlaysTheFilesWhoseNamesAreNotUTF8() throws {
        let dir = Paths.scratch("byte-folder")
        let folder = Self.bytes(dir.path + "/F\u{E9}")
        Self.make(folder)
        Self.make(folder + Self.bytes("/d\u{E9}"))
        Self.make(
            folder + Self.bytes("/b.wav"),
            contents: try Data(contentsOf: Fixtures.tone(seconds: 1, frequency: 300, ext: "wav")))
        Self.make(
            folder + Self.bytes("/caf\u{E9}.wav"),
            contents: try Data(contentsOf: Fixtures.tone(seconds: 1, frequency: 600, ext: "wav")))
        Self.make(
            folder + Self.bytes("/d\u{E9}/x.wav"),
            contents: try Data(contentsOf: Fixtures.tone(seconds: 1, frequency: 900, ext: "wav")))
        Self.make(folder + Self.bytes("/cover\u{E9}.jpg"), contents: Data("not media".utf8))
        let out = dir.appendingPathComponent("out.wav")
        let log = dir.appendingPathComponent("log.jsonl")
        let r = try Self.bash(
            Self.bytes(
                "exec '\(try Paths.playheadBinary())' --vo=null --no-mpris --ao=wav:'\(out.path)' --log-json='\(log.path)' '"
            )
                + folder + Self.bytes("'"), in: dir)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        #expect(Self.tones(out, seconds: 1) == [300, 600, 900], "\(Self.tones(out, seconds: 1))")
        // The log names the files as the messages do (it said /proc/self/fd/N).
        let events = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        let ended = events.split(separator: "\n").filter { $0.contains("\"ended\"") }
        #expect(ended.count == 3, "\(events)")
        let name = "\(dir.path)/F\u{FFFD}/caf\u{FFFD}.wav".replacingOccurrences(of: "/", with: "\\/")
        #expect(ended.count == 3 && ended[1].contains(name), "\(ended)")
        #expect(!events.contains("proc"), "\(events)")

        // An empty one is named by its name, not by /proc/self/fd/N.
        Self.make(Self.bytes(dir.path + "/E\u{E9}"))
        let empty = try Self.bash(
            Self.bytes("exec '\(try Paths.playheadBinary())' --ao=null --no-mpris '\(dir.path)/E") + [0xE9, 0x27],
            in: dir)
        #expect(
            empty.status == 1 && empty.stderr.contains("\(dir.path)/E\u{FFFD}: no media files in the folder"),
            "exit \(empty.status): \(empty.stderr)")
    }

    /// A playlist written on this system in Latin-1 names its Latin-1 files by their bytes (they were read as
    /// Latin-1 text, naming files that are not there); a line naming no such file is still read as Latin-1, for a
    /// playlist from Windows whose files were renamed in UTF-8 on the way. M3U and PLS alike; and a `file:` URL
    /// with the name's bytes percent-encoded (what Now Playing publishes for such a file) plays.
    @Test func playlistsAndFileURLsNameFilesByTheirBytes() throws {
        let dir = Paths.scratch("byte-playlist")
        let base = Self.bytes(dir.path + "/")
        Self.make(
            base + Self.bytes("caf\u{E9}.wav"),
            contents: try Data(contentsOf: Fixtures.tone(seconds: 1, frequency: 300, ext: "wav")))
        try FileManager.default.copyItem(
            at: Fixtures.tone(seconds: 1, frequency: 600, ext: "wav"), to: dir.appendingPathComponent("th\u{E9}.wav"))
        Self.make(base + Self.bytes("list.m3u"), contents: Data(Self.bytes("#EXTM3U\ncaf\u{E9}.wav\nth\u{E9}.wav\n")))
        Self.make(
            base + Self.bytes("list.pls"),
            contents: Data(Self.bytes("[playlist]\nFile1=th\u{E9}.wav\nFile2=caf\u{E9}.wav\nNumberOfEntries=2\n")))
        let binary = try Paths.playheadBinary()
        for (list, heard) in [("list.m3u", [300, 600]), ("list.pls", [600, 300])] {
            let out = dir.appendingPathComponent("\(list).wav")
            let r = try Self.bash(
                Self.bytes("exec '\(binary)' --no-mpris --ao=wav:'\(out.path)' '\(dir.path)/\(list)'"), in: dir)
            #expect(r.status == 0, "\(list): exit \(r.status): \(r.stderr)")
            #expect(Self.tones(out, seconds: 1) == heard, "\(list): \(Self.tones(out, seconds: 1))")
        }
        let out = dir.appendingPathComponent("url.wav")
        let r = try Self.bash(
            Self.bytes("exec '\(binary)' --no-mpris --ao=wav:'\(out.path)' 'file://\(dir.path)/caf%E9.wav'"), in: dir)
        #expect(r.status == 0, "file URL: exit \(r.status): \(r.stderr)")
        #expect(Self.tones(out, seconds: 1) == [300], "file URL: \(Self.tones(out, seconds: 1))")
    }

    /// Subtitles named in Latin-1 are shown: beside a Latin-1 video of the same name (`--sub-auto` looked in
    /// /proc/self/fd), and given as `--sub-file=NAME` (refused as "not a readable file": only whole arguments
    /// were read as bytes).
    @Test func subtitleFilesNamedInLatin1AreShown() throws {
        let dir = Paths.scratch("byte-subtitles")
        let base = Self.bytes(dir.path + "/")
        let video = try Data(contentsOf: Fixtures.positionedCues().video)
        Self.make(base + Self.bytes("caf\u{E9}.mp4"), contents: video)
        Self.make(
            base + Self.bytes("caf\u{E9}.srt"), contents: Data("1\n00:00:00,000 --> 00:00:05,000\nBonjour\n".utf8))
        Self.make(base + Self.bytes("s\u{E9}.srt"), contents: Data("1\n00:00:00,000 --> 00:00:05,000\nSalut\n".utf8))
        try video.write(to: dir.appendingPathComponent("plain.mp4"))
        let binary = try Paths.playheadBinary()
        let runs: [(arguments: [UInt8], text: String)] = [
            (Self.bytes("'\(dir.path)/caf") + [0xE9] + Self.bytes(".mp4'"), "Bonjour"),
            (Self.bytes("--sub-file='\(dir.path)/s") + [0xE9] + Self.bytes(".srt' '\(dir.path)/plain.mp4'"), "Salut"),
        ]
        for (arguments, text) in runs {
            let script = dir.appendingPathComponent("terminal.sh")
            try Data(
                Self.bytes("exec '\(binary)' --ao=null --vo=null --no-mpris --no-resume --length=1.5 ") + arguments
            ).write(to: script)
            let r = try Run.inTerminal(["bash", script.path], keys: [], tail: 6, timeout: 30)
            #expect(r.status == 0 && r.stdout.contains(text), "\(text): \(r.stdout.suffix(400))")
            #expect(!r.stdout.contains("not a readable file"), "\(r.stdout.suffix(400))")
        }
    }

    /// The files of a folder or a playlist given relative are named from it as given (`Album/bad.mp3`,
    /// `lists/../Album/bad.mp3`: a `..` stays, only the file system knows where it leads), as a relative input is:
    /// they were named by absolute paths.
    @Test func entriesOfARelativeFolderOrPlaylistAreNamedFromIt() throws {
        let dir = Paths.scratch("relative-entries")
        let album = dir.appendingPathComponent("Album")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("lists"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: album, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Fixtures.tone(seconds: 0.3, ext: "wav"), to: album.appendingPathComponent("good.wav"))
        try Data(repeating: 7, count: 20_000).write(to: album.appendingPathComponent("bad.mp3"))
        try "#EXTM3U\n../Album/bad.mp3\n../Album/gone.mp3\n".write(
            to: dir.appendingPathComponent("lists/x.m3u"), atomically: true, encoding: .utf8)
        let binary = try Paths.playheadBinary()
        for (input, expected) in [
            ("Album", ["playhead: Album/bad.mp3: "]),
            (
                "lists/x.m3u",
                ["playhead: lists/x.m3u: lists/../Album/gone.mp3: no such file", "playhead: lists/../Album/bad.mp3: "]
            ),
        ] {
            let r = try Run.command(
                "bash", ["-c", "cd '\(dir.path)' && exec '\(binary)' --ao=null --vo=null --no-mpris \(input)"],
                timeout: 30)
            let lines = r.stderr.split(separator: "\n").map(String.init)
            #expect(r.status == 1, "\(input): exit \(r.status): \(r.stderr)")
            #expect(lines.count == expected.count, "\(input): \(r.stderr)")
            for (line, start) in zip(lines, expected) {
                #expect(line.hasPrefix(start), "\(input): \(line)")
            }
            #expect(!r.stderr.contains(dir.path), "\(input): \(r.stderr)")
        }
    }

    /// Each such name holds a descriptor while the player runs: a folder of more of them than the process may
    /// hold open plays those it could open and says how many it left out, and keeps descriptors for the rest of
    /// the program (here the log, opened after the folder is read: it failed with "Too many open files").
    @Test func moreSuchNamesThanDescriptorsAreSaid() throws {
        let dir = Paths.scratch("byte-many")
        let folder = Self.bytes(dir.path + "/many")
        Self.make(folder)
        let tone = try Data(contentsOf: Fixtures.tone(seconds: 0.05, ext: "wav"))
        for i in 1...300 { Self.make(folder + Self.bytes("/t\(1000 + i)\u{E9}.wav"), contents: tone) }
        let log = dir.appendingPathComponent("log.jsonl")
        let out = dir.appendingPathComponent("out.wav")
        let r = try Self.bash(
            Self.bytes(
                "ulimit -n 300; exec '\(try Paths.playheadBinary())' --untimed --ao=wav:'\(out.path)' --vo=null "
                    + "--no-mpris --log-json='\(log.path)' '\(dir.path)/many'"), in: dir, timeout: 60)
        let lines = r.stderr.split(separator: "\n")
        #expect(r.status == 1 && lines.count == 1, "exit \(r.status): \(r.stderr)")
        let left = lines.first.flatMap { line in
            line.range(
                of: #"many: ([0-9]+) files named in another encoding than UTF-8 are left out"#,
                options: .regularExpression
            )
            .map { Int(line[$0].dropFirst(6).prefix { $0.isNumber }) ?? 0 }
        }
        // The files played, by the sound written: 2,400 samples each.
        let played = Int((Double(AudioAnalysis.wavSamples(out).count) / 2_400).rounded())
        #expect(
            left != nil && played > 100 && played + (left ?? 0) == 300,
            "played \(played), left out \(left ?? -1): \(r.stderr)")
        // The log, opened after the folder was read, was written.
        #expect(FileManager.default.fileExists(atPath: log.path))
    }

    /// A `..` after a link leads where the file system says, to the parent of the link's target (`ls` agrees):
    /// in a folder given, a playlist's entry, an input. Taken as text (a URL's dot segments) it led back to the
    /// link's own folder: another file played, or "no such file".
    @Test func aParentStepAfterALinkIsTakenAsTheFileSystemTakesIt() throws {
        let dir = Paths.scratch("parent-steps")
        let fm = FileManager.default
        for folder in ["Album", "deep/sub", "deep/Album"] {
            try fm.createDirectory(at: dir.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        try fm.copyItem(
            at: Fixtures.tone(seconds: 1, frequency: 300, ext: "wav"), to: dir.appendingPathComponent("Album/1.wav"))
        try fm.copyItem(
            at: Fixtures.tone(seconds: 1, frequency: 600, ext: "wav"),
            to: dir.appendingPathComponent("deep/Album/1.wav"))
        try fm.createSymbolicLink(atPath: dir.appendingPathComponent("lk").path, withDestinationPath: "deep/sub")
        try "../Album/1.wav\n".write(
            to: dir.appendingPathComponent("deep/sub/pl.m3u"), atomically: true, encoding: .utf8)
        let binary = try Paths.playheadBinary()
        for input in ["lk/../Album", "lk/pl.m3u", "lk/../Album/1.wav", "\(dir.path)/lk/../Album/1.wav"] {
            let out = dir.appendingPathComponent("out.wav")
            let r = try Run.command(
                "bash",
                ["-c", "cd '\(dir.path)' && exec '\(binary)' --vo=null --no-mpris --ao=wav:'\(out.path)' '\(input)'"],
                timeout: 30)
            #expect(r.status == 0, "\(input): exit \(r.status): \(r.stderr)")
            #expect(Self.tones(out, seconds: 1) == [600], "\(input): \(Self.tones(out, seconds: 1))")
        }
    }
}
