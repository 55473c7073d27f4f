import Foundation
import PlayheadTestSupport
import Testing

/// Rule 45: `playhead` plays in the `.playback` category, with the `.moviePlayback` mode while the item playing has
/// video: the sound server shows its stream's role as `video` for a film and `music` for a sound file, and the role
/// follows a queue from one to the other.
@Suite(.serialized) struct AudioSessionRoleTests {
    /// The roles of the streams `p` plays now, as the server shows them.
    private func roles(of p: PlayheadProcess) -> [String] {
        ((try? SinkInput.of(process: p.process.processIdentifier)) ?? []).map { $0.role ?? "none" }
    }

    @Test func theRoleIsVideoForAFilmAndMusicForSound() throws {
        let sink = try TestSink()
        let film = try Fixtures.flashAndBeep()  // 6 s, H.264 and AAC
        // 2 s: long enough to see its role, which is all the tone is for.
        let tone = try Fixtures.tone(seconds: 2)
        let p = try PlayheadProcess([
            "--ao=pulse", "--vo=null", "--no-mpris", "--audio-device=\(sink.name)", film.path, tone.path,
        ])
        var seen: [String] = []
        #expect(
            waitUntil(timeout: 5) {
                seen = roles(of: p)
                return seen == ["video"]
            }, "roles while the film plays: \(seen)")
        // Still the film's, a while later: the role was not a passing state.
        Thread.sleep(forTimeInterval: 1)
        #expect(roles(of: p) == ["video"], "roles during the film: \(roles(of: p))")
        #expect(
            waitUntil(timeout: 10) {
                seen = roles(of: p)
                return seen == ["music"]
            }, "roles once the tone plays: \(seen)")
        // The same stream, now with the tone's role, and only once the tone is the item playing.
        #expect(p.names.filter { $0 == "item-changed" }.count >= 2, "events: \(p.names)")
        #expect(p.waitForExit() == 0, "stderr: \(p.stderr)")
    }

    @Test func aFilmPlayedWithoutVideoIsMusic() throws {
        let sink = try TestSink()
        let p = try PlayheadProcess([
            "--ao=pulse", "--no-video", "--no-mpris", "--audio-device=\(sink.name)", "--length=3",
            try Fixtures.flashAndBeep().path,
        ])
        #expect(waitUntil(timeout: 5) { roles(of: p) == ["music"] }, "roles: \(roles(of: p))")
        Thread.sleep(forTimeInterval: 1)
        #expect(roles(of: p) == ["music"], "roles: \(roles(of: p))")
        #expect(p.waitForExit() == 0, "stderr: \(p.stderr)")
    }
}
