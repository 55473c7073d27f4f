import Foundation
import PlayheadTestSupport
import Testing

/// The command in a terminal (keys, status line) and `playhead probe`.
@Suite(.serialized) struct TerminalAndProbeTests {
    /// Runs `playhead ARGS` on a pseudo-terminal (`script`), typing `keys` as (delay, text) pairs.
    func runInTerminal(_ arguments: [String], keys: [(Double, String)]) throws -> Run.Result {
        // The input stays open 7 s after the last key unless `playhead` ended: longer than the tone, so a `q` that
        // did not work shows as an `ended` event.
        try Run.inTerminal([try Paths.playheadBinary()] + arguments, keys: keys, tail: 7, timeout: 30)
    }

    @Test func keysPauseAndQuit() throws {
        let tone = try Fixtures.tone(seconds: 6)
        let log = Paths.scratch("keys").appendingPathComponent("e.jsonl")
        let r = try runInTerminal(
            ["--ao=null", "--log-json=\(log.path)", tone.path],
            keys: [(1.0, " "), (0.5, " "), (0.5, "]"), (0.5, "q")])
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        // The status line was drawn, paused once.
        #expect(r.stdout.contains("▶ 00:0"), "\(r.stdout)")
        #expect(r.stdout.contains("⏸"), "\(r.stdout)")
        #expect(r.stdout.contains("x1.10"), "speed up key: \(r.stdout)")
        let events = try String(contentsOf: log, encoding: .utf8)
        #expect(events.contains("\"rate\":0"), "space did not pause: \(events)")
        #expect(!events.contains("\"ended\""), "played to the end despite q")
    }

    @Test func tagsAndFileNamesCannotDriveTheTerminal() throws {
        // A title holding escape sequences (clear the screen, set the window's title) and a file name holding one
        // reached the terminal as they were; each control character now shows as `?`.
        let esc = "\u{1B}"
        let tagged = try Fixtures.make(
            "escape-title.mp3",
            [
                "-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-metadata",
                "title=Evil\(esc)[2J\(esc)]0;pwned\u{7}Title",
            ])
        let missing = Paths.scratch("escape-name").appendingPathComponent("x\(esc)[1m.mp3").path
        let r = try runInTerminal(["--ao=null", "--no-mpris", tagged.path, missing], keys: [])
        #expect(r.stdout.contains("Evil?[2J?]0;pwned?Title"), "the title not shown: \(r.stdout.suffix(600))")
        #expect(r.stdout.contains("x?[1m.mp3: no such file"), "the name not shown: \(r.stdout.suffix(600))")
        for sequence in ["\(esc)[2J", "\(esc)]0;", "\(esc)[1m", "\u{7}"] {
            #expect(!r.stdout.contains(sequence), "\(sequence.debugDescription) reached the terminal")
        }
        // The error is written over the status line, not after it on the same line.
        #expect(r.stdout.contains("\r\(esc)[Jplayhead: "), "\(r.stdout.suffix(300).debugDescription)")
    }

    @Test func theStatusLineFitsTheTerminal() throws {
        // Two entries, the first with a long title, in the 80 columns a terminal that does not say its size is taken
        // to have: each redraw within 79 columns (a longer line wrapped, and every redraw left a line behind).
        let long = String(repeating: "Long title ", count: 12)
        let first = try Fixtures.make(
            "long-title.mp3", ["-f", "lavfi", "-i", "sine=frequency=440:duration=1", "-metadata", "title=\(long)"])
        let second = try Fixtures.tone(seconds: 1, ext: "mp3")
        let r = try runInTerminal(["--ao=null", "--no-mpris", first.path, second.path], keys: [])
        #expect(r.status == 0, "\(r.stdout.suffix(400))")
        let redraws = r.stdout.components(separatedBy: "\r\u{1B}[J").dropFirst().map {
            $0.split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
        }
        // The status lines (the "Playing ..." lines above them are whole lines: they may wrap).
        let statuses = redraws.filter { $0.contains(" / 00:0") }
        #expect(statuses.contains { $0.hasPrefix("[1/2] Long title") }, "\(r.stdout.suffix(400))")
        #expect(statuses.contains { $0.contains("[==") }, "no progress bar: \(statuses.last ?? "")")
        let widest = statuses.max { $0.count < $1.count } ?? ""
        #expect(widest.count <= 79, "\(widest.count) columns: \(widest.debugDescription)")
    }

    @Test func noStatusLineWithoutATerminal() throws {
        let tone = try Fixtures.tone(seconds: 1)
        let r = try Run.command(Paths.playheadBinary(), ["--ao=null", tone.path], timeout: 20)
        #expect(r.status == 0)
        #expect(r.stdout.isEmpty, "printed \(r.stdout)")
    }

    @Test func probePrintsAPlaylistAndItsJSON() throws {
        let playlist = Paths.corpora.appendingPathComponent(
            "hls/videojs-m3u8-parser/test/fixtures/integration/master.m3u8")
        let r = try Run.command(Paths.playheadBinary(), ["probe", playlist.path])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stdout.lowercased().contains("variant"), "\(r.stdout)")
        let j = try Run.command(Paths.playheadBinary(), ["probe", "--json", playlist.path])
        #expect(j.status == 0, "\(j.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(j.stdout.utf8)) as? [String: Any]
        #expect(object != nil, "not JSON: \(j.stdout.prefix(200))")
        let bad = try Run.command(Paths.playheadBinary(), ["probe", "/nonexistent/x.m3u8"])
        #expect(bad.status == 1)
        #expect(bad.stderr.hasPrefix("playhead: /nonexistent/x.m3u8"), "\(bad.stderr)")
    }

    /// A sparse file of `size` bytes that begins with `head`.
    func sparseFile(_ name: String, head: String, size: UInt64) throws -> URL {
        let url = Fixtures.file(name, bytes: Array(head.utf8))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: size)
        try handle.close()
        return url
    }

    @Test func probeDoesNotReadAWholeMediaFile() throws {
        // 8 GiB (sparse): it was read into memory whole (3 GiB took 15 s and 3 GiB of memory) to say it is not a
        // playlist. Not a playlist, it is opened as media: an MP4 header and nothing else, one line at once.
        let big = try sparseFile("big.mp4", head: "\u{0}\u{0}\u{0}\u{20}ftypisom", size: 8 << 30)
        let r = try Run.command(Paths.playheadBinary(), ["probe", big.path], timeout: 20)
        #expect(r.status == 1, "exit \(r.status): \(r.stderr)")
        #expect(
            r.stderr
                == "playhead: \(big.path): an MP4 without its index (moov atom not found): cut short, or not yet fully downloaded\n",
            "\(r.stderr)")
        #expect(r.seconds < 10, "took \(r.seconds) s")
        // A "playlist" past 64 MiB is refused, not read on.
        let huge = try sparseFile("huge.m3u8", head: "#EXTM3U\n", size: 65 << 20)
        let h = try Run.command(Paths.playheadBinary(), ["probe", huge.path], timeout: 20)
        #expect(h.status == 1 && h.stderr.contains("larger than 64 MiB"), "exit \(h.status): \(h.stderr)")
    }

    @Test func probeHangsUpOnAMediaURL() throws {
        // Over HTTP the whole body was downloaded into memory for up to 10 s (and then "timed out").
        let folder = Paths.scratch("probe-origin")
        let big = try sparseFile("big.mp4", head: "\u{0}\u{0}\u{0}\u{20}ftypisom", size: 8 << 30)
        try FileManager.default.moveItem(at: big, to: folder.appendingPathComponent("big.mp4"))
        let origin = try TestOrigin(serving: folder)
        let url = origin.url("big.mp4").absoluteString
        let r = try Run.command(Paths.playheadBinary(), ["probe", url], timeout: 20)
        #expect(
            r.status == 1 && r.stderr.hasPrefix("playhead: \(url): an MP4 without its index"),
            "exit \(r.status): \(r.stderr)")
        #expect(r.seconds < 5, "took \(r.seconds) s")
        // Hung up on: no body was sent whole but a 4 KiB range (the media probe's sniff). Which body's end the origin
        // logs first is a race (a hang-up shows when its next write fails).
        let deadline = Date().addingTimeInterval(5)
        while Date() < deadline && !origin.bodies.contains(where: { $0.hasSuffix("aborted") }) {
            Thread.sleep(forTimeInterval: 0.05)
        }
        let bodies = origin.bodies
        #expect(bodies.contains { $0.hasSuffix("aborted") }, "the origin sent: \(bodies)")
        #expect(
            !bodies.contains { $0.hasSuffix("complete") && !$0.hasSuffix(" 4096 complete") },
            "the origin sent: \(bodies)")
    }
}
