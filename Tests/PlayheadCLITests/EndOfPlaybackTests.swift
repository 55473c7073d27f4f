import Foundation
import PlayheadTestSupport
import Testing

/// Playback always ends: the position reaches the end, the player stops saying "Playing", the queue moves on and
/// the command exits.
@Suite(.serialized) struct EndOfPlaybackTests {
    /// Runs `playhead` with `arguments` on a new test sink; returns how it ended and the seconds of sound heard.
    func playAndListen(_ arguments: [String], timeout: Double = 20) throws -> (run: Run.Result, heard: Double) {
        let sink = try TestSink()
        let r = try Run.command(
            Paths.playheadBinary(), ["--audio-device=\(sink.name)", "--vo=null"] + arguments, timeout: timeout)
        return (r, AudioAnalysis.audibleSeconds(sink.stopRecording()))
    }

    /// Video with no sound track, in the three containers users meet it in: the pictures follow the monotonic
    /// clock (there is no sound to follow) and the item ends after its duration.
    @Test(arguments: [
        ("vo-1.5s.mp4", ["-c:v", "libx264", "-pix_fmt", "yuv420p"]),
        ("vo-1.5s.webm", ["-c:v", "libvpx", "-b:v", "200k"]), ("vo-1.5s.mpg", ["-c:v", "mpeg2video", "-f", "vob"]),
    ])
    func videoWithoutSoundEnds(name: String, codec: [String]) throws {
        let clip = try Fixtures.make(
            name, ["-f", "lavfi", "-i", "testsrc=size=320x240:rate=25:duration=1.5"] + codec)
        let log = Paths.scratch("video-only").appendingPathComponent("\(name).jsonl")
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=null", "--vo=null", "--log-json=\(log.path)", clip.path, clip.path],
            timeout: 20)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        // Two plays of 1.5 s each, in real time: not sooner (the pictures were paced), not much later.
        #expect(r.seconds > 2.5 && r.seconds < 7, "took \(r.seconds) s")
        let events = try String(contentsOf: log, encoding: .utf8)
        #expect(events.components(separatedBy: "\"event\":\"ended\"").count - 1 == 2, "\(events)")
    }

    /// A playlist of entries shorter than the main actor takes to hear of them (`--untimed`, 50 clicks of 50 ms)
    /// plays them all: the player's queue ran dry before the next entry was queued, and the command ended there
    /// (8 to 22 of the 50 were heard).
    @Test func entriesShorterThanTheQueueingStillAllPlay() throws {
        let folder = Paths.scratch("clicks")
        let click = try Fixtures.tone(seconds: 0.05, ext: "wav")
        for i in 1...50 { try FileManager.default.copyItem(at: click, to: folder.appendingPathComponent("c\(i).wav")) }
        let out = folder.appendingPathComponent("out.wav")
        let r = try Run.command(
            Paths.playheadBinary(), ["--untimed", "--ao=wav:\(out.path)", "--vo=null", "--no-mpris", folder.path],
            timeout: 30)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        let heard = Double(AudioAnalysis.wavSamples(out).count) / 48_000
        #expect(abs(heard - 2.5) < 0.05, "\(heard) s of 2.5 s written")
    }
}

extension EndOfPlaybackTests {
    /// `--end` and `--length` inside a segment of an fMP4 HLS stream, whose segments hold their video before their
    /// sound: the sound plays to the cut (not only to the segment before it) and the command exits.
    /// A video-only file cut by `--length` or `--end` ends at the cut (its clock stops there: the last picture's
    /// wait must too).
    @Test(arguments: [["--length=1.5"], ["--start=1", "--end=2.5"]])
    func aCutVideoWithoutSoundEndsAtTheCut(_ cut: [String]) throws {
        let clip = try Fixtures.make(
            "vo.mp4",
            ["-f", "lavfi", "-i", "testsrc=size=320x240:rate=25:duration=3", "-c:v", "libx264", "-pix_fmt", "yuv420p"])
        let r = try Run.command(Paths.playheadBinary(), ["--ao=null", "--vo=null"] + cut + [clip.path], timeout: 20)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        #expect(r.seconds > 1.4 && r.seconds < 4, "\(cut): took \(r.seconds) s")
    }

    @Test(arguments: [["--end=3"], ["--length=3"], ["--start=1.5", "--end=4.5"]])
    func anEndInsideAnFMP4SegmentIsHeardAndExits(_ cut: [String]) throws {
        let path = try HLSFixtures.stream(
            "fmp4", tone: 450, ["-hls_segment_type", "fmp4", "-hls_fmp4_init_filename", "init.mp4"])
        let (r, heard) = try playAndListen(cut + [try HLSFixtures.url(path).absoluteString])
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        #expect(r.seconds < 10, "took \(r.seconds) s")
        #expect(abs(heard - 3) < 0.15, "\(cut): heard \(heard) s of sound, not 3 s")
    }

    /// `--length` on a local file written faster than real time (`--ao=wav`) ends exactly there: its end is set
    /// before it plays. (Counted once the item was ready, 2.00 to 2.17 s were written.)
    @Test func aLengthIsExactFasterThanRealTime() throws {
        let tone = try Fixtures.tone(seconds: 8, frequency: 530)
        let wav = Paths.scratch("length-wav").appendingPathComponent("out.wav")
        try? FileManager.default.removeItem(at: wav)
        let r = try Run.command(
            try Paths.playheadBinary(), ["--ao=wav:\(wav.path)", "--vo=null", "--length=2", tone.path], timeout: 30)
        #expect(r.status == 0, "\(r.stderr)")
        let seconds = Double(AudioAnalysis.wavSamples(wav).count) / 48_000
        #expect(abs(seconds - 2) < 0.001, "wrote \(seconds) s")
    }

    /// `--length` on a live stream counts from where it starts, near its live edge: 4 s are heard. (It counted
    /// from the start of the playlist's window, behind where playback starts: the command ended at once, silent.)
    @Test func aLiveStreamPlaysForItsLength() throws {
        let stream = try LiveHLSStream("live-length", tone: 610)
        defer { stream.stop() }
        try stream.waitForSegments(5)
        let (r, heard) = try playAndListen(["--length=4", try HLSFixtures.url(stream.path).absoluteString])
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        #expect(abs(heard - 4) < 0.3, "heard \(heard) s of sound, not 4 s, in \(r.seconds) s: \(r.stderr)")
    }
}

extension EndOfPlaybackTests {
    /// A VOD playlist whose `EXTINF`s say a fifth of what its segments hold: the media plays to its real end (as
    /// mpv plays it) and the command exits, instead of standing at the declared end forever.
    @Test func aPlaylistThatUnderstatesItsSegmentsPlaysTheMedia() throws {
        let path = try HLSFixtures.understatedStream()
        let (r, heard) = try playAndListen([try HLSFixtures.url(path).absoluteString], timeout: 25)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        #expect(abs(heard - 4) < 0.3, "heard \(heard) s of the 4 s of media")
    }
}

extension EndOfPlaybackTests {
    /// A recording still being written when it is played (ffmpeg writes it in real time): playback follows the
    /// file to its real end, as mpv does, then ends; it does not stop at the length the file had when opened.
    @Test func aFileThatGrowsWhileItPlaysIsFollowed() throws {
        let file = Paths.scratch("growing").appendingPathComponent("recording.ts")
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: try Run.which("ffmpeg"))
        writer.arguments = [
            "-nostdin", "-v", "error", "-y", "-re", "-f", "lavfi", "-i", "testsrc2=s=320x240:r=25:d=4", "-f", "lavfi",
            "-i", "sine=frequency=440:duration=4:sample_rate=48000", "-c:v", "libx264", "-preset", "ultrafast",
            "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "2", "-f", "mpegts", "-flush_packets", "1", file.path,
        ]
        try Run.start(writer)
        defer { Run.kill(writer) }
        Thread.sleep(forTimeInterval: 2)
        let (r, heard) = try playAndListen([file.path])
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        #expect(abs(heard - 4) < 0.3, "heard \(heard) s of the 4 s recording")
    }
}

extension EndOfPlaybackTests {
    /// An MP4 whose AAC stream has two consecutive packets zeroed (a damaged download): the damaged frames are
    /// skipped and the file plays to its end, as mpv plays it.
    @Test func zeroedAudioPacketsAreSkippedToTheEnd() throws {
        let tone = try Fixtures.tone(seconds: 4)
        var bytes = Array(try Data(contentsOf: tone))
        let packets = try Run.command(
            "ffprobe", ["-v", "error", "-show_entries", "packet=pos,size", "-of", "csv=p=0", tone.path]
        ).stdout.split(separator: "\n").compactMap { line -> (size: Int, pos: Int)? in
            let f = line.split(separator: ",").compactMap { Int($0) }
            return f.count == 2 ? (f[0], f[1]) : nil
        }
        try #require(packets.count > 100, "packets: \(packets.count)")
        for p in packets[80...81] {
            bytes.replaceSubrange(p.pos..<(p.pos + p.size), with: repeatElement(0, count: p.size))
        }
        let damaged = Fixtures.file("zeroed.m4a", bytes: bytes)
        let (r, heard) = try playAndListen([damaged.path], timeout: 15)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        #expect(heard > 3.8 && heard < 4.1, "heard \(heard) s of 4 s")
    }

    /// Several inputs decoded as fast as possible with no sound server: every one plays to its end, every time.
    @Test func untimedQueuesPlayEveryInput() throws {
        let inputs = [
            try Fixtures.tone(seconds: 2), try Fixtures.numberedVideo(), try Fixtures.tone(seconds: 2, ext: "flac"),
            try Fixtures.tone(seconds: 1, ext: "mp3"), try Fixtures.tone(seconds: 2, ext: "ogg"),
        ].map(\.path)
        for run in 0..<6 {
            let log = Paths.scratch("untimed").appendingPathComponent("run\(run).jsonl")
            let r = try Run.command(
                Paths.playheadBinary(), ["--ao=null", "--untimed", "--log-json=\(log.path)"] + inputs, timeout: 30)
            #expect(r.status == 0, "run \(run): exit \(r.status): \(r.stderr)")
            let events = try String(contentsOf: log, encoding: .utf8)
            let ended = events.components(separatedBy: "\"event\":\"ended\"").count - 1
            #expect(ended == inputs.count, "run \(run): \(ended) of \(inputs.count) inputs ended")
        }
    }

    /// The event log has every entry's end when the last ones end before the command has heard of the ones before
    /// them (`--untimed`, nine clicks of 50 ms and one of 1 ms): the command stopped when it saw the queue empty,
    /// before it had handled the events that came before (the last `ended` was missing in 4 of 30 runs).
    @Test func theLogHasEveryEndWhenTheQueueRunsOutAhead() throws {
        let folder = Paths.scratch("ends")
        let click = try Fixtures.tone(seconds: 0.05, ext: "wav")
        for i in 1...9 { try FileManager.default.copyItem(at: click, to: folder.appendingPathComponent("c\(i).wav")) }
        try FileManager.default.copyItem(
            at: try Fixtures.tone(seconds: 0.001, ext: "wav"), to: folder.appendingPathComponent("c99.wav"))
        let log = Paths.scratch("ends-log").appendingPathComponent("events.jsonl")
        var short: [Int] = []
        for run in 1...30 {
            let r = try Run.command(
                Paths.playheadBinary(),
                ["--untimed", "--ao=wav:/dev/null", "--vo=null", "--no-mpris", "--log-json=\(log.path)", folder.path],
                timeout: 30)
            #expect(r.status == 0, "run \(run): exit \(r.status): \(r.stderr)")
            let events = try String(contentsOf: log, encoding: .utf8)
            if events.components(separatedBy: "\"event\":\"ended\"").count - 1 != 10 { short.append(run) }
        }
        #expect(short.isEmpty, "runs whose log missed an end: \(short)")
    }
}

extension EndOfPlaybackTests {
    /// Video that outlasts its sound (the sound track ends a second early; at 4x the tempo filter's tail ends it
    /// early too): the last pictures play on the monotonic clock and the file ends, at every speed.
    @Test(arguments: ["1", "4"])
    func videoLongerThanItsSoundEnds(speed: String) throws {
        let clip = try Fixtures.make(
            "video-outlasts-sound.mp4",
            [
                "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25:duration=4", "-f", "lavfi", "-i",
                "sine=frequency=440:duration=3:sample_rate=48000", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a",
                "aac", "-ac", "2",
            ])
        let r = try Run.command(
            Paths.playheadBinary(), ["--ao=null", "--vo=null", "--speed=\(speed)", clip.path], timeout: 15)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        let expected = 4 / (Double(speed) ?? 1)
        #expect(r.seconds > expected - 0.3 && r.seconds < expected + 2, "took \(r.seconds) s at \(speed)x")
    }
}
