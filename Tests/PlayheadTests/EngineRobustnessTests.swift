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

    /// A raw H.264 stream, whose pictures have no time stamps: they play one after the other at its frame rate.
    /// (All were at 0: dropped late, two seconds played in a few hundredths.)
    @Test func aRawH264StreamPlaysAtItsFrameRate() async throws {
        let url = try Fixtures.make(
            "raw-2s.h264",
            ["-f", "lavfi", "-i", "testsrc2=s=160x120:r=25:d=2", "-c:v", "libx264", "-preset", "ultrafast"])
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let capture = CaptureVideoOutput()
        let item = PlayerItem(url: url)
        item.add(capture)
        player.replaceCurrentItem(with: item)
        let ended = endedFlag(player)
        player.play()
        #expect(await eventually(timeout: 10) { ended.value })
        let frames = capture.frames
        let steps = zip(frames.dropFirst(), frames).map { $0.time.seconds - $1.time.seconds }
        #expect(frames.count >= 45 && steps.allSatisfy { abs($0 - 0.04) < 0.001 }, "\(frames.map(\.time.seconds))")
        let span = (frames.last?.presentedAt ?? 0) - (frames.first?.presentedAt ?? 0)
        #expect(abs(span - Double(frames.count - 1) * 0.04) < 0.2, "\(frames.count) pictures shown in \(span) s")
        player.close()
    }
}

/// A paused player sleeps: its threads wake only when something happens (a command, the sound server), not on
/// timers; a playing one wakes no more than its work needs.
@MainActor @Suite(.serialized) struct IdleTests {
    @Test func aPausedPlayerSleeps() async throws {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.numberedVideo()))
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .seconds(1))
        player.pause()
        // Let the forward buffer fill and the threads settle.
        try await Task.sleep(for: .seconds(2))
        let before = ThreadActivity.sample()
        try await Task.sleep(for: .seconds(10))
        let activity = ThreadActivity.difference(before, ThreadActivity.sample())
        let wakeups = activity.reduce(0) { $0 + $1.wakeups }
        let ticks = activity.reduce(0) { $0 + $1.ticks }
        let busiest = ThreadActivity.describe(activity)
        #expect(wakeups <= 100, "\(wakeups) wakeups in 10 s paused; \(busiest)")
        #expect(ticks <= 2, "\(ticks) CPU ticks in 10 s paused; \(busiest)")
        player.close()
    }
}

extension IdleTests {
    @Test func aPlayingPlayerWakesForItsWorkOnly() async throws {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.numberedVideo()))
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .seconds(2))
        let before = ThreadActivity.sample()
        try await Task.sleep(for: .seconds(5))
        let activity = ThreadActivity.difference(before, ThreadActivity.sample())
        let busiest = ThreadActivity.describe(activity, top: 12)
        // Per second of playing 25 fps video with 48 kHz sound: the demux thread reads a second of media when the
        // decoders have taken one; the video thread wakes for each frame, the decode thread for each packet and
        // frame, FFmpeg's two frame threads for the frames they decode and the rows of the frame before that they
        // wait for (more often on a busy machine, where the other one is held back: up to 38 a second seen while
        // the other test group ran, when they still carried the demux thread's name); the audio thread each time
        // the sound server asks for more (about 170 times a second with a 100 ms buffer on a null sink).
        let limits = [
            "playhead.demux": 25, "playhead.video": 75, "playhead.video-": 75, "playhead.vdec": 75,
            "playhead.audio": 250,
        ]
        for (name, perSecond) in limits {
            for thread in activity where thread.thread.hasPrefix(name + "#") {
                #expect(
                    thread.wakeups <= perSecond * 5, "\(thread.thread): \(thread.wakeups) wakeups in 5 s; \(busiest)")
            }
        }
        #expect(activity.contains { $0.thread.hasPrefix("playhead.video#") }, "\(busiest)")
        #expect(activity.contains { $0.thread.hasPrefix("playhead.vdec#") }, "\(busiest)")
        player.close()
    }
}
