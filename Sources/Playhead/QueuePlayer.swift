import Foundation
import PlayheadCore

/// Plays a queue of items one after another, like `AVQueuePlayer`, gaplessly: near the end of each item the next
/// one is opened and primed, and its first sample follows the last sample of the current one in the same output
/// stream.
///
/// Main actor and `@Observable` (through `Player`): `currentItem` and `upNext` change as the queue advances.
/// `actionAtItemEnd` is `.advance` by default; `.pause` and `.none` keep the player on the ended item.
@MainActor
public final class QueuePlayer: Player {
    /// An empty queue.
    public override init() {
        super.init()
        actionAtItemEnd = .advance
    }

    /// A queue of `items`, the first one current. Items that cannot be inserted (already in a queue) are skipped.
    public init(items: [PlayerItem]) {
        super.init()
        actionAtItemEnd = .advance
        for item in items { insert(item, after: nil) }
    }

    /// A queue holding `item`.
    public convenience override init(playerItem item: PlayerItem?) {
        self.init(items: item.map { [$0] } ?? [])
    }

    /// The items in the queue, the current one first, like `AVQueuePlayer.items()`.
    public func items() -> [PlayerItem] { queue }

    /// The items that play after the current one, in order ("up next"); observable.
    public var upNext: [PlayerItem] { Array(queue.dropFirst(currentItem == nil ? 0 : 1)) }

    /// Ends the current item and plays the next one (at once, from the primed engine when it is preloaded); with
    /// no next item the queue becomes empty.
    public func advanceToNextItem() {
        guard let current = queue.first else { return }
        queue.removeFirst()
        current.player = nil
        current.queueOwner = nil
        startHead()
    }

    /// Whether `item` may be inserted after `afterItem` (nil: at the end): an item is in one player at a time, so
    /// not while it is current or queued in any player; one removed or played through may come back (it starts
    /// where it was left, or where `PlayerItem.seek(to:)` put it; from its start when it had played to its end).
    public func canInsert(_ item: PlayerItem, after afterItem: PlayerItem?) -> Bool {
        guard item.owner == nil else { return false }
        guard let afterItem else { return true }
        return queue.contains { $0 === afterItem }
    }

    /// Inserts `item` after `afterItem`, or at the end when `afterItem` is nil; into an empty queue it becomes the
    /// current item. Does nothing when `canInsert` is false, and says why on standard error (`AVQueuePlayer`
    /// raises an exception).
    public func insert(_ item: PlayerItem, after afterItem: PlayerItem?) {
        guard canInsert(item, after: afterItem) else {
            return LibraryWarning.say(
                item.owner != nil
                    ? "QueuePlayer.insert(_:after:) ignored: the item is in a player already (an item is in one "
                        + "player at a time)"
                    : "QueuePlayer.insert(_:after:) ignored: the item to insert after is not in the queue")
        }
        item.queueOwner = self
        let index = afterItem.flatMap { a in queue.firstIndex { $0 === a } }.map { $0 + 1 } ?? queue.count
        queue.insert(item, at: index)
        if currentItem == nil {
            startHead()
        } else if index == 1 {
            refreshPreload()
        }
    }

    /// Removes `item` from the queue; removing the current item advances to the next, as `AVQueuePlayer` does.
    public func remove(_ item: PlayerItem) {
        guard let index = queue.firstIndex(where: { $0 === item }) else { return }
        if index == 0 && item === currentItem {
            advanceToNextItem()
            return
        }
        queue.remove(at: index)
        item.queueOwner = nil
        if index == 1 { refreshPreload() }
    }

    /// Empties the queue and stops playback; the player has no current item afterwards.
    public func removeAllItems() {
        discardPreloaded()
        for item in queue {
            item.player = nil
            item.queueOwner = nil
        }
        queue.removeAll()
        setCurrentItem(nil)
        emit(PlayerEvent(.currentItemChanged))
    }

    /// Replaces the current item (at the head of the queue) with `item`; nil removes the current item and plays
    /// the next.
    public override func replaceCurrentItem(with item: PlayerItem?) {
        if let item, item === currentItem { return }
        if let item, item.owner != nil {
            return LibraryWarning.say(
                "replaceCurrentItem(with:) ignored: the item is in a player already (an item is in one player at a "
                    + "time)")
        }
        if let current = currentItem, queue.first === current {
            queue.removeFirst()
            current.queueOwner = nil
        }
        if let item {
            item.queueOwner = self
            queue.insert(item, at: 0)
        }
        startHead()
    }

    /// Called when the current item played to its end with `.advance`.
    override func advance(after item: PlayerItem) {
        guard item === currentItem, queue.first === item else { return }
        queue.removeFirst()
        item.player = nil
        item.queueOwner = nil
        startHead()
    }

    /// Makes the head of the queue current: from the preloaded engine when it holds that item (a gapless hand-off
    /// after `ended`), otherwise with a new engine.
    private func startHead() {
        guard let head = queue.first else {
            discardPreloaded()
            if currentItem != nil { setCurrentItem(nil) }
            emit(PlayerEvent(.currentItemChanged))
            return
        }
        if head === currentItem { return }
        var failure: PlaybackError?
        if let p = preloaded, p.item === head {
            failure = promotePreloaded()
        } else {
            discardPreloaded()
            setCurrentItem(head)
        }
        // The change first, then the failure of an item that failed while preloaded: its error is the new item's.
        emit(PlayerEvent(.currentItemChanged))
        if let failure {
            fail(failure)
            // Whoever heard the failure may have moved on already (a player that skips a broken entry).
            guard currentItem === head else { return }
        }
        preloadNextIfNeeded()
    }

    /// Drops a preloaded engine that no longer holds the next item, and preloads the right one when due. A
    /// preloaded engine that already took over the output stays: the change is too late for this boundary.
    private func refreshPreload() {
        if let p = preloaded, p.item !== itemAfterCurrent, !p.engine.isActive { discardPreloaded() }
        preloadNextIfNeeded()
    }
}
