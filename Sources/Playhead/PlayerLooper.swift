import Foundation
import Observation
import PlayheadCore

/// Loops an item (or a time range of it) on a `QueuePlayer` with no gap, like `AVPlayerLooper`: it keeps copies of
/// the template item queued, so each loop is preloaded and joins the previous one at the sample.
///
/// Main actor and `@Observable`: `loopCount`, `status` and `error` change as the player plays.
@MainActor @Observable
public final class PlayerLooper {
    /// Whether looping works, like `AVPlayerLooper.Status`.
    public enum Status: Sendable, Hashable {
        /// The first copy is not yet ready.
        case unknown
        /// Looping.
        case ready
        /// A copy failed to play; see `error`.
        case failed
        /// `disableLooping()` was called.
        case cancelled
    }

    /// How many times a copy of the item has played to its end.
    public private(set) var loopCount = 0
    /// Whether looping works.
    public private(set) var status: Status = .unknown
    /// Why looping failed.
    public private(set) var error: PlaybackError?

    private let player: QueuePlayer
    private let template: PlayerItem
    private let timeRange: TimeRange?
    private var copies: [PlayerItem] = []
    /// The player's current item as of the last `currentItemChanged` event handled.
    private var current: PlayerItem?
    private var task: Task<Void, Never>?
    /// The looper's `itemEndObservers` entry on the player: the count changes as the copy ends.
    private let endObserver = UUID()
    /// Copies kept queued ahead: the playing one, the preloaded one and one spare.
    private static let depth = 3

    /// Loops `templateItem` (which itself is never played) on `player`, over `timeRange` when it is valid and
    /// not empty, otherwise over the whole item. Copies are appended to whatever the queue holds.
    public init(player: QueuePlayer, templateItem: PlayerItem, timeRange: TimeRange = .invalid) {
        self.player = player
        template = templateItem
        self.timeRange = timeRange.isValid && timeRange.duration > .zero ? timeRange : nil
        let events = player.events()
        task = Task { @MainActor [weak self] in
            for await event in events {
                guard let self else { return }
                self.handle(event)
            }
        }
        player.itemEndObservers[endObserver] = { [weak self] item in self?.itemEnded(item) }
        topUp()
        current = player.currentItem
    }

    /// An item played to its end (the player tells at once, before its current item changes): one loop more when
    /// it is a copy.
    private func itemEnded(_ item: PlayerItem) {
        if copies.contains(where: { $0 === item }) { loopCount += 1 }
    }

    /// Stops following the player (looping is over and no copy is left).
    private func stopFollowing() {
        task?.cancel()
        task = nil
        player.itemEndObservers[endObserver] = nil
    }

    /// Stops looping: the copies not yet playing leave the queue and the playing one plays to its end.
    public func disableLooping() {
        guard status != .cancelled else { return }
        status = .cancelled
        for copy in copies where copy !== player.currentItem { player.remove(copy) }
        copies.removeAll { $0 !== player.currentItem }
        // Events still count the end of the copy that plays on.
    }

    private func handle(_ event: PlayerEvent) {
        switch event.kind {
        case .currentItemChanged:
            current = player.currentItem
            copies.removeAll { item in item !== current && !player.items().contains { $0 === item } }
            topUp()
            if status == .cancelled && copies.isEmpty { stopFollowing() }
        case .ready:
            // A range that starts at or past the item's end has nothing to loop: each copy ended at once, and the
            // looper went round hundreds of times a second on a full core.
            if let range = timeRange, let current = player.currentItem, copies.contains(where: { $0 === current }),
                current.duration.isNumeric, range.start.seconds >= current.duration.seconds - 0.01
            {
                status = .failed
                error = PlaybackError(
                    .invalidState, source: current.asset.url.absoluteString,
                    reason: String(
                        format: "the time range to loop starts at %.3f s, past the item's end (%.3f s)",
                        range.start.seconds, current.duration.seconds))
                disableCopies()
                player.pause()
                return
            }
            if status == .unknown { status = .ready }
        case .error(let e):
            if let current = player.currentItem, copies.contains(where: { $0 === current }) {
                status = .failed
                error = e
                disableCopies()
            }
        default: break
        }
    }

    private func disableCopies() {
        for copy in copies where copy !== player.currentItem { player.remove(copy) }
        copies.removeAll()
        stopFollowing()
    }

    /// Keeps `depth` copies queued.
    private func topUp() {
        guard status != .cancelled, status != .failed else { return }
        while copies.count < Self.depth {
            let copy = makeCopy()
            player.insert(copy, after: nil)
            copies.append(copy)
        }
    }

    private func makeCopy() -> PlayerItem {
        let copy = PlayerItem(asset: template.asset)
        copy.preferredForwardBufferDuration = template.preferredForwardBufferDuration
        copy.preferredPeakBitRate = template.preferredPeakBitRate
        copy.preferredMaximumResolution = template.preferredMaximumResolution
        copy.forwardPlaybackEndTime = template.forwardPlaybackEndTime
        for output in template.outputs { copy.add(output) }
        if let range = timeRange {
            copy.startSeconds = range.start.seconds
            copy.forwardPlaybackEndTime = range.end
        }
        return copy
    }
}
