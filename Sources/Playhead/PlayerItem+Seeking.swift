import PlayheadCore

extension PlayerItem {
    /// Moves the item's playhead exactly to `time`, like `AVPlayerItem.seek(to:completionHandler:)`. The current
    /// item of a player seeks at once. An item waiting in a queue (or not yet given to a player) starts at `time`
    /// when it plays, and `completionHandler` runs when it is ready there (false when a later seek replaces this
    /// one). Main actor; the handler runs on the main actor.
    public func seek(to time: MediaTime, completionHandler: (@Sendable (Bool) -> Void)? = nil) {
        if let player, player.currentItem === self {
            player.seek(to: time, toleranceBefore: .zero, toleranceAfter: .zero) { completionHandler?($0) }
            return
        }
        guard time.isNumeric else {
            completionHandler?(false)
            return
        }
        pendingStartHandler?(false)
        pendingStartHandler = completionHandler
        startSeconds = max(0, time.seconds)
        // A queue that already opened the item from its old start opens it again.
        if let owner = queueOwner, let preloaded = owner.preloaded, preloaded.item === self,
            !preloaded.engine.isActive
        {
            owner.discardPreloaded()
            owner.preloadNextIfNeeded()
        }
    }

    /// Called when the item's engine is ready: a start position set by `seek(to:)` has been reached.
    func startReached() {
        let handler = pendingStartHandler
        pendingStartHandler = nil
        handler?(true)
    }
}
