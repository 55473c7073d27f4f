import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Exact and fast seeks on frame-numbered video, and audio/video sync, as a viewer would see them.
@MainActor @Suite(.serialized) struct SeekAndSyncTests {
    /// A capture output that reads each presented frame's drawn number.
    func numberedCapture() -> CaptureVideoOutput {
        CaptureVideoOutput { frame in Fixtures.frameNumber { x, y in frame.luma(x: x, y: y) } }
    }

    func openedPlayer(_ url: URL, _ capture: CaptureVideoOutput) async throws -> Player {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: url)
        item.add(capture)
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .readyToPlay })
        #expect(await eventually { !capture.frames.isEmpty }, "the first frame is shown while paused")
        #expect(capture.frames.first?.value == 0)
        return player
    }

    @Test func exactSeekShowsTheRequestedFrameFirst() async throws {
        let capture = numberedCapture()
        let player = try await openedPlayer(try Fixtures.numberedVideo(), capture)
        // Frame 82 (3.28 s at 25 fps) lies between the keyframes 50 and 100.
        capture.reset()
        let target = MediaTime(value: 82, timescale: 25)
        let finished = await player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(finished)
        #expect(await eventually { !capture.frames.isEmpty })
        #expect(capture.frames.first?.value == 82, "first frame after the seek: \(capture.frames.map(\.value))")
        #expect(abs(player.currentTime().seconds - 3.28) < 0.05, "position \(player.currentTime().seconds)")
        // Playing on shows the following frames in order.
        player.play()
        try await Task.sleep(for: .milliseconds(400))
        player.pause()
        let shown = capture.frames.map(\.value)
        #expect(shown.count >= 6 && shown == Array(82..<(82 + shown.count)), "\(shown)")
    }

    @Test func fastSeekLandsOnTheKeyframeBefore() async throws {
        let capture = numberedCapture()
        let player = try await openedPlayer(try Fixtures.numberedVideo(), capture)
        capture.reset()
        let finished = await player.seek(to: MediaTime(value: 82, timescale: 25))
        #expect(finished)
        #expect(await eventually { !capture.frames.isEmpty })
        // The fast seek does not decode past the keyframe: it shows keyframe 50, at or before the target.
        #expect(capture.frames.first?.value == 50, "\(capture.frames.map(\.value))")
        #expect(player.currentTime().seconds <= 3.28 + 0.001)
    }

    @Test func aLaterSeekSupersedesAnEarlierOne() async throws {
        let capture = numberedCapture()
        let player = try await openedPlayer(try Fixtures.numberedVideo(), capture)
        // The first seek starts (and is still waiting) when the second one is asked for.
        let first = Locked<Bool?>(nil)
        let four = MediaTime(value: 4, timescale: 1)
        player.seek(to: four, toleranceBefore: .zero, toleranceAfter: .zero) { done in first.withLock { $0 = done } }
        let b = await player.seek(to: MediaTime(value: 6, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(await eventually { first.current != nil })
        #expect(first.current == false, "the superseded seek reports false")
        #expect(b)
        #expect(await eventually { capture.frames.last?.value == 150 }, "\(capture.frames.suffix(3).map(\.value))")
    }

    @Test func backToBackSeeksAllLand() async throws {
        // Seeks one right after another, backwards and forwards: each lands on its own frame, never the old place.
        let capture = numberedCapture()
        let player = try await openedPlayer(try Fixtures.numberedVideo(), capture)
        for frame in [150, 40, 210, 75, 120, 30] {
            capture.reset()
            let done = await player.seek(
                to: MediaTime(value: Int64(frame), timescale: 25), toleranceBefore: .zero, toleranceAfter: .zero)
            #expect(done)
            #expect(await eventually { !capture.frames.isEmpty })
            #expect(
                capture.frames.first?.value == frame, "seek to frame \(frame) showed \(capture.frames.map(\.value))")
            #expect(
                abs(player.currentTime().seconds - Double(frame) / 25) < 0.05, "clock \(player.currentTime().seconds)")
        }
    }

    @Test func videoFramesFollowTheAudioClock() async throws {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let timebase = player.timebase
        // Record, for every presented frame, how bright it is and what the audio clock said at that moment.
        let capture = CaptureVideoOutput { frame in
            let bright = frame.luma(x: 160, y: 120) > 128
            let clock = Int(timebase.time.seconds * 1_000_000)
            return bright ? clock : -clock - 1
        }
        let item = PlayerItem(url: try Fixtures.flashAndBeep())
        item.add(capture)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 15) { player.currentTime().seconds > 5.5 })
        player.pause()
        let frames = capture.frames
        // Flash onsets: first bright frame of each flash (at 1, 2, 3, 4, 5 s).
        var onsets: [(time: Double, clock: Double)] = []
        var wasBright = false
        for f in frames {
            let bright = f.value >= 0
            if bright && !wasBright { onsets.append((f.time.seconds, Double(f.value) / 1_000_000)) }
            wasBright = bright
        }
        #expect(onsets.count == 5, "flashes seen at \(onsets.map(\.time))")
        let worst = onsets.map { abs($0.clock - $0.time) }.max() ?? 0
        print("videoFramesFollowTheAudioClock: flashes shown at most \(Int(worst * 1000)) ms off the audio clock")
        for o in onsets {
            #expect(abs(o.clock - o.time) < 0.040, "frame at \(o.time) s shown when the audio clock read \(o.clock) s")
        }
        // And the sound server heard the beeps one second apart, as the flashes were shown.
        let beeps = AudioAnalysis.onsets(sink.stopRecording(), threshold: 0.2, minGap: 0.5)
        #expect(beeps.count >= 5)
        let spacing = zip(beeps.dropFirst(), beeps).map { $0 - $1 }
        #expect(spacing.prefix(4).allSatisfy { abs($0 - 1) < 0.02 }, "beeps at \(beeps)")
    }
}
