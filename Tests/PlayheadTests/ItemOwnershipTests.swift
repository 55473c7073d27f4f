import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// An item is in one player at a time and keeps its time between players, as an `AVPlayerItem`: given back it goes
/// on where it was (it restarted from 0), one removed or played through can be queued again (the classic
/// `seek(to: .zero)` + `insert` loop was silently ignored), and one in a player is refused by another (it was
/// accepted by both).
@MainActor @Suite(.serialized) struct ItemOwnershipTests {
    @Test func anItemGivenBackGoesOnWhereItWas() async throws {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        defer { player.close() }
        let first = PlayerItem(url: try Fixtures.tone(seconds: 6, ext: "wav"))
        player.replaceCurrentItem(with: first)
        player.play()
        #expect(await eventually { player.currentTime().seconds > 1.5 })
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 2, ext: "wav")))
        let left = first.currentTime().seconds
        #expect(left > 1.4 && left < 2.5, "the item left at \(left) s")
        player.replaceCurrentItem(with: first)
        // From the moment it is back, and once it plays again.
        let back = player.currentTime().seconds
        #expect(abs(back - left) < 0.05, "given back at \(back) s, left at \(left) s")
        #expect(await eventually { player.currentTime().seconds > left + 0.3 }, "it does not play on")
    }

    @Test func anItemPlayedThroughCanBeQueuedAgain() async throws {
        let queue = QueuePlayer()
        queue.audioOutputChoice = .null(untimed: false)
        defer { queue.close() }
        let item = PlayerItem(url: try Fixtures.tone(seconds: 0.5, ext: "wav"))
        let ends = Locked(0)
        let token = NotificationCenter.default.addObserver(
            forName: PlayerItem.didPlayToEndTimeNotification, object: item, queue: nil
        ) { _ in ends.withLock { $0 += 1 } }
        defer { NotificationCenter.default.removeObserver(token) }
        queue.insert(item, after: nil)
        queue.play()
        #expect(await eventually { ends.current == 1 && queue.currentItem == nil }, "the first pass did not end")
        #expect(queue.canInsert(item, after: nil))
        item.seek(to: .zero)
        queue.insert(item, after: nil)
        #expect(queue.currentItem === item, "insert was ignored")
        #expect(await eventually { ends.current == 2 }, "the second pass did not end: \(ends.current)")
        // A removed item comes back too; one in the queue cannot be inserted twice.
        let other = PlayerItem(url: try Fixtures.tone(seconds: 2, ext: "wav"))
        queue.insert(other, after: nil)
        #expect(!queue.canInsert(other, after: nil))
        queue.remove(other)
        #expect(queue.canInsert(other, after: nil))
    }

    @Test func anItemInOnePlayerIsRefusedByAnother() async throws {
        let one = Player()
        one.audioOutputChoice = .null(untimed: false)
        defer { one.close() }
        let two = QueuePlayer()
        two.audioOutputChoice = .null(untimed: false)
        defer { two.close() }
        let item = PlayerItem(url: try Fixtures.tone(seconds: 4, ext: "wav"))
        one.replaceCurrentItem(with: item)
        one.play()
        #expect(await eventually { one.currentTime().seconds > 0.3 })
        let other = Player()
        defer { other.close() }
        other.replaceCurrentItem(with: item)
        #expect(other.currentItem == nil)
        #expect(!two.canInsert(item, after: nil))
        two.insert(item, after: nil)
        #expect(two.currentItem == nil)
        try await Task.sleep(for: .milliseconds(300))
        #expect(one.currentItem === item && one.timeControlStatus == .playing)
    }
}
