import Foundation
import PlayheadCore
import PlayheadFFmpeg

/// Preloading for gapless queues: near the end of the current item the next one gets an inactive engine (opened,
/// read ahead, decoders primed), queued in the player's `AudioRenderer` after the current engine, which hands the
/// output over at its last sample.
extension Player {
    /// The next item's engine and what it reported while waiting. Main actor.
    struct Preloaded {
        let item: PlayerItem
        let engine: PlaybackEngine
        var ready = false
        var failure: PlaybackError?
        /// The engine reported its end before its item became current (an item with nothing to play).
        var ended = false
        /// Tag changes read ahead of the item's start (a chained Ogg file's next song), each with its item time:
        /// heard when playback gets there once the item is current.
        var metadataChanges: [(metadata: MediaMetadata, seconds: Double)] = []
    }

    /// Seconds before the current item's end at which the next one is opened: enough to read the next item's
    /// first seconds over a network (its forward buffer bounds how much), and never so early that two items
    /// compete for bandwidth for long.
    static func preloadLead(for next: PlayerItem) -> Double {
        next.asset.url.isFileURL ? 10 : 30
    }

    /// The item after the current one in a queue, nil for a plain player.
    var itemAfterCurrent: PlayerItem? {
        guard queue.count > 1, let current = currentItem, queue[0] === current else { return nil }
        return queue[1]
    }

    /// Where the current item stops, in seconds: its end time or its duration; infinity when unknown (live).
    var currentItemEnd: Double {
        guard let item = currentItem else { return .infinity }
        var end = item.duration.isNumeric ? item.duration.seconds : .infinity
        if item.forwardPlaybackEndTime.isNumeric { end = min(end, item.forwardPlaybackEndTime.seconds) }
        return end
    }

    /// The app moved `item`'s end time (`forwardPlaybackEndTime`): the engine playing it cuts there from now on,
    /// reading on (by a seek where playback is) when it had stopped reading before the new end; an item preloaded
    /// with the old end is opened again when its turn nears. Main actor.
    func itemEndChanged(_ item: PlayerItem) {
        if preloaded?.item === item {
            discardPreloaded()
            return
        }
        guard item === currentItem, let engine else { return }
        let end = item.forwardPlaybackEndTime.isNumeric ? item.forwardPlaybackEndTime.seconds : nil
        let old = engine.endSeconds
        let stoppedReading = engine.control.withLock { $0.cutShort }
        engine.setEnd(end)
        if stoppedReading, end ?? .infinity > old ?? .infinity {
            seek(to: currentTime(), toleranceBefore: .zero, toleranceAfter: .zero)
        }
        // An earlier end may bring the next item's opening forward.
        preloadNextIfNeeded()
    }

    /// Opens the next item when the current one nears its end (called on `.ready` and by the buffer monitor).
    func preloadNextIfNeeded() {
        guard actionAtItemEnd == .advance, engine != nil, engineReady, let next = itemAfterCurrent else { return }
        if let p = preloaded {
            if p.item === next { return }
            discardPreloaded()
        }
        guard currentItemEnd - currentTime().seconds <= Self.preloadLead(for: next),
            let nextEngine = makeEngine(for: next, active: false)
        else { return }
        preloaded = Preloaded(item: next, engine: nextEngine)
        resources.loop.send(.preload(nextEngine, at: next.startSeconds))
    }

    /// What a preloaded engine reports before its item is current: the item learns its duration and tracks, and
    /// the player remembers readiness and failure for when the item becomes current.
    func handlePreloaded(_ event: EngineEvent, item: PlayerItem) {
        switch event {
        case .opened(let info): item.apply(info)
        // At the item's start (or at no known time): shown at once; later (a chained Ogg file's next song, read
        // ahead while the item waits): when playback gets there once the item is current.
        case .metadataChanged(let metadata, let seconds):
            if let seconds, seconds > (item.startSeconds ?? 0) + 0.05 {
                preloaded?.metadataChanges.append((metadata, seconds))
            } else {
                item.applyTimedMetadata(metadata)
            }
        case .ready:
            preloaded?.ready = true
            item.startReached()
            item.status = .readyToPlay
            item.isPlaybackLikelyToKeepUp = true
            item.isPlaybackBufferEmpty = false
        case .failed(let error): preloaded?.failure = error
        case .ended: preloaded?.ended = true
        // The item's own logs follow what its engine fetched while waiting (no player events yet).
        case .variantSwitch(let choice):
            item.accessLogDidSwitch(to: choice)
        case .segmentLoaded(let bytes, let seconds, let estimate):
            item.accessLogDidLoad(bytes: bytes, seconds: seconds, estimate: estimate)
        case .hls(.recovered(let error)): item.logError(error)
        case .hls(.dates(let anchors)): item.addDateAnchors(anchors)
        case .hls(.abandoned): item.accessLogUpdate { $0.downloadOverdue += 1 }
        case .durationChanged(let seconds): item.durationGrew(to: seconds)
        default: break
        }
    }

    /// Stops and forgets the preloaded engine. When it had already taken over the output (the current item's last
    /// sample was followed by its first), the renderer gives the output back to the current engine, which ends at
    /// once.
    func discardPreloaded() {
        guard preloaded != nil else { return }
        preloaded = nil
        resources.loop.send(.discardNext)
    }

    /// Makes the preloaded item current, keeping its engine (which is already playing after a gapless hand-off,
    /// or starts now). Returns the error the item failed with while it waited: the caller reports it (`fail`) once
    /// the change of item is announced.
    func promotePreloaded() -> PlaybackError? {
        guard let p = preloaded else { return nil }
        preloaded = nil
        // The loop stops the engine that played, gives the output to this one and lets it present.
        resources.loop.send(.promote)
        cancelPendingSeeks()
        currentItem?.player = nil
        currentItem = p.item
        p.item.player = self
        engine = p.engine
        timebase.engine = p.engine
        engineReady = p.ready
        stalled = false
        error = nil
        status = p.ready ? .readyToPlay : .unknown
        startBufferMonitor()
        for change in p.metadataChanges { scheduleTimedMetadata(change.metadata, at: change.seconds, item: p.item) }
        updateTimeControlStatus()
        if p.ended && p.failure == nil {
            // Its end was reported while it waited: the item is over as soon as it is current.
            let now = MonotonicClock.now() - MonotonicClock.processStart
            resources.eventSink.yield(EngineDelivery(event: .ended, timestamp: now, item: p.item))
        }
        return p.failure
    }
}
