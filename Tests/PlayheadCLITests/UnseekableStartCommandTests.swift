import Foundation
import PlayheadTestSupport
import Testing

/// An input that cannot seek (an HTTP origin that ignores ranges, a pipe): `--start` is reached by reading on to
/// it, as `ffplay -ss` does (`playhead` started from the beginning without a word); a seek key says it cannot seek;
/// MPRIS `CanSeek` is false (the desktop offered seeks that did nothing).
@Suite(.serialized) struct UnseekableStartCommandTests {
    /// Plays 2 s of the position chirp (200 + 2t Hz) from 200 s over `input` to a test sink; the frequency of the
    /// sound heard and the run, whose stderr ends with the player's `--log-json` events (what a hang did).
    func playFrom200(_ input: String, stdin: URL? = nil) throws -> (hertz: Double, seconds: Double, run: Run.Result) {
        let sink = try TestSink()
        let log = Paths.scratch("unseekable").appendingPathComponent("events.jsonl")
        let command =
            "'\(try Paths.playheadBinary())' --ao=pulse --vo=null --no-mpris --audio-device='\(sink.name)' "
            + "--log-json='\(log.path)' --start=200 --length=2 '\(input)'"
        var r = try Run.command("bash", ["-c", stdin.map { "cat '\($0.path)' | " + command } ?? command], timeout: 60)
        let samples = sink.stopRecording()
        if r.status != 0 { r.stderr += "\nevents:\n" + ((try? String(contentsOf: log, encoding: .utf8)) ?? "none") }
        return (AudioAnalysis.frequency(samples), AudioAnalysis.soundSeconds(samples), r)
    }

    @Test func startOverHTTPWithoutRanges() throws {
        let chirp = try GaplessFixtures.positionChirp()
        let origin = try TestOrigin(serving: chirp.deletingLastPathComponent())
        let url = origin.url(chirp.lastPathComponent, ["ranges": "no"]).absoluteString
        let (hertz, seconds, r) = try playFrom200(url)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(abs(hertz - 602) < 8, "heard \(hertz) Hz (600-604 Hz from 200 s; 200 Hz from the beginning)")
        #expect(abs(seconds - 2) < 0.3, "heard \(seconds) s")
        // The origin was not asked for a range it does not serve: one body, read on.
        let asked = origin.requests.filter { $0.contains(chirp.lastPathComponent) }
        #expect(!asked.isEmpty && asked.allSatisfy { !$0.contains("bytes=1") }, "\(asked)")
    }

    @Test func startOnStandardInput() throws {
        let chirp = try GaplessFixtures.positionChirp()
        let (hertz, seconds, r) = try playFrom200("-", stdin: chirp)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(abs(hertz - 602) < 8, "heard \(hertz) Hz (600-604 Hz from 200 s; 200 Hz from the beginning)")
        #expect(abs(seconds - 2) < 0.3, "heard \(seconds) s")
    }

    /// The MPRIS `CanSeek` of the one `playhead` on the bus, read again and again until `ended` is set: the last
    /// value read while it was playing (its state once ready; the program quits after a few seconds, and on a busy
    /// machine it may get onto the bus late, so a single read at a fixed time can miss it).
    fileprivate func canSeekWhilePlaying(until ended: Box) -> String {
        var last = "error: never seen playing"
        while ended.value.isEmpty {
            let r = try? Run.command(
                "busctl",
                [
                    "--user", "get-property", "org.mpris.MediaPlayer2.playhead", "/org/mpris/MediaPlayer2",
                    "org.mpris.MediaPlayer2.Player", "PlaybackStatus", "CanSeek",
                ], timeout: 5)
            let lines = (r?.stdout ?? "").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            if r?.status == 0, lines.count == 2, lines[0] == "s \"Playing\"" { last = lines[1] }
            Thread.sleep(forTimeInterval: 0.2)
        }
        return last
    }

    @Test func aSeekKeySaysTheInputCannotSeekAndTheDesktopCannotSeekEither() throws {
        guard ProcessInfo.processInfo.environment["DBUS_SESSION_BUS_ADDRESS"] != nil else {
            throw TestSupportError("DBUS_SESSION_BUS_ADDRESS is not set: run the tests with scripts/test.sh")
        }
        let chirp = try GaplessFixtures.positionChirp()
        let origin = try TestOrigin(serving: chirp.deletingLastPathComponent())
        for (query, seekable) in [(["ranges": "no"], false), ([:], true)] {
            let url = origin.url(chirp.lastPathComponent, query).absoluteString
            // Read from the bus while the program runs in the terminal.
            let seen = Box()
            let ended = Box()
            let read = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                seen.set(self.canSeekWhilePlaying(until: ended))
                read.signal()
            }
            // The right arrow 3 s in, then q.
            let r = try Run.inTerminal(
                [try Paths.playheadBinary(), "--ao=null", url], keys: [(3, "\\033[C"), (1, "q")], tail: 2,
                timeout: 40)
            ended.set("yes")
            #expect(r.status == 0, "\(query): \(r.stderr)")
            let said = r.stdout.contains("cannot seek in this input")
            #expect(said == !seekable, "\(query): \(r.stdout)")
            read.wait()
            #expect(seen.value == (seekable ? "b true" : "b false"), "\(query): CanSeek \(seen.value)")
        }
    }
}

/// A string set on one thread and read on another.
private final class Box: @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""

    func set(_ value: String) { lock.withLock { text = value } }
    var value: String { lock.withLock { text } }
}
