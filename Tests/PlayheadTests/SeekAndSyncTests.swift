import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Exact and fast seeks on frame-numbered video, and audio/video sync, as a viewer would see them.
@MainActor @Suite(.serialized) struct SeekAndSyncTests {
    func numberedCapture() -> CaptureVideoOutput { .numbered() }

    func openedPlayer(_ url: URL, _ capture: CaptureVideoOutput) async throws -> Player {
        try await Player.openedPaused(url, showing: capture)
    }

    /// In MP4 and in MPEG-TS (no index: FFmpeg's seek lands wherever a time stamp search ends, often after the
    /// keyframe before the target, and the first picture shown was the next keyframe's, 100).
    @Test(arguments: ["mp4", "ts"]) func exactSeekShowsTheRequestedFrameFirst(ext: String) async throws {
        let capture = numberedCapture()
        let player = try await openedPlayer(try Fixtures.numberedVideo(ext: ext), capture)
        // Frame 82 (3.28 s at 25 fps after frame 0, which MPEG-TS puts 0.08 s after the start of the sound) lies
        // between the keyframes 50 and 100.
        let frame0 = capture.frames.first?.time.seconds ?? 0
        capture.reset()
        let target = MediaTime(seconds: frame0 + 3.28, preferredTimescale: 90_000)
        let finished = await player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(finished)
        #expect(await eventually { !capture.frames.isEmpty })
        #expect(capture.frames.first?.value == 82, "first frame after the seek: \(capture.frames.map(\.value))")
        #expect(abs(player.currentTime().seconds - target.seconds) < 0.05, "position \(player.currentTime().seconds)")
        // Playing on shows the following frames in order.
        player.play()
        try await Task.sleep(for: .milliseconds(400))
        player.pause()
        let shown = capture.frames.map(\.value)
        #expect(shown.count >= 6 && shown == Array(82..<(82 + shown.count)), "\(shown)")
    }

    /// Past the last keyframe (frame 200 of 250), the target's picture is shown. (In MPEG-TS no keyframe came after
    /// where FFmpeg's seek landed: no picture at all until the end.)
    @Test(arguments: ["mp4", "ts"]) func anExactSeekPastTheLastKeyframeShowsItsPicture(ext: String) async throws {
        let capture = numberedCapture()
        let player = try await openedPlayer(try Fixtures.numberedVideo(ext: ext), capture)
        let frame0 = capture.frames.first?.time.seconds ?? 0
        capture.reset()
        let target = MediaTime(seconds: frame0 + 9.2, preferredTimescale: 90_000)
        #expect(await player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero))
        #expect(await eventually { !capture.frames.isEmpty }, "no picture after the seek")
        #expect(capture.frames.first?.value == 230, "first frame after the seek: \(capture.frames.map(\.value))")
    }

    @Test(arguments: ["mp4", "ts"]) func fastSeekLandsOnTheKeyframeBefore(ext: String) async throws {
        let capture = numberedCapture()
        let player = try await openedPlayer(try Fixtures.numberedVideo(ext: ext), capture)
        let frame0 = capture.frames.first?.time.seconds ?? 0
        capture.reset()
        let finished = await player.seek(to: MediaTime(seconds: frame0 + 3.28, preferredTimescale: 90_000))
        #expect(finished)
        #expect(await eventually { !capture.frames.isEmpty })
        // The fast seek does not decode past the keyframe: it shows keyframe 50, at or before the target.
        #expect(capture.frames.first?.value == 50, "\(capture.frames.map(\.value))")
        #expect(player.currentTime().seconds <= frame0 + 3.28 + 0.001)
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

    /// While a seek is in flight the position reads its target (as `AVPlayer`'s does), so a step from "here" taken
    /// before it lands goes on from where the first step goes: two +2 s steps asked at once end at 4 s, not 2 s.
    @Test func aStepAskedDuringASeekGoesOnFromItsTarget() async throws {
        let capture = numberedCapture()
        let player = try await openedPlayer(try Fixtures.numberedVideo(), capture)
        // No await between the two steps: the first seek cannot have landed when the second one is asked.
        for _ in 0..<2 {
            let target = MediaTime(seconds: player.currentTime().seconds + 2, preferredTimescale: 1000)
            player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero) { _ in }
        }
        #expect(abs(player.currentTime().seconds - 4) < 0.001, "read \(player.currentTime().seconds) at once")
        #expect(await eventually { capture.frames.last?.value == 100 }, "\(capture.frames.suffix(3).map(\.value))")
        #expect(abs(player.currentTime().seconds - 4) < 0.05, "landed at \(player.currentTime().seconds)")
    }

    /// Between two pictures, an exact seek shows the one whose time holds the target (the frame starting before
    /// it), as `AssetImageGenerator` does: 5.55 s shows frame 138 (5.52 s); it showed 139 (5.56 s), not yet due.
    @Test func anExactSeekBetweenPicturesShowsTheOneOnScreenThen() async throws {
        let capture = numberedCapture()
        let player = try await openedPlayer(try Fixtures.numberedVideo(), capture)
        for (seconds, frame) in [(5.55, 138), (1.234, 30), (2.0, 50), (2.03, 50)] {
            let target = MediaTime(seconds: seconds, preferredTimescale: 1000)
            #expect(await player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero))
            #expect(
                await eventually { capture.frames.last?.value == frame },
                "\(seconds) s showed \(capture.frames.suffix(2).map(\.value)), not \(frame)")
        }
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

    /// When a flash was first shown: its frame's time, what the audio clock read and the monotonic time then.
    typealias Flash = (time: Double, clock: Double, at: Double)

    /// Plays a flash-and-beep file (`Fixtures.flashAndBeep`) until `seconds`: when each flash was first shown and
    /// when the sound server heard each beep (seconds into the sound it was given).
    func flashesAndBeeps(_ url: URL, until seconds: Double = 5.5) async throws -> (flashes: [Flash], beeps: [Double]) {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let timebase = player.timebase
        // Record, for every presented frame, how bright it is and what the audio clock said at that moment.
        let capture = CaptureVideoOutput { frame in
            let bright = frame.luma(x: 160, y: 120) > 128
            let clock = Int(timebase.time.seconds * 1_000_000)
            return bright ? clock : -clock - 1
        }
        let item = PlayerItem(url: url)
        item.add(capture)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 15) { player.currentTime().seconds > seconds })
        player.pause()
        // Flash onsets: the first bright frame of each flash.
        var onsets: [Flash] = []
        var wasBright = false
        for f in capture.frames {
            let bright = f.value >= 0
            if bright && !wasBright { onsets.append((f.time.seconds, Double(f.value) / 1_000_000, f.presentedAt)) }
            wasBright = bright
        }
        return (onsets, AudioAnalysis.onsets(sink.stopRecording(), threshold: 0.2, minGap: 0.5))
    }

    /// Each flash is shown when the audio clock reads its time.
    func expectShownOnTheClock(_ flashes: [Flash], _ test: String) {
        let worst = flashes.map { abs($0.clock - $0.time) }.max() ?? 0
        print("\(test): flashes shown at most \(Int(worst * 1000)) ms off the audio clock")
        for o in flashes {
            #expect(abs(o.clock - o.time) < 0.040, "frame at \(o.time) s shown when the audio clock read \(o.clock) s")
        }
    }

    @Test func videoFramesFollowTheAudioClock() async throws {
        let (flashes, beeps) = try await flashesAndBeeps(try Fixtures.flashAndBeep())
        // Flashes at 1, 2, 3, 4, 5 s.
        #expect(flashes.count == 5, "flashes seen at \(flashes.map(\.time))")
        expectShownOnTheClock(flashes, "videoFramesFollowTheAudioClock")
        // And the sound server heard the beeps one second apart, as the flashes were shown.
        #expect(beeps.count >= 5)
        let spacing = zip(beeps.dropFirst(), beeps).map { $0 - $1 }
        #expect(spacing.prefix(4).allSatisfy { abs($0 - 1) < 0.02 }, "beeps at \(beeps)")
    }

    /// A file whose sound is missing for 2 s while its pictures go on (the beeps at 2 and 3 s are gone, the time
    /// stamps jump over them): silence fills the hole, so the beeps after it are heard with their flashes. (The
    /// sound after the hole followed at once: the beep of 4 s was heard a second after the first, 2 s ahead of
    /// its flash, and the rest of the item stayed 2 s out of step.)
    @Test func soundStaysWithThePicturesAfterAHoleInIt() async throws {
        let (flashes, beeps) = try await flashesAndBeeps(try Fixtures.flashAndBeepWithSoundHole(from: 1.5, to: 3.5))
        #expect(flashes.map { Int($0.time.rounded()) } == [1, 2, 3, 4, 5], "flashes seen at \(flashes.map(\.time))")
        expectShownOnTheClock(flashes, "soundStaysWithThePicturesAfterAHoleInIt")
        // Beeps of 1, 4 and 5 s, heard 3 s and 1 s apart.
        let spacing = zip(beeps.dropFirst(), beeps).map { $0 - $1 }
        #expect(spacing.count == 2 && abs(spacing[0] - 3) < 0.02 && abs(spacing[1] - 1) < 0.02, "beeps at \(beeps)")
    }

    /// A hole of 64 ms in the sound (three AAC frames lost) is filled too: the beeps stay a second apart. (It was
    /// played through: the sound ran 64 ms ahead of the pictures from there on.)
    @Test func aShortHoleInTheSoundIsFilledToo() async throws {
        let (_, beeps) = try await flashesAndBeeps(try Fixtures.flashAndBeepWithSoundHole(from: 1.5, to: 1.564))
        let heard = zip(beeps.dropFirst(), beeps).map { $0 - $1 }
        #expect(heard.count == 4 && heard.allSatisfy { abs($0 - 1) < 0.01 }, "beeps at \(beeps)")
    }

    /// A file whose sound starts 1.5 s after its pictures (as a recording whose sound is delayed): the pictures
    /// play in time from the start, in silence, and each beep is heard with its flash.
    @Test func soundThatStartsLateStartsWithItsPictures() async throws {
        let (flashes, beeps) = try await flashesAndBeeps(try Fixtures.flashAndBeepWithSoundHole(from: 0, to: 1.5))
        #expect(flashes.map { Int($0.time.rounded()) } == [1, 2, 3, 4, 5], "flashes seen at \(flashes.map(\.time))")
        expectShownOnTheClock(flashes, "soundThatStartsLateStartsWithItsPictures")
        let shown = zip(flashes.dropFirst(), flashes).map { $0.at - $1.at }
        #expect(shown.allSatisfy { abs($0 - 1) < 0.1 }, "flashes shown \(shown) s apart")
        let heard = zip(beeps.dropFirst(), beeps).map { $0 - $1 }
        #expect(heard.count == 3 && heard.allSatisfy { abs($0 - 1) < 0.02 }, "beeps at \(beeps)")
    }

    /// A hole in the sound longer than silence fills (`longestSilenceFilled`, 10 s: from 1.5 s to 13.5 s) is taken
    /// for a jump in time stamps: the clock jumps with the sound and the pictures follow it (those of the hole,
    /// late, hurry past), so the flash of 14 s is shown with its beep, a second after the first, as the beep is
    /// heard. (The clock ran on through the hole: the beep of 14 s was heard 12 s before its flash was shown.)
    @Test func picturesJumpWithTheSoundOverALongHole() async throws {
        let url = try Fixtures.flashAndBeepWithSoundHole(seconds: 16, from: 1.5, to: 13.5)
        let (all, beeps) = try await flashesAndBeeps(url, until: 15.5)
        let flashes = all.filter { $0.time < 1.5 || $0.time > 13.5 }
        #expect(flashes.map { Int($0.time.rounded()) } == [1, 14, 15], "flashes seen at \(all.map(\.time))")
        expectShownOnTheClock(flashes, "picturesJumpWithTheSoundOverALongHole")
        let shown = zip(flashes.dropFirst(), flashes).map { $0.at - $1.at }
        let heard = zip(beeps.dropFirst(), beeps).map { $0 - $1 }
        #expect(heard.count == 2 && heard.allSatisfy { abs($0 - 1) < 0.02 }, "beeps at \(beeps)")
        #expect(shown.count == 2 && shown.allSatisfy { abs($0 - 1) < 0.1 }, "flashes shown \(shown) s apart")
    }
}
