import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// The item's timeline stays continuous across `EXT-X-DISCONTINUITY` and `EXT-X-GAP`.
@MainActor @Suite(.serialized) struct HLSTimelineTests {
    /// What playing an item to its end gave: the sound heard, the pictures, the positions of pictures dropped
    /// late, the bit rates of the variants switched to, the stalls.
    struct Run {
        var samples: [Float]
        var capture: CaptureVideoOutput
        var dropped: [Double]
        var switches: [Int]
        var stalls: Int
        var item: PlayerItem
        var frames: [CaptureVideoOutput.Capture] { capture.frames }
    }

    /// Plays `url` to its end, without an error; `probe` reads a value of each picture; `peakBitRate` is the
    /// item's `preferredPeakBitRate`.
    func play(url: URL, peakBitRate: Double = 0, probe: @escaping @Sendable (VideoFrame) -> Int) async throws -> Run {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let capture = CaptureVideoOutput(probe: probe)
        let item = PlayerItem(url: url)
        item.preferredPeakBitRate = peakBitRate
        item.add(capture)
        let stalls = Locked(0)
        let dropped = Locked([Double]())
        let switches = Locked([Int]())
        let events = player.events()
        Task { @MainActor in
            for await e in events {
                switch e.kind {
                case .stalled: stalls.withLock { $0 += 1 }
                case .droppedFrame(let position, _): dropped.withLock { $0.append(position) }
                case .variantSwitch(let bitRate, _, _): switches.withLock { $0.append(bitRate) }
                default: break
                }
            }
        }
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(await eventually(timeout: 40) { player.timeControlStatus == .paused }, "did not end")
        #expect(item.error == nil, "\(String(describing: item.error))")
        return Run(
            samples: sink.stopRecording(), capture: capture, dropped: dropped.current, switches: switches.current,
            stalls: stalls.current, item: item)
    }

    /// Plays `path` on the test nginx to its end, without a stall or an error.
    func play(
        _ path: String, peakBitRate: Double = 0, probe: @escaping @Sendable (VideoFrame) -> Int = { _ in 0 }
    ) async throws -> Run {
        let run = try await play(url: try HLSFixtures.url(path), peakBitRate: peakBitRate, probe: probe)
        #expect(run.stalls == 0, "stalled")
        return run
    }

    /// Frame times rise steadily (25 fps) from the start to `end`, one frame at a time, with no jump and no step
    /// back. A picture the player reported dropped (`droppedFrame`: late with a later one ready, as when the machine
    /// holds its threads back) is on the timeline, not shown; at most 2 % may be dropped.
    func expectContinuous(_ frames: [CaptureVideoOutput.Capture], dropped: [Double], to end: Double) {
        let times = frames.map(\.time.seconds)
        let timeline = (times + dropped).sorted()
        let steps = zip(timeline.dropFirst(), timeline).map { $0 - $1 }
        #expect(
            steps.allSatisfy { $0 > 0 && $0 < 0.06 },
            "jumps: \(steps.enumerated().filter { $0.1 <= 0 || $0.1 >= 0.06 }), dropped: \(dropped)")
        #expect(Double(dropped.count) <= end * 25 * 0.02, "dropped: \(dropped)")
        if !dropped.isEmpty { print("\(dropped.count) pictures dropped late, at \(dropped)") }
        #expect(abs((times.last ?? 0) - (end - 0.04)) < 0.1, "last frame at \(times.last ?? -1)")
        #expect(times.count > Int(end * 25) - 10, "\(times.count) frames")
    }

    /// Plays `master` from a test origin to its end, without an error, with each picture's height; the origin
    /// tells its requests.
    func playLadder(_ master: String) async throws -> (run: Run, origin: TestOrigin) {
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        return (try await play(url: origin.url(master), probe: { $0.height }), origin)
    }

    /// A ladder's run (`playLadder`) of `seconds` that switched up from 360p (tone 400 Hz): the pictures grow, time
    /// runs on without a jump, the sound plays throughout and ends on a higher rung's tone.
    func expectSwitchedUp(
        _ run: Run, in seconds: Double
    ) {
        #expect(run.switches.count >= 2, "no switch: \(run.switches)")
        let heights = run.capture.frames.map(\.value)
        #expect(heights.first == 360 && (heights.last ?? 0) > 360, "\(Set(heights))")
        expectContinuous(run.capture.frames, dropped: run.dropped, to: seconds)
        guard let span = AudioAnalysis.soundSpan(run.samples) else {
            Issue.record("no sound")
            return
        }
        #expect(abs(AudioAnalysis.frequency(Array(run.samples[span].prefix(48_000))) - 400) < 4)
        #expect(AudioAnalysis.frequency(Array(run.samples[span].suffix(48_000))) > 450, "still on 360p at the end")
        let heard = AudioAnalysis.audibleSeconds(run.samples)
        #expect(abs(heard - seconds) < 0.3, "heard \(heard) s")
    }

    @Test func aDiscontinuityKeepsTheTimelineContinuous() async throws {
        let run = try await play(try HLSFixtures.discontinuityStream())
        #expect(abs(run.item.duration.seconds - 8) < 0.1, "\(run.item.duration)")
        expectContinuous(run.frames, dropped: run.dropped, to: 8)
        #expect(
            abs(AudioAnalysis.audibleSeconds(run.samples) - 8) < 0.3, "\(AudioAnalysis.audibleSeconds(run.samples))")
        #expect(AudioAnalysis.longestGap(run.samples) < 0.05, "a gap of \(AudioAnalysis.longestGap(run.samples)) s")
    }

    @Test func aSeekPastADiscontinuityLandsOnTheTarget() async throws {
        let path = try HLSFixtures.discontinuityStream()
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let capture = CaptureVideoOutput()
        let item = PlayerItem(url: try HLSFixtures.url(path))
        item.add(capture)
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .readyToPlay })
        // The paused item shows its first picture (at 0 s) once, possibly just after it reports ready: wait for it,
        // so the first picture captured after the reset is the seek's.
        #expect(await eventually { !capture.frames.isEmpty })
        capture.reset()
        let done = await player.seek(
            to: MediaTime(value: 7, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero)
        #expect(done)
        player.play()
        #expect(await eventually { capture.frames.count > 10 })
        #expect(
            abs((capture.frames.first?.time.seconds ?? 0) - 7) < 0.05,
            "first frame \(capture.frames.first?.time.seconds ?? -1)")
        #expect(await eventually { player.currentTime().seconds > 7.5 }, "\(player.currentTime().seconds)")
    }

    /// An `EXT-X-GAP` segment is not fetched and keeps its time, as in the playlist (and in Safari): 2 s of
    /// silence over the last picture, no stall, the item 8 s long and played to 8 s.
    @Test func aGapIsNotFetchedAndKeepsItsTime() async throws {
        let path = try HLSFixtures.gapStream()
        let before = try HLSFixtures.requestCount()
        let run = try await play(path)
        #expect(abs(run.item.duration.seconds - 8) < 0.1, "\(run.item.duration)")
        // The pictures run to 2 s, none is shown for the gap, and they go on from 4 s to the end.
        let early = run.frames.filter { $0.time.seconds < 3 }
        let late = run.frames.filter { $0.time.seconds >= 3 }
        #expect(!run.frames.contains { $0.time.seconds > 2.05 && $0.time.seconds < 3.95 }, "a picture in the gap")
        expectContinuous(early, dropped: run.dropped.filter { $0 < 3 }, to: 2)
        #expect(abs((late.first?.time.seconds ?? 0) - 4) < 0.05, "after the gap: \(late.first?.time.seconds ?? -1)")
        #expect(
            abs((late.last?.time.seconds ?? 0) - 7.96) < 0.1, "the last picture at \(late.last?.time.seconds ?? -1)")
        #expect(late.count > 4 * 25 - 10, "\(late.count) pictures after the gap")
        // The sound: 6 s heard, the gap's 2 s silent between them.
        let heard = AudioAnalysis.audibleSeconds(run.samples)
        #expect(abs(heard - 6) < 0.3, "\(heard) s heard")
        let gap = AudioAnalysis.longestGap(run.samples)
        #expect(abs(gap - 2) < 0.1, "a silence of \(gap) s")
        let requests = try HLSFixtures.requests(since: before)
        #expect(!requests.contains("/ladder-ts/v0/seg01.ts"), "the gap was fetched: \(requests)")
    }

    /// A gap in the variant playing is taken from another variant that has it (RFC 8216bis), even one above the
    /// item's peak bit rate (a segment of it rather than a hole): the pictures and the sound go on without a
    /// break, the gap's seconds in the other variant's (540p, 500 Hz), and the gap itself is not fetched.
    @Test func aGapIsTakenFromAnotherVariantThatHasIt() async throws {
        let path = try HLSFixtures.gapLadder()
        let before = try HLSFixtures.requestCount()
        // Capped to the 360p variant, which has the gap.
        let run = try await play(path, peakBitRate: 600_000, probe: { $0.height })
        #expect(abs(run.item.duration.seconds - 8) < 0.1, "\(run.item.duration)")
        expectContinuous(run.frames, dropped: run.dropped, to: 8)
        let heights = run.frames.map { ($0.time.seconds, $0.value) }
        #expect(heights.filter { $0.0 >= 2.1 && $0.0 < 3.9 }.allSatisfy { $0.1 == 540 }, "\(heights)")
        #expect(heights.filter { $0.0 < 1.9 || $0.0 >= 4.1 }.allSatisfy { $0.1 == 360 }, "\(heights)")
        #expect(AudioAnalysis.longestGap(run.samples) < 0.05, gapMessage(run.samples))
        let heard = AudioAnalysis.audibleSeconds(run.samples)
        #expect(abs(heard - 8) < 0.3, "\(heard) s heard")
        let requests = try HLSFixtures.requests(since: before)
        #expect(requests.contains("/ladder-ts/v1/seg01.ts"), "\(requests)")
        #expect(!requests.contains("/ladder-ts/v0/seg01.ts"), "the gap was fetched: \(requests)")
        #expect(!requests.contains("/ladder-ts/v1/seg02.ts"), "stayed on 540p: \(requests)")
    }

    /// A seek into the gap lands there: the position goes on from the target through the rest of the gap in
    /// silence, and the pictures and the sound come back at its end.
    @Test func aSeekIntoAGapPlaysOnFromItsEnd() async throws {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let capture = CaptureVideoOutput()
        let item = PlayerItem(url: try HLSFixtures.url(try HLSFixtures.gapStream()))
        item.add(capture)
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(await eventually { !capture.frames.isEmpty })
        #expect(await player.seek(to: MediaTime(value: 3, timescale: 1), toleranceBefore: .zero, toleranceAfter: .zero))
        #expect(abs(player.currentTime().seconds - 3) < 0.01, "\(player.currentTime().seconds)")
        capture.reset()
        let heardBefore = sink.samplesSoFar.count
        player.play()
        #expect(await eventually(timeout: 20) { player.currentTime().seconds > 6 }, "\(player.currentTime().seconds)")
        let first = capture.frames.first?.time.seconds ?? -1
        #expect(abs(first - 4) < 0.05, "the first picture after the seek at \(first)")
        let heard = Array(sink.samplesSoFar.dropFirst(heardBefore))
        let onset = AudioAnalysis.soundSpan(heard).map { Double($0.lowerBound) / 48_000 } ?? -1
        // The second of the gap after the target passes in silence before the sound.
        #expect(onset > 0.8, "sound \(onset) s after play")
        #expect(item.error == nil, "\(String(describing: item.error))")
        player.close()
        _ = sink.stopRecording()
    }

    @Test func anFMP4StreamSwitchesVariantWithItsNewInitSection() async throws {
        let master = try HLSFixtures.tsLadder("ladder-fmp4", seconds: 20, segmentQuery: "rate=500000", fmp4: true)
        let (run, origin) = try await playLadder(master)
        expectSwitchedUp(run, in: 20)
        // Each variant's init section was fetched when its first segment was.
        let inits = origin.requests.filter { $0.contains("init.mp4") }
        #expect(inits.count == run.switches.count, "\(inits) for \(run.switches)")
        #expect(AudioAnalysis.longestGap(run.samples) < 0.01, gapMessage(run.samples))
    }
}
