import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Media longer than the duration its container or playlist declares plays to its real end, and the item's
/// duration grows with it: the position goes on past the declared end instead of standing there while the rest
/// plays (the status line read "00:04 / 00:04 100%" for the last 3.6 s of an 8 s MP3), and ends at the real length.
@MainActor @Suite(.serialized) struct DeclaredDurationTests {
    /// An 8 s VBR MP3 without a Xing header, loud noise for its first second: FFmpeg estimates its duration from
    /// the first frames' bit rate (about 4.4 s).
    static func shortEstimatedMP3() throws -> URL {
        let file = Paths.scratch("vbr").appendingPathComponent("vbr.mp3")
        let r = try Run.command(
            "ffmpeg",
            [
                "-nostdin", "-v", "error", "-y", "-f", "lavfi", "-i", "anoisesrc=d=1:a=0.5", "-f", "lavfi", "-i",
                "sine=f=440:d=7", "-filter_complex", "[0][1]concat=n=2:v=0:a=1", "-ar", "48000", "-c:a",
                "libmp3lame", "-q:a", "4", "-write_xing", "0", file.path,
            ], timeout: 60)
        guard r.status == 0 else { throw TestSupportError("ffmpeg: \(r.stderr)") }
        return file
    }

    /// Plays `url` to its end at the test sink, reading the position and the duration every 0.1 s: what they
    /// were at the start and at the end, the furthest position seen, and whether it ever passed the duration.
    func play(_ url: URL) async throws -> (declared: Double, final: Double, furthest: Double, ended: Double) {
        let sink = try TestSink()
        defer { _ = sink.stopRecording() }
        let player = Player.onSink(sink)
        defer { player.close() }
        let item = PlayerItem(url: url)
        let ended = endedFlag(player)
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .readyToPlay }, "\(String(describing: item.error))")
        let declared = item.duration.seconds
        player.play()
        var furthest = 0.0
        let deadline = Date().addingTimeInterval(20)
        while !ended.value && Date() < deadline {
            let (now, duration) = (player.currentTime().seconds, item.duration.seconds)
            #expect(now <= duration + 0.001, "the position \(now) past the duration \(duration)")
            furthest = max(furthest, now)
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(ended.value, "did not end: \(String(describing: item.error))")
        return (declared, item.duration.seconds, furthest, player.currentTime().seconds)
    }

    @Test func anMP3LongerThanItsEstimateShowsItsRealLength() async throws {
        let run = try await play(try Self.shortEstimatedMP3())
        #expect(run.declared < 5, "FFmpeg's estimate: \(run.declared) s (the fixture no longer tests anything)")
        #expect(run.furthest > 7, "the position stood at \(run.furthest) s")
        #expect(abs(run.final - 8) < 0.1, "the duration at the end: \(run.final) s")
        #expect(abs(run.ended - 8) < 0.1, "the position at the end: \(run.ended) s")
    }

    /// The playlist declares 0.8 s; read whole before it is ready, the item is 4 s long by then.
    @Test func anHLSStreamWhoseExtinfsUnderstateShowsItsRealLength() async throws {
        let run = try await play(try HLSFixtures.url(try HLSFixtures.understatedStream()))
        #expect(run.furthest > 3, "the position stood at \(run.furthest) s")
        #expect(abs(run.final - 4) < 0.1, "the duration at the end: \(run.final) s")
        #expect(abs(run.ended - 4) < 0.1, "the position at the end: \(run.ended) s")
    }
}
