import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Seeks in quick succession, as a user dragging the scrubber or holding an arrow key makes them, in every
/// container Playhead reads: whatever the order in which the engine's threads take them, the last one lands, every
/// awaited seek ends, and playback goes on from there.
@MainActor @Suite(.serialized) struct SeekStormTests {
    /// 8 s of a 440 Hz tone, with 320x240 video where the container holds video.
    static func media(_ ext: String) throws -> URL {
        let tone = ["-f", "lavfi", "-i", "sine=frequency=440:duration=8:sample_rate=48000"]
        let picture = ["-f", "lavfi", "-i", "testsrc=s=320x240:r=25:d=8"]
        switch ext {
        case "mkv", "mp4", "ts":
            return try Fixtures.make(
                "storm.\(ext)", picture + tone + ["-c:v", "libx264", "-g", "50", "-pix_fmt", "yuv420p", "-c:a", "aac"])
        case "webm":
            return try Fixtures.make(
                "storm.webm", picture + tone + ["-c:v", "libvpx", "-g", "50", "-b:v", "300k", "-c:a", "libopus"])
        default:
            return try Fixtures.make("storm.\(ext)", tone)
        }
    }

    @Test(arguments: ["mkv", "mp4", "ts", "webm", "mp3", "ogg", "flac", "wav"])
    func aStormOfSeeksEndsWhereTheLastOneWent(ext: String) async throws {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: try Self.media(ext))
        // The seeks' starts and ends as the player reports them, in its order.
        let reported = Locked<[Bool]>([])
        let events = player.events()
        Task { @MainActor in
            for await e in events {
                switch e.kind {
                case .seekStarted: reported.withLock { $0.append(true) }
                case .seekDone: reported.withLock { $0.append(false) }
                default: break
                }
            }
        }
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .readyToPlay })
        var random = SystemRandomNumberGenerator()
        for playing in [false, true] {
            if playing { player.play() }
            // Forty seeks, none waited for: each supersedes the one before or lands.
            for _ in 0..<40 {
                let seconds = Double.random(in: 0...7, using: &random)
                player.seek(
                    to: MediaTime(seconds: seconds, preferredTimescale: 1000), toleranceBefore: .zero,
                    toleranceAfter: .zero, completionHandler: { _ in })
            }
            // Then seeks each waited for, back and forth.
            for (round, seconds) in [1.0, 5.0, 0.0, 6.0, 2.0].enumerated() {
                let finished = Locked<Bool?>(nil)
                player.seek(
                    to: MediaTime(seconds: seconds, preferredTimescale: 1000), toleranceBefore: .zero,
                    toleranceAfter: .zero
                ) { done in finished.withLock { $0 = done } }
                let ended = await eventually(timeout: 5) { finished.current != nil }
                #expect(
                    ended && finished.current == true,
                    "\(ext), \(playing ? "playing" : "paused"), seek \(round) to \(seconds) s: \(String(describing: finished.current))"
                )
                guard ended else { break }
            }
            if playing {
                // From 2 s, the time moves on.
                let moved = await eventually(timeout: 5) { player.currentTime().seconds > 3 }
                #expect(moved, "\(ext): after the seeks the time stands at \(player.currentTime().seconds) s")
            } else {
                #expect(abs(player.currentTime().seconds - 2) < 0.1, "\(ext): at \(player.currentTime().seconds) s")
            }
        }
        #expect(player.error == nil && item.error == nil, "\(ext): \(String(describing: item.error))")
        // Every seek's end is reported after its start, and every seek started has ended.
        let balanced = await eventually(timeout: 2) {
            let r = reported.current
            return r.filter { $0 }.count == 90 && r.count == 180
        }
        let order = reported.current
        let ahead = order.indices.first { i in order[...i].filter { !$0 }.count > order[...i].filter { $0 }.count }
        #expect(
            balanced && ahead == nil,
            "\(ext): \(order.count) reports, an end before its start at \(String(describing: ahead)): \(order.map { $0 ? "s" : "d" }.joined())"
        )
        player.close()
        _ = sink.stopRecording()
    }
}
