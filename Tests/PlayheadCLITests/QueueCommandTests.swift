import Foundation
import PlayheadTestSupport
import Testing

/// `playhead` with several inputs and playlists: one gapless queue, playlist files, order options, keys.
@Suite(.serialized) struct QueueCommandTests {
    /// Tones of 0.6 s (long enough for `AudioAnalysis.toneSequence`, which needs two 0.2 s windows of one
    /// frequency) at 440, 660 and 880 Hz (WAV) copied into `folder` as a.wav, b.wav, c.wav.
    func tones(in folder: URL, seconds: Double = 0.6) throws -> [URL] {
        try zip(["a", "b", "c"], [440, 660, 880]).map { name, f in
            let url = folder.appendingPathComponent("\(name).wav")
            try FileManager.default.copyItem(at: try Fixtures.tone(seconds: seconds, frequency: f, ext: "wav"), to: url)
            return url
        }
    }

    func play(_ arguments: [String], on sink: TestSink, timeout: Double = 30) throws -> Run.Result {
        try Run.command(
            Paths.playheadBinary(),
            ["--ao=pulse", "--vo=null", "--no-mpris", "--audio-device=\(sink.name)"] + arguments,
            timeout: timeout)
    }

    @Test func inputsPlayAsOneGaplessQueue() throws {
        let parts = try GaplessFixtures.parts("wav")
        let flac = try GaplessFixtures.parts("flac")
        let sink = try TestSink()
        let r = try play([parts[0].path, flac[1].path, parts[2].path], on: sink)
        #expect(r.status == 0, "\(r.stderr)")
        let master = try GaplessFixtures.samples(of: GaplessFixtures.master())
        let match = try #require(GaplessFixtures.match(sink.stopRecording(), master))
        #expect(match.missingStart < 960)
        #expect(
            match.differingSamples == 0,
            "\(match.mismatches.count) samples differ, first at \(match.mismatches.prefix(3))"
        )
        #expect(match.silentAfter)
    }

    @Test func m3uWithRelativePathsURLsAndMissingEntries() throws {
        let folder = Paths.scratch("m3u")
        let t = try tones(in: folder)
        let served = try HLSFixtures.root().appendingPathComponent("queue-660.wav")
        try? FileManager.default.removeItem(at: served)
        try FileManager.default.copyItem(at: t[1], to: served)
        let sub = folder.appendingPathComponent("lists")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        let list = sub.appendingPathComponent("mix.m3u")
        try """
        #EXTM3U
        #EXTINF:1,First tone
        ../a.wav
        #EXTINF:-1,Over HTTP
        \(try HLSFixtures.url("queue-660.wav").absoluteString)
        gone.wav
        \(t[2].path)
        ../gone.wav
        """.write(to: list, atomically: true, encoding: .utf8)
        let sink = try TestSink()
        let r = try play([list.path], on: sink)
        #expect(r.status == 1, "a missing entry is a failure: \(r.stderr)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 2, "one line per missing entry: \(r.stderr)")
        #expect(lines.allSatisfy { $0.hasPrefix("playhead: \(list.path): ") && $0.contains("gone.wav: no such file") })
        #expect(AudioAnalysis.toneSequence(sink.stopRecording()) == [440, 660, 880])
    }

    @Test func plsPlaylist() throws {
        let folder = Paths.scratch("pls")
        _ = try tones(in: folder)
        let list = folder.appendingPathComponent("list.pls")
        try """
        [playlist]
        File1=c.wav
        Title1=Third
        File2=a.wav
        NumberOfEntries=2
        Version=2
        """.write(to: list, atomically: true, encoding: .utf8)
        let sink = try TestSink()
        let r = try play([list.path], on: sink)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(AudioAnalysis.toneSequence(sink.stopRecording()) == [880, 440])
    }

    @Test func selfIncludingEmptyAndUnreadablePlaylists() throws {
        let folder = Paths.scratch("loop")
        _ = try tones(in: folder)
        try "#EXTM3U\na.wav\ntwo.m3u\n".write(
            to: folder.appendingPathComponent("one.m3u"), atomically: true, encoding: .utf8)
        try "#EXTM3U\nb.wav\none.m3u\n".write(
            to: folder.appendingPathComponent("two.m3u"), atomically: true, encoding: .utf8)
        let sink = try TestSink()
        let r = try play([folder.appendingPathComponent("one.m3u").path], on: sink, timeout: 20)
        #expect(r.status == 1)
        #expect(r.stderr.contains("one.m3u: the playlist includes itself"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
        #expect(AudioAnalysis.toneSequence(sink.stopRecording()) == [440, 660])

        let empty = folder.appendingPathComponent("empty.m3u")
        try "#EXTM3U\n# nothing here\n".write(to: empty, atomically: true, encoding: .utf8)
        let e = try Run.command(Paths.playheadBinary(), ["--ao=null", empty.path], timeout: 10)
        #expect(e.status == 1)
        #expect(e.stderr == "playhead: \(empty.path): the playlist is empty\n")
        // A folder named like a playlist is a folder (its media files play): here it has none, which is said.
        let named = folder.appendingPathComponent("folder.m3u")
        try FileManager.default.createDirectory(at: named, withIntermediateDirectories: true)
        let u = try Run.command(Paths.playheadBinary(), ["--ao=null", named.path], timeout: 10)
        #expect(u.status == 1)
        #expect(u.stderr == "playhead: \(named.path): no media files in the folder\n", "\(u.stderr)")
    }

    @Test func playlistStartLoopAndShuffle() throws {
        let folder = Paths.scratch("order")
        let t = try tones(in: folder)
        let sink = try TestSink()
        let r = try play(["--playlist-start=1", "--loop-playlist=1"] + t.map(\.path), on: sink)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(AudioAnalysis.toneSequence(sink.stopRecording()) == [660, 880, 440, 660, 880])

        let shuffled = try TestSink()
        let s = try play(["--shuffle"] + t.map(\.path), on: shuffled)
        #expect(s.status == 0)
        let heard = AudioAnalysis.toneSequence(shuffled.stopRecording())
        #expect(heard.sorted() == [440, 660, 880], "each entry once: \(heard)")

        let looped = try TestSink()
        let l = try play(["--loop-file=2", t[0].path], on: looped)
        #expect(l.status == 0)
        let samples = looped.stopRecording()
        #expect(abs(AudioAnalysis.soundSeconds(samples) - 1.8) < 0.02, "\(AudioAnalysis.soundSeconds(samples)) s")
        #expect(AudioAnalysis.longestGap(samples) < 0.002, "--loop-file repeats gaplessly")
    }

    @Test func playlistTitlesReachNowPlaying() throws {
        let folder = Paths.scratch("titles")
        let t = try tones(in: folder)
        let list = folder.appendingPathComponent("titled.m3u")
        try "#EXTM3U\n#EXTINF:1,My Curated Title\n\(t[0].lastPathComponent)\n".write(
            to: list, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = ["--ao=null", "--loop-file=20", list.path]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try Run.start(p)
        defer { Run.kill(p) }
        var title = ""
        for _ in 0..<50 where title != "My Curated Title" {
            Thread.sleep(forTimeInterval: 0.1)
            title = try Run.command("playerctl", ["-p", "playhead", "metadata", "xesam:title"], timeout: 5).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(title == "My Curated Title")
    }

    @Test func anHLSPlaylistFileIsAStreamNotAList() throws {
        let ladder = try HLSFixtures.root().appendingPathComponent(try HLSFixtures.tsLadder())
        let sink = try TestSink()
        let r = try play(["--length=2", ladder.path], on: sink)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(AudioAnalysis.audibleSeconds(sink.stopRecording()) > 1.5)
    }
}
