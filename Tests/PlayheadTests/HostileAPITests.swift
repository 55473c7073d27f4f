import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Issue 18 through the API: numbers an app passes on unchecked (a seek target of 1e16 s, a network timeout of
/// 1e300 s) must not trap the engine's conversions to FFmpeg's integers.
@MainActor @Suite(.serialized) struct HostileAPITests {
    /// Plays `item` untimed and waits until it ends or fails; returns whether it did within 20 s.
    func playsOut(_ item: PlayerItem) async -> Bool {
        let player = Player()
        player.audioOutputChoice = .null(untimed: true)
        player.untimed = true
        let events = player.events()
        let finished = Locked(false)
        let watcher = Task { @MainActor in
            for await e in events {
                switch e.kind {
                case .ended, .error: finished.withLock { $0 = true }
                default: break
                }
            }
        }
        defer {
            watcher.cancel()
            player.close()
        }
        player.replaceCurrentItem(with: item)
        player.play()
        return await eventually(timeout: 20) { finished.withLock { $0 } || player.status == .failed }
    }

    @Test(arguments: [1e16, 1e300, -1e300, Double.greatestFiniteMagnitude])
    func aSeekFarOutsideTheItemDoesNotTrap(_ seconds: Double) async throws {
        let item = PlayerItem(url: try Fixtures.tone(seconds: 1))
        item.seek(to: MediaTime(seconds: seconds, preferredTimescale: 48_000))
        #expect(await playsOut(item), "seek to \(seconds): neither ended nor failed")
    }

    @Test(arguments: [1e300, Double.greatestFiniteMagnitude])
    func aHugeNetworkTimeoutDoesNotTrap(_ timeout: Double) async throws {
        let asset = URLAsset(url: try Fixtures.tone(seconds: 0.5), options: [.networkTimeout: timeout])
        #expect(await playsOut(PlayerItem(asset: asset)), "timeout \(timeout): neither ended nor failed")
    }
}
