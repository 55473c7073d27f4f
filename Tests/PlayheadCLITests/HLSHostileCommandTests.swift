import Foundation
import PlayheadTestSupport
import Testing

/// `playhead` against origins that lie or never finish (issue 18): segments and playlists labelled `text/html` play,
/// a playlist that trickles forever is one error line after its time limit, and SIGTERM is obeyed at once meanwhile.
@Suite(.serialized) struct HLSHostileCommandTests {
    /// `bad/trickle.m3u8` on a new test origin, sent one line a second forever; the origin and the URL.
    func tricklingPlaylist() throws -> (TestOrigin, URL) {
        let dir = try HLSFixtures.badInputs()
        try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n"
            .write(to: dir.appendingPathComponent("trickle.m3u8"), atomically: true, encoding: .utf8)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        return (origin, origin.url("bad/trickle.m3u8", ["trickle": "1"]))
    }

    @Test func aPlaylistThatTricklesForeverIsOneErrorLineAfterThreeTimeOuts() throws {
        let (origin, url) = try tricklingPlaylist()
        let r = try Run.command(
            Paths.playheadBinary(),
            ["--ao=null", "--vo=null", "--no-mpris", "--network-timeout=2", url.absoluteString],
            timeout: 30)
        #expect(r.status == 1, "exit \(r.status); stderr: \(r.stderr)")
        let lines = r.stderr.split(separator: "\n").filter { $0.hasPrefix("playhead:") }
        #expect(lines.count == 1 && lines[0].contains(url.absoluteString), "\(r.stderr)")
        #expect(r.stderr.contains("did not finish within 6 s"), "\(r.stderr)")
        #expect(r.seconds > 5.5 && r.seconds < 9, "took \(r.seconds) s")
        _ = origin
    }

    /// A media file whose server never answers fails after the time-out once (the look at its first bytes and
    /// FFmpeg's open each waited the whole time-out: twice as long as asked).
    @Test func aServerThatNeverAnswersFailsAfterOneTimeOut() throws {
        let dir = try HLSFixtures.badInputs()
        try Data(repeating: 0, count: 1000).write(to: dir.appendingPathComponent("silent.mp4"))
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let url = origin.url("bad/silent.mp4", ["first_byte_delay": "60"])
        let arguments = ["--ao=null", "--vo=null", "--no-mpris", "--network-timeout=2", url.absoluteString]
        let r = try Run.command(Paths.playheadBinary(), arguments, timeout: 30)
        #expect(r.status == 1, "exit \(r.status); stderr: \(r.stderr)")
        #expect(r.stderr.contains("timed out"), "\(r.stderr)")
        #expect(r.seconds > 1.8 && r.seconds < 3.5, "took \(r.seconds) s for a 2 s time-out")
        _ = origin
    }

    /// A server that stops sending partway through an MP4 whose index is at its end is said to have timed out
    /// (it was "moov atom not found: cut short, or not yet fully downloaded", which sends the user to download it
    /// again), after the open's time limit (two time-outs: the connection is asked again once).
    @Test func aServerThatStopsSendingIsSaidToHaveTimedOut() throws {
        let video = try Fixtures.barsWithTone()
        let origin = try TestOrigin(serving: video.deletingLastPathComponent())
        let url = origin.url(
            video.lastPathComponent, ["stall_after": "20000", "stall_for": "60", "ranges": "no"])
        let r = try Run.command(
            Paths.playheadBinary(),
            ["--ao=null", "--vo=null", "--no-mpris", "--network-timeout=2", url.absoluteString], timeout: 30)
        #expect(r.status == 1, "exit \(r.status); stderr: \(r.stderr)")
        #expect(r.stderr.contains("timed out") && !r.stderr.contains("cut short"), "\(r.stderr)")
        #expect(r.seconds < 6.5, "took \(r.seconds) s for a 2 s time-out")
        _ = origin
    }

    @Test func sigtermEndsPlayheadAtOnceWhileAPlaylistTrickles() throws {
        let (origin, url) = try tricklingPlaylist()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        // The default 10 s time-out: the playlist's own limit (30 s) is far away.
        p.arguments = ["--ao=null", "--vo=null", "--no-mpris", url.absoluteString]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        try Run.start(p)
        defer { Run.kill(p) }
        var deadline = Date().addingTimeInterval(10)
        while Date() < deadline, origin.requests.isEmpty { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!origin.requests.isEmpty, "playhead never asked for the playlist")
        Thread.sleep(forTimeInterval: 1)
        #expect(p.isRunning, "playhead ended before the signal")
        let sent = Date()
        p.terminate()  // SIGTERM
        deadline = sent.addingTimeInterval(10)
        while Date() < deadline, p.isRunning { Thread.sleep(forTimeInterval: 0.01) }
        let seconds = Date().timeIntervalSince(sent)
        #expect(!p.isRunning && seconds < 1.5, "exited \(seconds) s after SIGTERM")
        // Quitting is not a failure (README: exit 0 when you quit).
        if !p.isRunning { #expect(p.terminationStatus == 0, "exit \(p.terminationStatus)") }
    }

    /// A segment's `EXT-X-BYTERANGE` of no bytes (or past the largest offset) trapped the player ("Range requires
    /// lowerBound <= upperBound"); the parser drops such a range with a warning, and the stream plays.
    @Test func aByteRangeOfNoBytesDoesNotCrashThePlayer() throws {
        _ = try HLSFixtures.stream(
            "byterange-6s", tone: 550, seconds: 6, audioOnly: false, ["-hls_flags", "single_file"])
        let dir = try HLSFixtures.badInputs()
        for range in ["0@487296", "9223372036854775807@9223372036854775807"] {
            try """
            #EXTM3U
            #EXT-X-VERSION:4
            #EXT-X-TARGETDURATION:2
            #EXTINF:2,
            #EXT-X-BYTERANGE:487296@0
            ../byterange-6s/index.ts
            #EXTINF:2,
            #EXT-X-BYTERANGE:\(range)
            ../byterange-6s/index.ts
            #EXT-X-ENDLIST

            """.write(to: dir.appendingPathComponent("no-bytes.m3u8"), atomically: true, encoding: .utf8)
            let origin = try TestOrigin(serving: try HLSFixtures.root())
            let r = try Run.command(
                Paths.playheadBinary(),
                ["--ao=null", "--vo=null", "--no-mpris", "--untimed", origin.url("bad/no-bytes.m3u8").absoluteString],
                timeout: 30)
            #expect(r.status == 0, "\(range): exit \(r.status); stderr: \(r.stderr)")
        }
    }

    /// A playlist from the network may not read the user's files: a segment named by a `file:` URL is not read
    /// (skipped as a segment that cannot be had: its 2 s pass in silence), as FFmpeg's HLS demuxer refuses it.
    @Test func aPlaylistFromTheNetworkCannotReadLocalFiles() throws {
        _ = try HLSFixtures.tsLadder()
        let ladder = try HLSFixtures.root().appendingPathComponent("ladder-ts/v0")
        let dir = try HLSFixtures.badInputs()
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let remote = origin.url("ladder-ts/v0").absoluteString
        try """
        #EXTM3U
        #EXT-X-TARGETDURATION:2
        #EXTINF:2,
        \(remote)/seg00.ts
        #EXTINF:2,
        \(ladder.appendingPathComponent("seg01.ts").absoluteString)
        #EXTINF:2,
        \(remote)/seg02.ts
        #EXT-X-ENDLIST

        """.write(to: dir.appendingPathComponent("local-file.m3u8"), atomically: true, encoding: .utf8)
        let folder = Paths.scratch("local-file")
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("out.wav")
        let r = try Run.command(
            Paths.playheadBinary(),
            [
                "--ao=wav:\(wav.path)", "--vo=null", "--no-mpris", origin.url("bad/local-file.m3u8").absoluteString,
            ], timeout: 30)
        #expect(r.status == 0, "exit \(r.status); stderr: \(r.stderr)")
        let samples = try GaplessFixtures.samples(of: wav)
        let seconds = Double(samples.count) / Double(GaplessFixtures.sampleRate)
        #expect(abs(seconds - 6) < 0.3, "\(seconds) s written")
        let heard = audibleSeconds(samples, from: 0)
        #expect(abs(heard - 4) < 0.3, "heard \(heard) s: the local segment was read (6 s)")
        let middle = audibleSeconds(samples, from: 2.2, to: 3.8)
        #expect(middle == 0, "\(middle) s heard where the local segment would play")
    }

    /// The item's first playlist is tried again as a failed segment is (`--hls-retries`): an origin that answers
    /// 503 once, or drops the connection once, is asked again and the stream plays (it failed at once). A 404 there
    /// is a wrong address: one request, one error line.
    @Test func theFirstPlaylistIsTriedAgainAfterATransientFailure() throws {
        let master = try HLSFixtures.tsLadder()
        for query in [["status": "503", "once": "1"], ["reset_after": "10", "once": "1"], ["status": "404"]] {
            let origin = try TestOrigin(serving: try HLSFixtures.root())
            let r = try Run.command(
                Paths.playheadBinary(),
                ["--ao=null", "--vo=null", "--no-mpris", "--untimed", origin.url(master, query).absoluteString],
                timeout: 30)
            let asked = origin.requests.filter { $0.contains("master.m3u8") }.count
            if query["status"] == "404" {
                #expect(r.status == 1 && r.stderr.contains("404"), "\(query): exit \(r.status); \(r.stderr)")
                #expect(asked == 1, "\(query): asked \(asked) times")
            } else {
                #expect(r.status == 0, "\(query): exit \(r.status); \(r.stderr)")
                #expect(asked == 2, "\(query): asked \(asked) times")
            }
        }
    }

    /// A segment of zeros (or any bytes without a TS sync byte) among MPEG-TS segments is read over: the demuxer
    /// says "call again" after skipping them, which ended the whole stream ("reading failed: resource temporarily
    /// unavailable", naming the playlist) before its first segment played. An empty playlist is said to be one
    /// (it waited 3 s for a live playlist to change).
    @Test func aSegmentOfZerosIsReadOverAndAnEmptyPlaylistIsSaid() throws {
        _ = try HLSFixtures.tsLadder()
        let dir = try HLSFixtures.badInputs()
        try Data(count: 1000).write(to: dir.appendingPathComponent("zeros.ts"))
        let segments = ["../ladder-ts/v0/seg00.ts", "zeros.ts", "../ladder-ts/v0/seg02.ts", "../ladder-ts/v0/seg03.ts"]
        try
            ("#EXTM3U\n#EXT-X-TARGETDURATION:2\n" + segments.map { "#EXTINF:2,\n\($0)\n" }.joined()
            + "#EXT-X-ENDLIST\n").write(to: dir.appendingPathComponent("zeros.m3u8"), atomically: true, encoding: .utf8)
        try Data().write(to: dir.appendingPathComponent("empty.m3u8"))
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let folder = Paths.scratch("zeros")
        defer { try? FileManager.default.removeItem(at: folder) }
        let wav = folder.appendingPathComponent("out.wav")
        let r = try Run.command(
            Paths.playheadBinary(),
            ["--ao=wav:\(wav.path)", "--vo=null", "--no-mpris", origin.url("bad/zeros.m3u8").absoluteString],
            timeout: 30)
        #expect(r.status == 0, "exit \(r.status); stderr: \(r.stderr)")
        let seconds = Double(try GaplessFixtures.samples(of: wav).count) / Double(GaplessFixtures.sampleRate)
        #expect(seconds > 5.8, "heard \(seconds) s of the three good segments' 6 s")
        let url = origin.url("bad/empty.m3u8").absoluteString
        let e = try Run.command(
            Paths.playheadBinary(), ["--ao=null", "--vo=null", "--no-mpris", url], timeout: 30)
        #expect(e.status == 1 && e.stderr == "playhead: \(url): an empty file, not an HLS playlist\n", "\(e.stderr)")
        #expect(e.seconds < 2, "took \(e.seconds) s")
    }

    @Test func segmentsServedAsHTMLPlayToTheEnd() throws {
        _ = try HLSFixtures.tsLadder()
        let dir = try HLSFixtures.badInputs()
        let segments = (0..<4).map { "#EXTINF:2,\n../ladder-ts/v0/seg0\($0).ts?type=text%2Fhtml\n" }.joined()
        try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n\(segments)#EXT-X-ENDLIST\n"
            .write(to: dir.appendingPathComponent("typed-cli.m3u8"), atomically: true, encoding: .utf8)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let log = Paths.scratch("hls-typed").appendingPathComponent("events.jsonl")
        let r = try Run.command(
            Paths.playheadBinary(),
            [
                "--ao=null", "--vo=null", "--no-mpris", "--log-json=\(log.path)",
                origin.url("bad/typed-cli.m3u8", ["type": "text/html"]).absoluteString,
            ], timeout: 40)
        #expect(r.status == 0 && !r.stderr.contains("playhead:"), "exit \(r.status); stderr: \(r.stderr)")
        let events = try String(contentsOf: log, encoding: .utf8)
        #expect(events.contains("\"ended\""), "did not end: \(events.suffix(400))")
        #expect(origin.requests.filter { $0.contains("/seg0") }.count == 4, "\(origin.requests)")
    }
}
