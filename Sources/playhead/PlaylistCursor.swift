import Foundation

/// Where the command is in its play order: which entry, which pass over the playlist (`--loop-playlist`) and which
/// repeat of the entry (`--loop-file`). A value type; pure, so the order logic is tested without playing.
struct PlaylistCursor: Equatable {
    /// One play of one entry.
    struct Slot: Hashable {
        /// The pass over the whole playlist, from 0.
        var pass: Int
        /// The position in the play order (shuffled or not), from 0.
        var position: Int
        /// The repeat of this entry within the pass (`--loop-file`), from 0.
        var repeatIndex: Int
    }

    /// Entry indices in play order.
    let order: [Int]
    /// Extra passes over the playlist; nil forever.
    let playlistLoops: Int?
    /// Extra plays of each entry; nil forever.
    let fileLoops: Int?

    /// Where play starts in `order`.
    let startPosition: Int

    /// The order for `count` entries starting at entry `start` (`--playlist-start`, as the entries were given),
    /// shuffled with `generator` when `shuffle` is set (the start entry then plays first, the rest in random
    /// order).
    init(
        count: Int, start: Int = 0, shuffle: Bool, playlistLoops: Int?, fileLoops: Int?,
        generator: inout some RandomNumberGenerator
    ) {
        var order = Array(0..<count)
        var startPosition = start
        if shuffle {
            order.shuffle(using: &generator)
            if start > 0, let i = order.firstIndex(of: start) {
                order.remove(at: i)
                order.insert(start, at: 0)
            }
            startPosition = start < count ? 0 : start
        }
        self.order = order
        self.startPosition = startPosition
        self.playlistLoops = playlistLoops
        self.fileLoops = fileLoops
    }

    /// The first slot; nil when the start entry is out of range.
    var first: Slot? {
        guard startPosition >= 0, startPosition < order.count else { return nil }
        return Slot(pass: 0, position: startPosition, repeatIndex: 0)
    }

    /// The entry a slot plays.
    func entry(_ slot: Slot) -> Int { order[slot.position] }

    /// What plays after `slot`: its next repeat, else the next entry; nil at the end.
    func next(after slot: Slot) -> Slot? {
        if fileLoops == nil || slot.repeatIndex < fileLoops! {
            return Slot(pass: slot.pass, position: slot.position, repeatIndex: slot.repeatIndex + 1)
        }
        return nextEntry(after: slot)
    }

    /// The entry after `slot`'s entry, skipping its remaining repeats (the "next" key); nil at the end.
    func nextEntry(after slot: Slot) -> Slot? {
        if slot.position + 1 < order.count {
            return Slot(pass: slot.pass, position: slot.position + 1, repeatIndex: 0)
        }
        if playlistLoops == nil || slot.pass < playlistLoops! {
            return Slot(pass: slot.pass + 1, position: 0, repeatIndex: 0)
        }
        return nil
    }

    /// The entry before `slot` (its first play), nil at the very beginning.
    func previous(before slot: Slot) -> Slot? {
        if slot.position > 0 { return Slot(pass: slot.pass, position: slot.position - 1, repeatIndex: 0) }
        if slot.pass > 0 { return Slot(pass: slot.pass - 1, position: order.count - 1, repeatIndex: 0) }
        return nil
    }
}
