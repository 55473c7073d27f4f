import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Exact seeks land on their target, as AVPlayer's do, where the sound of the target's first moments is stored before
/// the cut: an HLS segment's (it landed 7-37 ms late, at the segment's first AAC frame). An MPEG-TS file's keyframes
/// landed right before the change too; they are checked so that reading from before the target keeps them so.
@MainActor @Suite(.serialized) struct ExactSeekLandingTests {
    static func expectLandings(_ url: URL, _ targets: [Double]) async throws {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        defer { player.close() }
        player.replaceCurrentItem(with: PlayerItem(url: url))
        #expect(await eventually { player.currentItem?.status == .readyToPlay })
        for target in targets {
            let ok = await player.seek(
                to: MediaTime(seconds: target, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero)
            #expect(ok)
            try await Task.sleep(for: .milliseconds(100))
            let landed = player.currentTime().seconds
            #expect(abs(landed - target) < 0.002, "\(url.lastPathComponent): a seek to \(target) landed at \(landed)")
            // Played from there: the time moves on from the target, not from a later first sample.
            player.play()
            var moved = landed
            for _ in 0..<500 where moved == landed {
                try await Task.sleep(for: .milliseconds(1))
                moved = player.currentTime().seconds
            }
            player.pause()
            #expect(moved > target && moved < target + 0.015, "\(url.lastPathComponent): from \(target) on at \(moved)")
        }
    }

    @Test func anHLSStreamsSegmentStarts() async throws {
        let url = try HLSFixtures.url(try HLSFixtures.tsLadder())
        try await Self.expectLandings(url, [4.0, 4.01, 6.0, 2.02, 3.99])
    }

    @Test func anMPEGTSFilesKeyframes() async throws {
        let ts = try Fixtures.make(
            "testsrc-tone-8s.ts",
            [
                "-f", "lavfi", "-i", "testsrc2=s=320x180:r=25:d=8", "-f", "lavfi", "-i",
                "sine=frequency=440:duration=8:sample_rate=48000", "-c:v", "libx264", "-preset", "ultrafast", "-g",
                "50",
                "-pix_fmt", "yuv420p", "-c:a", "aac", "-ac", "2",
            ])
        try await Self.expectLandings(ts, [2.0, 4.0, 4.01, 6.0])
    }
}
