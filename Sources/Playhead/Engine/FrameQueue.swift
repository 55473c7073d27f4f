import Foundation
import PlayheadVideo

/// A small blocking queue of decoded frames between the video decode thread and the video thread, tagged with the
/// engine generation they belong to. Thread-safe.
final class FrameQueue: @unchecked Sendable {
    enum Item {
        case frame(VideoFrame, generation: Int)
        case end(generation: Int)
    }

    private let condition = NSCondition()
    private var items: [Item] = []
    private var aborted = false
    private var kicks = 0
    /// Counts `kickTaker()` calls (a taker whose turn may be over looks again).
    private var takerKicks = 0
    let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Appends, waiting while full; returns false when aborted or kicked (a seek) while waiting.
    func put(_ item: Item) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        let kick = kicks
        while items.count >= capacity && !aborted && kicks == kick { condition.wait() }
        if aborted || kicks != kick { return false }
        items.append(item)
        condition.broadcast()
        return true
    }

    /// The count of `kickTaker()` calls so far: read it before looking at what decides whether to take, then pass it
    /// to `take(since:)`, so a kick between the look and the wait is not lost.
    func takeToken() -> Int {
        condition.lock()
        defer { condition.unlock() }
        return takerKicks
    }

    /// Removes the first item, waiting while the queue is empty; nil when aborted, kicked (a seek) while waiting,
    /// or, with a `token`, when `kickTaker()` was called after it was read.
    func take(since token: Int? = nil) -> Item? {
        condition.lock()
        defer { condition.unlock() }
        let kick = kicks
        while items.isEmpty && !aborted && kicks == kick && (token.map { $0 == takerKicks } ?? true) {
            condition.wait()
        }
        if aborted || items.isEmpty { return nil }
        condition.broadcast()
        return items.removeFirst()
    }

    /// The first item without removing it.
    func peek() -> Item? {
        condition.lock()
        defer { condition.unlock() }
        return items.first
    }

    /// Drops everything and wakes a waiting producer.
    func flush() {
        condition.lock()
        items.removeAll()
        condition.broadcast()
        condition.unlock()
    }

    /// Wakes waiting producers and consumers (a seek arrived).
    func wakeAll() {
        condition.lock()
        kicks += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Ends a taker's wait without disturbing producers (its presenter's choice changed).
    func kickTaker() {
        condition.lock()
        takerKicks &+= 1
        condition.broadcast()
        condition.unlock()
    }

    /// Ends all waits for good.
    func abort() {
        condition.lock()
        aborted = true
        condition.broadcast()
        condition.unlock()
    }
}
