import Foundation
import Playhead
import PlayheadCore
import PlayheadTestSupport
import Testing

/// Adaptive bitrate on a paced origin (4 Mb/s): up-switches once buffer and measurements allow, obeys caps.
@MainActor @Suite(.serialized) struct HLSAdaptiveTests {
    func play(_ configure: (PlayerItem) -> Void) async throws -> (samples: [Float], switches: [Int], item: PlayerItem) {
        let master = try HLSFixtures.tsLadder("ladder-paced", seconds: 20, segmentQuery: "rate=500000")
        let folder = try HLSFixtures.root()
        let origin = try TestOrigin(serving: folder)
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: origin.url(master))
        configure(item)
        let switches = Locked([Int]())
        let events = player.events()
        Task { @MainActor in
            for await e in events {
                if case .variantSwitch(let bitRate, _, _) = e.kind { switches.withLock { $0.append(bitRate) } }
            }
        }
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { item.status == .readyToPlay })
        #expect(await eventually(timeout: 40) { player.timeControlStatus == .paused }, "did not end")
        return (sink.stopRecording(), switches.current, item)
    }

    @Test func switchesUpSeamlessly() async throws {
        let (samples, switches, item) = try await play { _ in }
        #expect(!switches.isEmpty, "no variant switch")
        // The access log: a first period on 360p, then a switch; the origin paces at 4 Mb/s.
        let log = item.accessLog
        #expect(log.count >= 2 && log.first?.indicatedBitrate == 510_000 && log[1].isSwitch, "\(log)")
        let observed = log.first?.observedBitrate ?? 0
        #expect(observed > 2.5e6 && observed < 5e6, "observed \(observed) b/s on a 4 Mb/s origin")
        #expect(switches.dropFirst().allSatisfy { $0 > 510_000 }, "\(switches)")
        // It starts on the 400 Hz variant and ends on a higher one, with no silence at the switch.
        let head = Array(samples[AudioAnalysis.soundSpan(samples)!.lowerBound...].prefix(48_000))
        let tail = Array(samples[..<AudioAnalysis.soundSpan(samples)!.upperBound].suffix(48_000))
        #expect(abs(AudioAnalysis.frequency(head) - 400) < 4)
        #expect(AudioAnalysis.frequency(tail) > 450, "still on the lowest variant at the end")
        #expect(abs(AudioAnalysis.audibleSeconds(samples) - 20) < 0.3)
        #expect(AudioAnalysis.longestGap(samples) < 0.01, "a gap at the switch")
    }

    @Test func peakBitRateCapHolds() async throws {
        let (samples, switches, _) = try await play { $0.preferredPeakBitRate = 600_000 }
        #expect(switches == [510_000], "only the starting variant: \(switches)")
        let tail = Array(samples[..<AudioAnalysis.soundSpan(samples)!.upperBound].suffix(48_000))
        #expect(abs(AudioAnalysis.frequency(tail) - 400) < 4, "left the capped variant")
    }

    @Test func aFastOriginIsMeasuredFromTheFirstSegment() async throws {
        // The test origin unpaced, on this machine: a segment arrives within milliseconds, under the 50 ms the
        // estimator pools small samples for; the player stayed on 960x540 for the whole stream, its estimate at the
        // 500 kbit/s default. A whole download now counts when it ends.
        let master = try HLSFixtures.tsLadder("ladder-long", seconds: 48)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: origin.url(master))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { item.status == .readyToPlay })
        #expect(await eventually(timeout: 30) { player.currentTime().seconds >= 9 }, "did not play 9 s")
        player.pause()
        let samples = sink.stopRecording()
        let start = try #require(AudioAnalysis.soundSpan(samples)).lowerBound
        // From the third segment on (4 s): the 1080p variant's 700 Hz tone.
        let later = Array(samples[(start + 4 * 48_000)...].prefix(4 * 48_000))
        #expect(later.count == 4 * 48_000, "\(samples.count) samples")
        #expect(
            abs(AudioAnalysis.frequency(later) - 700) < 4, "not the top variant: \(AudioAnalysis.frequency(later)) Hz")
        let top = item.accessLog.last
        #expect(top?.indicatedBitrate == 3_610_000 && (top?.observedBitrate ?? 0) > 50e6, "\(item.accessLog)")
    }
}
