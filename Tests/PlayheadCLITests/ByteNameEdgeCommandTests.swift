import Foundation
import PlayheadTestSupport
import Testing

/// Names that are not UTF-8 where the first pass left gaps (from a QA pass): the working folder so named, an
/// output so named, resume positions, playlists from Windows, and how such entries are named in messages.
@Suite(.serialized) struct ByteNameEdgeCommandTests {
    typealias T = ByteNameCommandTests

    /// Inside a folder whose name is not UTF-8, relative names are found: an input, a subfolder, a playlist,
    /// `--sub-file` and the WAV export (all were "no such file": Foundation read the folder's name lossily).
    @Test func relativeNamesWorkInAWorkingFolderNamedInLatin1() throws {
        let dir = Paths.scratch("byte-cwd")
        let folder = T.bytes(dir.path + "/Alb\u{E9}")
        T.make(folder)
        T.make(folder + T.bytes("/sub"))
        T.make(
            folder + T.bytes("/1.wav"),
            contents: try Data(contentsOf: Fixtures.tone(seconds: 1, frequency: 300, ext: "wav")))
        T.make(
            folder + T.bytes("/sub/a.wav"),
            contents: try Data(contentsOf: Fixtures.tone(seconds: 1, frequency: 600, ext: "wav")))
        T.make(folder + T.bytes("/p.m3u"), contents: Data("1.wav\n".utf8))
        T.make(folder + T.bytes("/given.srt"), contents: Data("1\n00:00:00,000 --> 00:00:01,000\nHi\n".utf8))
        let r = try T.bash(
            T.bytes("cd '") + folder
                + T.bytes(
                    "' && '\(try Paths.playheadBinary())' --vo=null --no-mpris --ao=wav:out.wav --sub-file=given.srt "
                        + "1.wav sub p.m3u && cp out.wav '\(dir.path)/out.wav'"), in: dir)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        let heard = T.tones(dir.appendingPathComponent("out.wav"), seconds: 1)
        #expect(heard == [300, 600, 300], "\(heard)")
    }

    /// A format FFmpeg knows only by its extension (raw µ-law, `.ul`: 44.1 kHz mono as FFmpeg reads it) plays when its name is not UTF-8: it was
    /// "not a media file" (FFmpeg opened `/proc/self/fd/N`, which has no extension).
    @Test func aFormatKnownByItsExtensionPlaysWhenNamedInLatin1() throws {
        let dir = Paths.scratch("byte-ext")
        let raw = try Fixtures.make(
            "tone-500hz-1s-44k.ul",
            ["-f", "lavfi", "-i", "sine=frequency=500:duration=1:sample_rate=44100", "-ac", "1", "-c:a", "pcm_mulaw"])
        T.make(T.bytes(dir.path + "/tone\u{E9}.ul"), contents: try Data(contentsOf: raw))
        let out = dir.appendingPathComponent("out.wav")
        let r = try T.bash(
            T.bytes(
                "exec '\(try Paths.playheadBinary())' --vo=null --no-mpris --ao=wav:'\(out.path)' '\(dir.path)/tone")
                + [0xE9] + T.bytes(".ul'"), in: dir)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        #expect(T.tones(out, seconds: 0.5) == [500, 500], "\(T.tones(out, seconds: 0.5))")
    }

    /// An output named in bytes that are not UTF-8 is refused in one line: it was created under another name (with
    /// U+FFFD where the bytes were).
    @Test func anOutputNamedInLatin1IsRefused() throws {
        let dir = Paths.scratch("byte-output")
        let tone = try Fixtures.tone(seconds: 0.3, ext: "wav")
        let binary = try Paths.playheadBinary()
        // Both are usage errors, said before anything plays (the export, opened as the sound starts, failed the
        // item: exit 1).
        for (option, status) in [("--log-json=", Int32(2)), ("--ao=wav:", 2)] {
            let r = try T.bash(
                T.bytes("exec '\(binary)' --vo=null --no-mpris \(option)'\(dir.path)/o") + [0xE9]
                    + T.bytes(".out' '\(tone.path)'"), in: dir)
            #expect(r.status == status, "\(option): exit \(r.status): \(r.stderr)")
            #expect(r.stderr.contains("a new file's name must be UTF-8"), "\(option): \(r.stderr)")
            let made = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix("o") }
            #expect(made.isEmpty, "\(option): created \(made)")
        }
    }

    /// Quitting a long file named in Latin-1 saves its position under its name's URL (nothing was saved: its
    /// /proc/self/fd/N names another file next time), and the next run resumes there.
    @Test func aFileNamedInLatin1Resumes() throws {
        let dir = Paths.scratch("byte-resume")
        let state = dir.appendingPathComponent("state")
        T.make(T.bytes(dir.path + "/chirp\u{E9}.mp3"), contents: try Data(contentsOf: GaplessFixtures.positionChirp()))
        let name = T.bytes("'\(dir.path)/chirp") + [0xE9] + T.bytes(".mp3'")
        let script = dir.appendingPathComponent("first.sh")
        try Data(
            T.bytes("export XDG_STATE_HOME='\(state.path)'; exec '\(try Paths.playheadBinary())' --ao=null --no-mpris ")
                + T.bytes("--start=198 ") + name
        ).write(to: script)
        let first = try Run.inTerminal(["bash", script.path], keys: [(2.0, "q")], tail: 1, timeout: 40)
        #expect(first.status == 0, "\(first.stdout.suffix(300))")
        let saved =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: state.appendingPathComponent("playhead/resume.json")))
            as? [String: [String: Double]]
        let position = try #require(
            saved?["file://\(dir.path)/chirp%E9.mp3"]?["position"], "saved: \(String(describing: saved))")
        #expect(abs(position - 200) < 1, "saved \(position)")

        let sink = try TestSink()
        let again = try T.bash(
            T.bytes("export XDG_STATE_HOME='\(state.path)'; exec '\(try Paths.playheadBinary())' --no-mpris ")
                + T.bytes("--ao=pulse --audio-device=\(sink.name) --end=\(Int(position) + 3) ") + name, in: dir)
        #expect(again.status == 0, "\(again.stderr)")
        let heard = try #require(ResumeAndQueueKeysTests().chirpPosition(sink.stopRecording()), "nothing heard")
        #expect(abs(heard - position) < 1, "resumed at \(heard) s, saved \(position) s")
    }

    /// Playlists as people have them: written on Windows (`Music\café.wav`, the file renamed in UTF-8 on the way),
    /// a byte-order mark before Latin-1 lines, and a missing entry named as the messages name bytes (U+FFFD, not
    /// Latin-1's é), `~/` as `$HOME`; and a folder given as `./` names its entries as the UTF-8 ones are
    /// (`zbad�.mp3`, not `.//zbad�.mp3`).
    @Test func windowsPlaylistsAndNamesInMessages() throws {
        let dir = Paths.scratch("byte-windows")
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("Music"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Fixtures.tone(seconds: 1, frequency: 300, ext: "wav"),
            to: dir.appendingPathComponent("Music/caf\u{E9}.wav"))
        T.make(
            T.bytes(dir.path + "/win.m3u"),
            contents: Data([0xEF, 0xBB, 0xBF] + T.bytes("#EXTM3U\r\nMusic\\caf\u{E9}.wav\r\nmiss\u{E9}.wav\r\n")))
        let binary = try Paths.playheadBinary()
        let out = dir.appendingPathComponent("out.wav")
        let r = try T.bash(
            T.bytes("cd '\(dir.path)' && exec '\(binary)' --vo=null --no-mpris --ao=wav:'\(out.path)' win.m3u"), in: dir
        )
        #expect(T.tones(out, seconds: 1) == [300], "\(T.tones(out, seconds: 1)): \(r.stderr)")
        #expect(
            r.status == 1 && r.stderr == "playhead: win.m3u: miss\u{FFFD}.wav: no such file (skipped)\n",
            "exit \(r.status): \(r.stderr)")

        // `~/` in a playlist is $HOME, as the shell takes it (it was the account's home).
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("home"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: Fixtures.tone(seconds: 1, frequency: 600, ext: "wav"), to: dir.appendingPathComponent("home/h.wav"))
        try "~/h.wav\n".write(to: dir.appendingPathComponent("home.m3u"), atomically: true, encoding: .utf8)
        let home = try T.bash(
            T.bytes(
                "cd '\(dir.path)' && HOME='\(dir.path)/home' exec '\(binary)' --vo=null --no-mpris "
                    + "--ao=wav:'\(out.path)' home.m3u"), in: dir)
        #expect(home.status == 0 && T.tones(out, seconds: 1) == [600], "\(home.stderr)")

        let folder = T.bytes(dir.path + "/DOT")
        T.make(folder)
        T.make(folder + T.bytes("/zbad\u{E9}.mp3"), contents: Data(repeating: 7, count: 20_000))
        let dot = try T.bash(
            T.bytes("cd '\(dir.path)/DOT' && exec '\(binary)' --vo=null --no-mpris --ao=null ./"), in: dir)
        #expect(dot.stderr.hasPrefix("playhead: zbad\u{FFFD}.mp3: "), "\(dot.stderr)")
    }
}
