import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Inputs whose layout changes while they play: the engine keeps to the streams it chose at open.
@MainActor @Suite(.serialized) struct EngineRobustnessTests {
    /// An MPEG-TS stream whose program map gains a video stream after 20 s (a broadcast that adds a service
    /// component), then loses it again: the audio plays on to the end, the new stream is ignored, nothing traps.
    @Test func programMapThatAddsAStreamMidFile() async throws {
        let head = try Fixtures.make(
            "pmt-audio-20s.ts", ["-f", "lavfi", "-i", "sine=frequency=440:duration=20", "-c:a", "mp2", "-f", "mpegts"])
        let middle = try Fixtures.make(
            "pmt-audio-video-2s.ts",
            [
                "-f", "lavfi", "-i", "sine=frequency=440:duration=2", "-f", "lavfi", "-i",
                "testsrc=size=160x120:rate=25:duration=2", "-map", "0:a", "-map", "1:v", "-c:a", "mp2", "-c:v",
                "mpeg2video", "-f", "mpegts",
            ])
        // The tail has the first program map again, so probing the file's end (for its duration) does not find
        // the added stream before playback does.
        let tail = try Fixtures.make(
            "pmt-audio-8s.ts", ["-f", "lavfi", "-i", "sine=frequency=440:duration=8", "-c:a", "mp2", "-f", "mpegts"])
        let bytes = try [head, middle, tail].flatMap { Array(try Data(contentsOf: $0)) }
        let joined = Fixtures.file("pmt-grows.ts", bytes: bytes)

        let player = Player()
        player.audioOutputChoice = .null(untimed: true)
        let item = PlayerItem(url: joined)
        player.replaceCurrentItem(with: item)
        let ended = endedFlag(player)
        player.play()
        #expect(await eventually(timeout: 30) { ended.value || player.status == .failed })
        #expect(player.status != .failed, "\(String(describing: player.error))")
        #expect(ended.value)
        player.close()
    }
}
