import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// `Player.replaceCurrentItem(with:)` as AVPlayer's: the item already current plays on (it restarted from 0), and
/// each change is an event (a plain player posted none; its doc promised one).
@MainActor @Suite(.serialized) struct PlayerReplaceTests {
    @Test func theCurrentItemPlaysOnAndEachChangeIsAnEvent() async throws {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        defer { player.close() }
        let changes = Locked(0)
        let stream = player.events()
        let listener = Task {
            for await e in stream where e.name == "item-changed" { changes.withLock { $0 += 1 } }
        }
        defer { listener.cancel() }
        let item = PlayerItem(url: try Fixtures.tone(seconds: 6, ext: "wav"))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { player.currentTime().seconds > 1 })
        player.replaceCurrentItem(with: item)
        try await Task.sleep(for: .milliseconds(300))
        #expect(player.currentTime().seconds > 1.2, "restarted: \(player.currentTime().seconds)")
        #expect(player.timeControlStatus == .playing)
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 2, ext: "wav")))
        player.replaceCurrentItem(with: nil)
        #expect(await eventually { changes.current == 3 }, "\(changes.current) item-changed events for 3 changes")
        try await Task.sleep(for: .milliseconds(200))
        #expect(changes.current == 3, "\(changes.current) item-changed events for 3 changes")
    }

    /// A closed player is paused and says so (its rate stayed 1).
    @Test func aClosedPlayerIsPaused() async throws {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 6, ext: "wav")))
        player.play()
        #expect(await eventually { player.currentTime().seconds > 0.3 })
        player.close()
        #expect(
            player.rate == 0 && player.timeControlStatus == .paused, "rate \(player.rate), \(player.timeControlStatus)")
    }
}
