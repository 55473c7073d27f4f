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

    /// The order for `count` entries, shuffled with `generator` when `shuffle` is set.
    init(
        count: Int, shuffle: Bool, playlistLoops: Int?, fileLoops: Int?,
        generator: inout some RandomNumberGenerator
    ) {
        var order = Array(0..<count)
        if shuffle { order.shuffle(using: &generator) }
        self.order = order
        self.playlistLoops = playlistLoops
        self.fileLoops = fileLoops
    }

    /// The first slot: the entry at `start` in the original order (`--playlist-start`), nil when out of range.
    func first(startingAt start: Int) -> Slot? {
        guard start >= 0, start < order.count else { return nil }
        // --playlist-start names an entry of the playlist as written, wherever shuffling put it.
        let position = order.firstIndex(of: start) ?? 0
        return Slot(pass: 0, position: position, repeatIndex: 0)
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
