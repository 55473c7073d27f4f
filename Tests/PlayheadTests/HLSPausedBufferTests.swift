import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// What a paused stream shows of its buffer.
@MainActor @Suite(.serialized) struct HLSPausedBufferTests {
    /// Paused on a slow link (1 Mbit/s, the 360p variant), the stream goes on downloading into its forward buffer,
    /// and `loadedTimeRanges` says so as each segment arrives: the status line's `(+Ns)` grows while paused. (It
    /// stood still until playback resumed: the loaded range was updated only while playing.)
    @Test func theLoadedRangeGrowsWhilePaused() async throws {
        _ = try HLSFixtures.tsLadder("ladder-long", seconds: 48)
        let origin = try TestOrigin(serving: try HLSFixtures.root(), trace: [(600, 1_000_000)])
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        defer { player.close() }
        let item = PlayerItem(url: origin.url("ladder-long/master.m3u8"))
        item.preferredPeakBitRate = 600_000
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(
            await eventually(timeout: 20) { player.currentTime().seconds > 1 }, "\(String(describing: item.error))")
        player.pause()
        #expect(await eventually { player.timeControlStatus == .paused })
        let position = player.currentTime().seconds
        let before = item.loadedTimeRanges.first?.end.seconds ?? 0
        try await Task.sleep(for: .seconds(4))
        let after = item.loadedTimeRanges.first?.end.seconds ?? 0
        #expect(after - before > 2, "loaded until \(before) s, 4 s later until \(after) s")
        #expect(abs(player.currentTime().seconds - position) < 0.05, "moved while paused")
        #expect(item.error == nil, "\(String(describing: item.error))")
    }
}
