import Foundation
import PlayheadTestSupport
import Testing

/// An internet radio (SHOUTcast/Icecast: a body of no announced length, the song's title in ICY metadata) and URLs
/// as users paste them.
@Suite(.serialized) struct InternetRadioCommandTests {
    /// The song's title reaches the desktop (MPRIS, what `playerctl` reads) when the song is heard, not when the
    /// demuxer reads its metadata: the origin sends the whole body at once, so the player has it 30 s ahead.
    @Test func theSongTitleChangesWhenTheSongIsHeard() throws {
        // 64 kbit/s: the second title from the body's 48,000th byte, 6 s in (after the 8192-byte block that
        // crosses it: 6.1 s).
        let chirp = try GaplessFixtures.positionChirp()
        let origin = try TestOrigin(serving: chirp.deletingLastPathComponent())
        let url = origin.url(chirp.lastPathComponent, ["icy": "First song|Second song", "icy_every": "48000"])
        let (r, seen) = try Self.playWatchingTheDesktop(["--ao=null", "--vo=null", "--length=9", url.absoluteString])
        #expect(r.status == 0, "\(r.stderr)")
        let text = seen.map { "\(String(format: "%.2f", $0.position)) \($0.title)" }.joined(separator: ", ")
        #expect(seen.contains { $0.position > 1 && $0.position < 5.5 }, "read too few: \(text)")
        #expect(
            seen.filter { $0.position > 0.5 && $0.position < 5.5 }.allSatisfy { $0.title == "First song" }, "\(text)")
        #expect(seen.contains { $0.position > 7 }, "read too few: \(text)")
        #expect(seen.filter { $0.position > 7 }.allSatisfy { $0.title == "Second song" }, "\(text)")
        #expect(seen.filter { $0.position > 0.5 }.allSatisfy { $0.album == "Test Radio" }, "\(text)")
    }

    /// An Ogg radio: each song a new chain, whose time stamps start again at 0. Each song's tags show when it is
    /// heard (read at the chain's time 0, the next song's showed at once, up to the forward buffer early), and the
    /// position goes on across the songs.
    @Test func anOggRadioGoesOnAcrossItsSongs() throws {
        let songs = try Fixtures.oggSongs()
        let folder = Paths.scratch("ogg-radio")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let chained = folder.appendingPathComponent("radio.ogg")
        try Data(songs.map { try Data(contentsOf: $0) }.joined()).write(to: chained)
        let origin = try TestOrigin(serving: folder)
        let url = origin.url("radio.ogg", ["icy": "-"]).absoluteString
        let (r, seen) = try Self.playWatchingTheDesktop(["--ao=null", "--vo=null", url])
        #expect(r.status == 0, "\(r.stderr)")
        let text = seen.map { "\(String(format: "%.2f", $0.position)) \($0.title)" }.joined(separator: ", ")
        #expect(seen.contains { $0.position > 10 }, "the position stopped: \(text)")
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.position <= $1.position + 0.05 }, "\(text)")
        for (song, from, to) in [("A", 0.5, 3.6), ("B", 4.5, 7.6), ("C", 8.5, 11.5)] {
            let during = seen.filter { $0.position > from && $0.position < to }
            #expect(!during.isEmpty && during.allSatisfy { $0.title == "Song \(song)" }, "\(song): \(text)")
        }
    }

    /// A station's list of streams, as stations hand them out (a `.pls`; an `.m3u` served as audio/x-mpegurl)
    /// plays its stream: the first entry that opens, a dead mirror passed over (they failed: "input/output error",
    /// "not a valid HLS playlist"). A list from the network naming a local file does not play it (a path without a
    /// scheme is the server's, as a browser reads it).
    @Test func aStationsListOfStreamsPlaysItsStream() throws {
        let folder = Paths.scratch("station-lists")
        try FileManager.default.copyItem(
            at: Fixtures.tone(seconds: 4, ext: "mp3"), to: folder.appendingPathComponent("stream.mp3"))
        let origin = try TestOrigin(serving: folder)
        let stream = origin.url("stream.mp3").absoluteString
        let gone = origin.url("gone.mp3").absoluteString
        try "[playlist]\nNumberOfEntries=2\nFile1=\(gone)\nTitle1=Mirror\nFile2=\(stream)\nTitle2=Radio\n".write(
            to: folder.appendingPathComponent("station.pls"), atomically: true, encoding: .utf8)
        try "#EXTM3U\n#EXTINF:-1,Radio\n\(stream)\n".write(
            to: folder.appendingPathComponent("station.m3u"), atomically: true, encoding: .utf8)
        try "#EXTM3U\nfile://\(folder.path)/stream.mp3\n".write(
            to: folder.appendingPathComponent("local.m3u"), atomically: true, encoding: .utf8)
        for (name, type) in [("station.pls", "audio/x-scpls"), ("station.m3u", "audio/x-mpegurl")] {
            let out = folder.appendingPathComponent("\(name).wav")
            let r = try Run.command(
                Paths.playheadBinary(),
                [
                    "--ao=wav:\(out.path)", "--vo=null", "--no-mpris", "--length=2",
                    origin.url(name, ["type": type]).absoluteString,
                ], timeout: 30)
            #expect(r.status == 0, "\(name): exit \(r.status): \(r.stderr)")
            let heard = AudioAnalysis.audibleSeconds(AudioAnalysis.wavSamples(out))
            #expect(abs(heard - 2) < 0.1, "\(name): \(heard) s heard")
        }
        let r = try Run.command(
            Paths.playheadBinary(),
            [
                "--ao=null", "--vo=null", "--no-mpris",
                origin.url("local.m3u", ["type": "audio/x-mpegurl"]).absoluteString,
            ],
            timeout: 30)
        #expect(r.status == 1 && r.stderr.contains("no http(s) stream"), "exit \(r.status): \(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }

    /// Runs `playhead` with `arguments` while reading what the desktop shows (MPRIS through `playerctl`: position,
    /// title, album) every 0.2 s. `playerctl` is pointed at this process's own MPRIS name: a player of an earlier
    /// test that the bus has not let go of yet is never read. A run that read nothing says what `playerctl` said.
    static func playWatchingTheDesktop(
        _ arguments: [String]
    ) throws -> ((status: Int32, stderr: String), [(position: Double, title: String, album: String)]) {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let folder = Paths.scratch("radio-desktop")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let errors = folder.appendingPathComponent("stderr")
        try Data().write(to: errors)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: try Paths.playheadBinary())
        p.arguments = arguments
        p.standardOutput = FileHandle.nullDevice
        let errorHandle = try FileHandle(forWritingTo: errors)
        defer { try? errorHandle.close() }
        p.standardError = errorHandle
        let start = Date()
        try Run.start(p)
        defer { Run.kill(p) }
        guard let busName = try SessionBus.mprisName(of: p.processIdentifier, seconds: 10) else {
            throw TestSupportError("playhead (pid \(p.processIdentifier)) took no MPRIS name in 10 s")
        }
        let player = String(busName.dropFirst("org.mpris.MediaPlayer2.".count))
        var seen: [(position: Double, title: String, album: String)] = []
        var failures: [String] = []
        let deadline = start.addingTimeInterval(40)
        while p.isRunning, Date() < deadline {
            let r = try Run.command(
                "playerctl", ["-p", player, "metadata", "--format", "{{position}}|{{title}}|{{album}}"], timeout: 5)
            let fields = r.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(
                separator: "|", omittingEmptySubsequences: false)
            if r.status == 0, fields.count == 3, let micros = Double(fields[0]) {
                seen.append((micros / 1e6, String(fields[1]), String(fields[2])))
            } else if p.isRunning {
                failures.append("status \(r.status) in \(String(format: "%.1f", r.seconds)) s: \(r.stdout)\(r.stderr)")
            }
            Thread.sleep(forTimeInterval: 0.2)
        }
        let timedOut = p.isRunning
        Run.kill(p)
        let stderr = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
        if seen.isEmpty {
            Issue.record("playerctl -p \(player) read nothing: \(failures.suffix(5).joined(separator: "; "))")
        }
        return ((timedOut ? -1 : p.terminationStatus, stderr), seen)
    }

    /// A body of no announced length ends when the server closes the connection: the whole file is heard, and the
    /// program ends as for any file (FFmpeg takes the close for a body cut short: 0.05 s were heard, then "reading
    /// failed: input/output error", exit status 1).
    @Test func aBodyWithoutALengthPlaysToItsEnd() throws {
        let part = try GaplessFixtures.parts("mp3")[0]
        let origin = try TestOrigin(serving: part.deletingLastPathComponent())
        let sink = try TestSink()
        let r = try Run.command(
            try Paths.playheadBinary(),
            [
                "--ao=pulse", "--vo=null", "--no-mpris", "--audio-device=\(sink.name)",
                origin.url(part.lastPathComponent, ["icy": "Only song"]).absoluteString,
            ], timeout: 40)
        let heard = AudioAnalysis.soundSeconds(sink.stopRecording())
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        let expected = Double(GaplessFixtures.cuts[0]) / Double(GaplessFixtures.sampleRate)
        #expect(abs(heard - expected) < 0.2, "heard \(heard) s of \(expected) s")
    }

    /// A radio whose connection stalls past the network time-out, or is reset, 2 s into an 8 s stream: the player
    /// connects again and plays on (the station sends the stream from its start again here), and the command ends
    /// as for a radio that closed. (It ended with "reading failed: connection timed out", or "connection reset by
    /// peer" 0.1 s in, exit status 1.) The position goes on: no time jump is logged.
    @Test(arguments: [["stall_after": "32768", "stall_for": "5"], ["reset_after": "32768"]])
    func aRadioWhoseConnectionFailsPlaysOn(_ fault: [String: String]) throws {
        let tone = try Fixtures.tone(seconds: 8, frequency: 550, ext: "mp3")
        let origin = try TestOrigin(serving: tone.deletingLastPathComponent())
        // The player's first request only sniffs the start: the second is the stream.
        let url = origin.url(tone.lastPathComponent, ["icy": "Song", "nth": "2"].merging(fault) { $1 })
        let sink = try TestSink()
        let log = Paths.scratch("radio-reconnect").appendingPathComponent("events.jsonl")
        let r = try Run.command(
            try Paths.playheadBinary(),
            [
                "--ao=pulse", "--vo=null", "--no-mpris", "--audio-device=\(sink.name)", "--network-timeout=2",
                "--log-json=\(log.path)", url.absoluteString,
            ], timeout: 60)
        let heard = AudioAnalysis.audibleSeconds(sink.stopRecording())
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.isEmpty, "\(r.stderr)")
        // 32768 bytes at 128 kb/s: 2 s, then the whole 8 s again.
        #expect(abs(heard - 10) < 0.4, "heard \(heard) s")
        #expect(origin.requests.filter { $0.contains(tone.lastPathComponent) }.count == 3, "\(origin.requests)")
        let events = try String(contentsOf: log, encoding: .utf8)
        #expect(!events.contains("time-jumped"), "\(events)")
    }

    /// A URL pasted with a character a URL may not hold ("|") and an escape ("%20"): the escape is sent as it is.
    /// Foundation's fallback encoded its "%" again, and the origin was asked for "two%2520words%7C1.mp3": 404.
    @Test func aPastedURLKeepsItsEscapes() throws {
        let part = try GaplessFixtures.parts("mp3")[0]
        let folder = Paths.scratch("pasted-url")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let name = "two words|1.mp3"
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
        try FileManager.default.copyItem(at: part, to: folder.appendingPathComponent(name))
        let origin = try TestOrigin(serving: folder)
        let pasted = origin.url("x").deletingLastPathComponent().absoluteString + "two%20words|1.mp3"
        let r = try Run.command(
            try Paths.playheadBinary(), ["--ao=null", "--vo=null", "--no-mpris", "--untimed", pasted], timeout: 40)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(origin.requests.contains { $0.contains("/two%20words%7C1.mp3") }, "\(origin.requests)")
    }
}
