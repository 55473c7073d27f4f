import Foundation
import PlayheadTestSupport
import Testing

/// Every kind of bad input ends in one clear line naming the file or URL, a non-zero exit, and no hang.
struct BadInputCommandTests {
    func expectOneLineError(_ input: String, mentions words: [String], timeout: Double = 20) throws {
        let r = try Run.command(Paths.playheadBinary(), ["--ao=null", "--vo=null", input], timeout: timeout)
        #expect(r.status == 1, "exit \(r.status) for \(input); stderr: \(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("playhead:") }
        #expect(lines.count == 1, "expected one error line, got: \(r.stderr)")
        #expect(r.stderr.contains(input), "the error does not name \(input): \(r.stderr)")
        for w in words { #expect(r.stderr.lowercased().contains(w), "'\(w)' missing from: \(r.stderr)") }
        #expect(r.seconds < timeout - 1, "took \(r.seconds) s")
    }

    @Test func missingFile() throws {
        try expectOneLineError("/nonexistent/playhead-missing.mp3", mentions: ["no such file"])
    }

    /// A folder plays its media files; one without any says so (it was "is a directory" when folders were not
    /// played).
    @Test func folderWithoutMedia() throws {
        try expectOneLineError(Paths.scratch("dir").path, mentions: ["no media files in the folder"])
    }

    /// An input given by a relative path is named by that path, as typed (the lines named the absolute path the
    /// engine opened, which the user did not type), each entry by its own spelling.
    @Test func aRelativeInputIsNamedAsGiven() throws {
        let dir = Paths.scratch("relative")
        defer { try? FileManager.default.removeItem(at: dir) }
        try FileManager.default.createDirectory(
            at: dir.appendingPathComponent("sub"), withIntermediateDirectories: true)
        try String(repeating: "just some text\n", count: 200).write(
            to: dir.appendingPathComponent("notes.mp4"), atomically: true, encoding: .utf8)
        try "junk".write(to: dir.appendingPathComponent("bad.m3u8"), atomically: true, encoding: .utf8)
        let r = try Run.command(
            Paths.playheadBinary(),
            ["--ao=null", "--vo=null", "notes.mp4", "sub/../missing.mp3", "./notes.mp4", "bad.m3u8"], timeout: 20,
            in: dir)
        #expect(r.status == 1, "exit \(r.status); stderr: \(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("playhead:") }
        #expect(lines.count == 4, "\(r.stderr)")
        // Each entry by its own spelling, the same file given twice too; a playlist by its path, not its URL.
        let named = lines.map { $0.split(separator: ":", maxSplits: 2).dropFirst().first.map(String.init) ?? "" }
        #expect(named == [" notes.mp4", " sub/../missing.mp3", " ./notes.mp4", " bad.m3u8"], "\(r.stderr)")
        #expect(lines.dropFirst().first == "playhead: sub/../missing.mp3: no such file", "\(r.stderr)")
        #expect(!r.stderr.contains(dir.path) && !r.stderr.contains("file:"), "\(r.stderr)")
    }

    @Test func emptyFile() throws {
        try expectOneLineError(Fixtures.file("empty.mp4", bytes: []).path, mentions: ["empty"])
    }

    @Test func textFile() throws {
        let url = Fixtures.file("notes.mp3", bytes: Array(String(repeating: "just some text\n", count: 200).utf8))
        try expectOneLineError(url.path, mentions: ["not a media file"])
    }

    /// Named .mp4 but text, or zeros: FFmpeg's MP4 reader, chosen by the name, finds no index. It was "an MP4
    /// without its index (moov atom not found): cut short, or not yet fully downloaded", which sends the user to
    /// download it again.
    @Test func textOrZerosNamedMP4AreNotCalledACutMP4() throws {
        let text = Fixtures.file("notes.mp4", bytes: Array(String(repeating: "just some text\n", count: 200).utf8))
        try expectOneLineError(text.path, mentions: ["not a media file", "(text, not an mp4)"])
        // Zeros: a download whose space was reserved and never written.
        let zeros = Fixtures.file("zeros.mp4", bytes: Array(repeating: 0, count: 5000))
        try expectOneLineError(zeros.path, mentions: ["not a media file", "(its start is all zeros: not written yet"])
        // Noise.
        let noise = Fixtures.file("noise.mp4", bytes: (0..<5000).map { UInt8(truncatingIfNeeded: 0xFF - $0 % 7) })
        try expectOneLineError(noise.path, mentions: ["not a media file", "(no mp4 box at its start, not an mp4)"])
        for r in [text, zeros, noise] {
            let out = try Run.command(Paths.playheadBinary(), ["--ao=null", "--vo=null", r.path], timeout: 20)
            #expect(!out.stderr.contains("cut short"), "\(out.stderr)")
        }
    }

    @Test func truncatedFile() throws {
        // An MP4 cut before its index (a partial download): FFmpeg cannot find the moov atom, and says so only in
        // its log. It was "not a media file Playhead can read (invalid data found when processing input)".
        let tone = try Fixtures.make(
            "tone-moov-at-end.mp4",
            ["-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-c:a", "aac"])
        let data = try Data(contentsOf: tone)
        let cut = Fixtures.file("truncated.mp4", bytes: Array(data.prefix(data.count / 2)))
        try expectOneLineError(cut.path, mentions: ["moov atom not found", "cut short"])
    }

    @Test func aDownloadCutBeforeItsFirstSampleSaysSo() throws {
        // An M4A whose index comes first (as a streaming download's does), cut where its media data begins: FFmpeg
        // opens it and reads no sample. It was "not a media file".
        let tone = try Fixtures.make(
            "tone-faststart.m4a",
            ["-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-c:a", "aac", "-movflags", "+faststart"])
        let data = try Data(contentsOf: tone)
        let mdat = try #require(data.range(of: Data("mdat".utf8)), "no mdat box in \(tone.path)")
        let cut = Fixtures.file("cut-at-mdat.m4a", bytes: Array(data.prefix(mdat.upperBound)))
        try expectOneLineError(cut.path, mentions: ["cut short"])
    }

    @Test func aMatroskaFileCutWhereItsFirstClusterBeginsSaysSo() throws {
        // Its headers, then nothing. It was "end of file".
        let mkv = try Fixtures.make(
            "tone.mkv", ["-f", "lavfi", "-i", "sine=frequency=440:duration=3", "-c:a", "libvorbis"])
        let data = try Data(contentsOf: mkv)
        let cluster = try #require(data.range(of: Data([0x1F, 0x43, 0xB6, 0x75])), "no cluster in \(mkv.path)")
        let cut = Fixtures.file("cut-at-cluster.mkv", bytes: Array(data.prefix(cluster.lowerBound)))
        try expectOneLineError(cut.path, mentions: ["no media data", "cut short"])
    }

    @Test func aDecoderThatRefusesTheStreamIsSaidInWords() throws {
        // FLAC's test bench: a block size FFmpeg's decoder refuses at open. It said "avcodec_open2: Invalid data...".
        let path = Paths.corpora.appendingPathComponent("media/flac-test-files/faulty/08 - blocksize 65536.flac").path
        try #require(FileManager.default.fileExists(atPath: path), "corpus file \(path)")
        try expectOneLineError(path, mentions: ["cannot decode the audio stream (flac): invalid data"])
        let r = try Run.command(Paths.playheadBinary(), ["--ao=null", "--vo=null", path], timeout: 20)
        #expect(!r.stderr.contains("avcodec_"), "an FFmpeg function's name in: \(r.stderr)")
    }

    @Test func truncatedCorpusFilesNeverCrash() throws {
        for name in ["fixture2.mkv", "fixture-isom.mp4", "fixture-babys-songbook.m4b.m4a"] {
            let path = Paths.corpora.appendingPathComponent("media/file-type/fixture/\(name)").path
            #expect(FileManager.default.fileExists(atPath: path), "corpus file \(path)")
            let r = try Run.command(Paths.playheadBinary(), ["--ao=null", "--vo=null", "--untimed", path], timeout: 20)
            // Either it plays what is there (0) or reports a clear error (1); never a crash or a hang.
            #expect(r.status == 0 || r.status == 1, "\(name): exit \(r.status), \(r.stderr)")
            if r.status == 1 { #expect(r.stderr.contains(name)) }
        }
    }

    @Test func unsupportedCodec() throws {
        // A WAV whose format tag (0x9999) names no codec FFmpeg knows.
        var wav: [UInt8] = Array("RIFF".utf8) + le32(36 + 4800) + Array("WAVEfmt ".utf8) + le32(16)
        wav += le16(0x9999) + le16(2) + le32(48_000) + le32(192_000) + le16(4) + le16(16)
        wav += Array("data".utf8) + le32(4800) + [UInt8](repeating: 0, count: 4800)
        try expectOneLineError(Fixtures.file("odd.wav", bytes: wav).path, mentions: ["unsupported"])
    }

    @Test func unreachableHost() throws {
        try expectOneLineError("http://127.0.0.1:9/nothing.mp3", mentions: ["connection refused"])
    }

    @Test(arguments: ["http://playhead-test.invalid/song.mp3", "https://playhead-test.invalid/film.mp4"])
    func hostThatDoesNotResolve(_ url: String) throws {
        // FFmpeg's own answer was "input/output error" (`.invalid` never resolves: RFC 6761).
        try expectOneLineError(url, mentions: ["could not resolve host: playhead-test.invalid"], timeout: 40)
    }

    @Test func tlsToAPlainServer() throws {
        // FFmpeg's own answer was "input/output error"; the TLS library's words say what failed.
        let origin = try TestOrigin(serving: Paths.fixtures)
        let url = origin.url("tone-440hz-1.0s.m4a").absoluteString.replacingOccurrences(of: "http://", with: "https://")
        try expectOneLineError(url, mentions: ["ssl"])
    }

    @Test func emptyArgumentIsAUsageError() throws {
        // `playhead "$FILE"` with FILE unset played the current folder's "is a directory" error.
        let r = try Run.command(Paths.playheadBinary(), ["--ao=null", "--vo=null", ""], timeout: 20)
        #expect(r.status == 2, "exit \(r.status); stderr: \(r.stderr)")
        #expect(r.stderr.contains("empty argument"), "\(r.stderr)")
    }

    /// A 404 (or 403, 410...) is asked once: the look at the URL's first bytes was refused, and FFmpeg's open
    /// asked again.
    @Test func http404() throws {
        let origin = try TestOrigin(serving: Paths.fixtures)
        try expectOneLineError(origin.url("no-such-file.mp3").absoluteString, mentions: ["404"])
        #expect(origin.requests.count == 1, "\(origin.requests)")
        let forbidden = origin.url("silence.wav", ["status": "403"]).absoluteString
        try expectOneLineError(forbidden, mentions: ["403"])
        #expect(origin.requests.filter { $0.contains("silence.wav") }.count == 1, "\(origin.requests)")
    }

    @Test func aBadInputIsReportedAndTheNextOnePlays() throws {
        let tone = try Fixtures.tone(seconds: 1)
        let log = Paths.scratch("log").appendingPathComponent("e.jsonl")
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=null", "--log-json=\(log.path)", "/nonexistent/a.mp3", tone.path],
            timeout: 20)
        #expect(r.status == 1)
        #expect(r.stderr.contains("/nonexistent/a.mp3"))
        let text = try String(contentsOf: log, encoding: .utf8)
        #expect(text.contains("\"ended\""), "the second input did not play to its end: \(text)")
    }

    /// A bad entry between two good ones (it fails while it is opened ahead, during the first): reported once,
    /// under its own name in the log, and the one after it plays. (The command ended after the first entry.)
    @Test func aBadEntryInTheMiddleIsSkipped() throws {
        let folder = Paths.scratch("bad-middle")
        let empty = folder.appendingPathComponent("empty.mp3")
        _ = FileManager.default.createFile(atPath: empty.path, contents: Data())
        let log = folder.appendingPathComponent("e.jsonl")
        let sink = try TestSink()
        let r = try Run.command(
            Paths.playheadBinary(),
            [
                "--audio-device=\(sink.name)", "--vo=null", "--no-mpris", "--log-json=\(log.path)",
                try Fixtures.tone(seconds: 1.5, frequency: 440).path, empty.path,
                try Fixtures.tone(seconds: 1.5, frequency: 660).path,
            ], timeout: 30)
        #expect(r.status == 1, "exit \(r.status): \(r.stderr)")
        #expect(r.stderr == "playhead: \(empty.path): the file is empty\n", "\(r.stderr)")
        let tones = AudioAnalysis.toneSequence(sink.stopRecording())
        #expect(tones == [440, 660], "tones \(tones)")
        let errors = try String(contentsOf: log, encoding: .utf8).split(separator: "\n").filter {
            $0.contains("\"event\":\"error\"")
        }
        #expect(errors.count == 1 && errors[0].contains("empty.mp3"), "\(errors)")
    }
}

private func le32(_ v: UInt32) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
private func le16(_ v: UInt16) -> [UInt8] { withUnsafeBytes(of: v.littleEndian) { Array($0) } }
