import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Rule 31: ads an item marks as `requiresLinearPlayback` (`PlayerItem.interstitialTimeRanges`) are watched: a seek
/// during one is refused, a seek over (or into) one not yet played lands at its start, and once played it is
/// skipped freely, as the sink hears it.
@MainActor @Suite(.serialized) struct InterstitialTests {
    /// 20 s whose pitch tells the position: 300 Hz + 100 Hz per second.
    static func chirp() throws -> URL {
        try Fixtures.make(
            "chirp-300hz-plus-100hz-per-s-20s.wav",
            [
                "-f", "lavfi", "-i", "aevalsrc=0.5*sin(2*PI*(300*t+50*t*t)):s=48000:d=20", "-ac", "2", "-c:a",
                "pcm_s16le",
            ])
    }

    /// The position in the chirp heard last on `sink` (its last 0.2 s).
    static func heardPosition(_ sink: TestSink) -> Double {
        let samples = sink.samplesSoFar
        let window = samples.suffix(9_600)
        return (AudioAnalysis.frequency(Array(window)) - 300) / 100
    }

    static func ad(_ start: Double, _ end: Double, linear: Bool, _ name: String) -> InterstitialTimeRange {
        InterstitialTimeRange(
            timeRange: TimeRange(
                start: MediaTime(seconds: start, preferredTimescale: 600),
                end: MediaTime(seconds: end, preferredTimescale: 600)),
            requiresLinearPlayback: linear, identifier: name)
    }

    static func time(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds, preferredTimescale: 600) }

    @Test func seeksRespectTheAdsThatMustBeWatched() async throws {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        let item = PlayerItem(url: try Self.chirp())
        item.interstitialTimeRanges = [
            Self.ad(0, 2, linear: true, "pre-roll"), Self.ad(8, 11, linear: true, "mid-roll"),
            Self.ad(15, 16, linear: false, "skippable"),
        ]
        let seeks = Locked([Double]())
        let events = player.events()
        let recorder = Task { @MainActor in
            for await e in events { if case .seekStarted(let target) = e.kind { seeks.withLock { $0.append(target) } } }
        }
        defer { recorder.cancel() }
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing && player.currentTime().seconds > 0.3 })

        // In the pre-roll: every seek is refused and nothing moves; the chirp goes on from where it was.
        #expect(player.requiresLinearPlayback)
        #expect(await player.seek(to: Self.time(5)) == false, "a seek out of the pre-roll")
        let handled = Locked<Bool?>(nil)
        player.seek(to: Self.time(1), toleranceBefore: .zero, toleranceAfter: .zero) { ok in
            handled.withLock { $0 = ok }
        }
        #expect(handled.current == false, "the handler said \(String(describing: handled.current))")
        #expect(await player.seek(toFraction: 0.9) == false)
        try await Task.sleep(for: .milliseconds(500))
        let inPreRoll = Self.heardPosition(sink)
        #expect(inPreRoll > 0.3 && inPreRoll < 2, "heard \(inPreRoll) s into the chirp during the pre-roll")
        #expect(seeks.current.isEmpty, "seeks started: \(seeks.current)")

        // Past it: a seek over the unplayed mid-roll lands at its start, exactly; one right behind it (a scrubber)
        // is refused, as the play head is in the mid-roll.
        #expect(await eventually { player.currentTime().seconds > 2.3 })
        #expect(!player.requiresLinearPlayback)
        let first = Locked<Bool?>(nil)
        player.seek(to: Self.time(14)) { ok in first.withLock { $0 = ok } }
        #expect(await player.seek(to: Self.time(14)) == false, "a second seek skipped the mid-roll")
        #expect(await eventually { first.current == true }, "the first seek: \(String(describing: first.current))")
        #expect(await eventually { (8..<8.4).contains(player.currentTime().seconds) }, "\(player.currentTime())")
        #expect(player.requiresLinearPlayback)
        try await Task.sleep(for: .milliseconds(600))
        let inMidRoll = Self.heardPosition(sink)
        #expect(inMidRoll > 8 && inMidRoll < 9.2, "heard \(inMidRoll) s into the chirp after the seek to 14 s")
        #expect(await player.seek(to: Self.time(0)) == false, "a seek back out of the mid-roll")

        // Once played through, ads are skipped freely both ways, and so is an ad that need not be watched.
        #expect(await eventually { player.currentTime().seconds > 11.2 })
        #expect(!player.requiresLinearPlayback)
        #expect(await player.seek(to: Self.time(1)), "a seek back into the played pre-roll")
        #expect(await player.seek(to: Self.time(15.5)), "a seek over the played mid-roll into a skippable ad")
        let landed = player.currentTime().seconds
        #expect(abs(landed - 15.5) < 0.2, "landed at \(landed) s")
        try await Task.sleep(for: .milliseconds(600))
        let after = Self.heardPosition(sink)
        #expect(after > 15.5 && after < 16.7, "heard \(after) s into the chirp after the seek to 15.5 s")
        #expect(seeks.current == [8, 1, 15.5], "seeks started: \(seeks.current)")
        _ = sink.stopRecording()
    }
}
