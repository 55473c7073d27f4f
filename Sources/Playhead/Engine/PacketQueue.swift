import Foundation
import PlayheadCore
import PlayheadFFmpeg

/// A blocking FIFO of compressed packets between the demux thread and one decode thread, with the seconds and
/// bytes it holds, and a serial number that changes at every seek so stale packets are recognised.
///
/// Thread-safe: one producer (demux) and one consumer (a decoder); `abort` may come from any thread.
final class PacketQueue: @unchecked Sendable {
    enum Item {
        case packet(Packet, seconds: Double?)
        case endOfStream
        /// From here on the audio queue carries another track (`PlaybackEngine.switchAudio`).
        case switchAudio(AudioSwitch)
        /// Nothing between these item times will come (`GapRead`): held as media time, played as silence.
        case gap(from: Double, until: Double)
    }

    /// An item and the engine generation (seek) it belongs to.
    struct Tagged {
        var item: Item
        var generation: Int
    }

    private let condition = PriorityInheritingCondition()
    private var items: [Tagged] = []
    private var head = 0
    private var aborted = false
    /// While set, `take` waits as on an empty queue (`hold`): the items stay put while a seek looks at them.
    private var held = false
    private var waitingConsumer = false
    /// Bytes of packets held.
    private(set) var bytes = 0
    /// The time stamp of the first and last packet held, in seconds.
    private var firstSeconds: Double?
    private var lastSeconds: Double?
    /// Whether the end-of-stream marker has been queued since the last flush (`reachedEnd`); guarded by the lock.
    private var endQueued = false
    /// Whether the end-of-stream marker has been queued since the last flush. Any thread (under the queue's lock:
    /// the decode threads read it while the demux thread flushes).
    var reachedEnd: Bool {
        condition.lock()
        defer { condition.unlock() }
        return endQueued
    }

    /// Seconds of media between the first and the last packet held.
    var seconds: Double {
        condition.lock()
        defer { condition.unlock() }
        guard let a = firstSeconds, let b = lastSeconds else { return 0 }
        return max(0, b - a)
    }

    /// The time stamp of the newest packet held or handed out since the last flush.
    var newestSeconds: Double? {
        condition.lock()
        defer { condition.unlock() }
        return lastSeconds
    }

    /// Whether the queue is empty and its consumer is waiting (a stall when the end has not been reached).
    var isStarving: Bool {
        condition.lock()
        defer { condition.unlock() }
        return waitingConsumer && head == items.count && !endQueued
    }

    /// Whether nothing is waiting to be taken.
    var isEmpty: Bool {
        condition.lock()
        defer { condition.unlock() }
        return head == items.count
    }

    var byteCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return bytes
    }

    func put(_ item: Item, generation: Int) {
        condition.lock()
        append(item, generation: generation)
        condition.signal()
        condition.unlock()
    }

    /// Adds `item`; the lock is held.
    private func append(_ item: Item, generation: Int) {
        switch item {
        case .packet(let p, let s):
            bytes += p.size
            if let s {
                if firstSeconds == nil || head == items.count { firstSeconds = s }
                lastSeconds = max(lastSeconds ?? s, s)
            }
        case .endOfStream:
            endQueued = true
        case .switchAudio: break
        case .gap(let from, let until):
            if firstSeconds == nil || head == items.count { firstSeconds = from }
            lastSeconds = max(lastSeconds ?? until, until)
        }
        items.append(Tagged(item: item, generation: generation))
    }

    /// Replaces everything waiting with `newItems` in one step (the consumer never finds the queue empty in
    /// between); returns the packets taken out, with their seconds.
    func replace(with newItems: [Item], generation: Int) -> [(packet: Packet, seconds: Double?)] {
        condition.lock()
        let dropped: [(packet: Packet, seconds: Double?)] = items[head...].compactMap {
            if case .packet(let p, let s) = $0.item { return (p, s) }
            return nil
        }
        // An end of stream taken out must be put again (after what replaces it) when the stream ends.
        if items[head...].contains(where: { if case .endOfStream = $0.item { true } else { false } }) {
            endQueued = false
        }
        items.removeAll(keepingCapacity: true)
        head = 0
        bytes = 0
        firstSeconds = nil
        lastSeconds = nil
        for item in newItems { append(item, generation: generation) }
        condition.signal()
        condition.unlock()
        return dropped
    }

    /// The next item, waiting while the queue is empty; nil once aborted.
    func take() -> Tagged? {
        condition.lock()
        defer { condition.unlock() }
        while (head == items.count || held) && !aborted {
            waitingConsumer = true
            condition.wait()
        }
        waitingConsumer = false
        if aborted { return nil }
        let item = items[head]
        head += 1
        if head > 256 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
        if case .packet(let p, let s) = item.item {
            bytes -= p.size
            if let s { firstSeconds = s }
        }
        return item
    }

    /// Drops everything, as at a seek.
    func flush() {
        condition.lock()
        items.removeAll(keepingCapacity: true)
        head = 0
        bytes = 0
        firstSeconds = nil
        lastSeconds = nil
        endQueued = false
        condition.unlock()
    }

    /// Keeps the consumer from taking anything until `release`, so that what waits can be looked at and changed as
    /// one (a seek within what is buffered). The consumer finishes with an item it took before. Demux thread.
    func hold() {
        condition.lock()
        held = true
        condition.unlock()
    }

    /// Lets the consumer take again after `hold`. Demux thread.
    func release() {
        condition.lock()
        held = false
        condition.broadcast()
        condition.unlock()
    }

    /// Where a seek to `seconds` can start in what waits: the last packet at or before it (the last keyframe with
    /// `keyframes`), when packets at or after `reaching` follow and no audio switch waits; nil otherwise. Meant
    /// while the queue is held, so the answer stays true until `keep(from:generation:)`.
    func start(at seconds: Double, reaching: Double, keyframes: Bool) -> (index: Int, seconds: Double)? {
        condition.lock()
        defer { condition.unlock() }
        var start: (index: Int, seconds: Double)?
        var reached = false
        for i in head..<items.count {
            switch items[i].item {
            case .switchAudio: return nil
            case .endOfStream: reached = true
            case .packet(let p, let s):
                guard let s else { continue }
                if s <= seconds && (!keyframes || p.isKeyframe) { start = (i, s) }
                if s >= reaching { reached = true }
            case .gap(_, let until):
                if until >= reaching { reached = true }
            }
        }
        return reached ? start : nil
    }

    /// Drops what waits before index `start` (from `start(at:reaching:keyframes:)`) and puts what remains in
    /// `generation`: the consumer decodes it as the seek's. Demux thread, while held.
    func keep(from start: Int, generation: Int) {
        condition.lock()
        defer { condition.unlock() }
        for i in head..<min(start, items.count) {
            if case .packet(let p, _) = items[i].item { bytes -= p.size }
        }
        items.removeSubrange(0..<min(start, items.count))
        head = 0
        firstSeconds = nil
        for i in items.indices {
            items[i].generation = generation
            if firstSeconds == nil, case .packet(_, let s?) = items[i].item { firstSeconds = s }
        }
    }

    /// Wakes the consumer for good: `take` returns nil from now on.
    func abort() {
        condition.lock()
        aborted = true
        condition.broadcast()
        condition.unlock()
    }

    /// Wakes a waiting consumer so it can look at a command (seek) without an item.
    func wake() {
        condition.lock()
        condition.broadcast()
        condition.unlock()
    }
}
