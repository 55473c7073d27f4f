import Foundation

/// What the engine reports, and what the player derives from it: the time control status, the loaded range. Main
/// actor.
extension Player {
    func handle(_ event: EngineEvent, timestamp: Double, item: PlayerItem) {
        guard item === currentItem else {
            if let next = preloaded, next.item === item { handlePreloaded(event, item: item) }
            return
        }
        switch event {
        case .opened(let info):
            item.apply(info)
            emit(PlayerEvent(.opened, timestamp: timestamp))
        case .audioTrackChanged(let id): item.playingTracks[.audio] = id
        case .textTrackChanged(let id): item.playingTracks[.subtitle] = id
        case .ready:
            item.accessLogDidBecomeReady(at: timestamp)
            engineReady = true
            item.status = .readyToPlay
            status = .readyToPlay
            item.isPlaybackLikelyToKeepUp = true
            item.isPlaybackBufferEmpty = false
            emit(PlayerEvent(.ready, timestamp: timestamp))
            item.startReached()
            preloadNextIfNeeded()
        case .bufferFilled: if item === currentItem { updateLoadedTimeRanges() }
        case .firstAudio: emit(PlayerEvent(.firstAudio, timestamp: timestamp))
        case .firstVideo: emit(PlayerEvent(.firstVideo, timestamp: timestamp))
        case .seekStarted(_, let target): emit(PlayerEvent(.seekStarted(target: target), timestamp: timestamp))
        case .seekDone(let id, let position, let finished):
            finishSeek(id: id, finished: finished)
            emit(PlayerEvent(.seekDone(position: position, finished: finished), timestamp: timestamp))
            if finished {
                item.postNotification(PlayerItem.timeJumpedNotification)
                observers.timeJumped(player: self)
            }
        case .stalled:
            stalled = true
            item.accessLogUpdate { $0.numberOfStalls += 1 }
            item.isPlaybackLikelyToKeepUp = false
            item.isPlaybackBufferEmpty = true
            item.postNotification(PlayerItem.playbackStalledNotification)
            emit(PlayerEvent(.stalled, timestamp: timestamp))
        case .resumed:
            stalled = false
            item.isPlaybackLikelyToKeepUp = true
            item.isPlaybackBufferEmpty = false
            emit(PlayerEvent(.resumed, timestamp: timestamp))
        case .ended:
            for observer in itemEndObservers.values { observer(item) }
            emit(PlayerEvent(.ended, timestamp: timestamp))
            item.postNotification(PlayerItem.didPlayToEndTimeNotification)
            itemDidEnd(item)
        case .failed(let error):
            fail(error)
        case .droppedFrame(let position, let late):
            item.accessLogUpdate { $0.numberOfDroppedVideoFrames += 1 }
            emit(PlayerEvent(.droppedFrame(position: position, late: late), timestamp: timestamp))
        case .audioUnderflow(let position):
            emit(PlayerEvent(.audioUnderflow(position: position), timestamp: timestamp))
        case .variantSwitch(let choice):
            let pathwayBefore = item.accessLog.last?.pathwayID
            item.accessLogDidSwitch(to: choice)
            let (bitRate, width, height) = (choice.bitRate, choice.width, choice.height)
            emit(PlayerEvent(.variantSwitch(bitRate: bitRate, width: width, height: height), timestamp: timestamp))
            if let from = pathwayBefore, from != choice.pathway {
                emit(PlayerEvent(.pathwayChanged(from: from, to: choice.pathway), timestamp: timestamp))
            }
        case .segmentLoaded(let bytes, let seconds, let estimate):
            item.accessLogDidLoad(bytes: bytes, seconds: seconds, estimate: estimate)
            // Paused, the buffer monitor sleeps while the buffer goes on filling: each segment says how far.
            if item === currentItem && storedRate == 0 { updateLoadedTimeRanges() }
            emit(PlayerEvent(.segmentLoaded(bytes: bytes, seconds: seconds, estimate: estimate), timestamp: timestamp))
        case .hls(let notice): handleHLS(notice, item: item, timestamp: timestamp)
        case .metadataChanged(let metadata, let seconds): scheduleTimedMetadata(metadata, at: seconds, item: item)
        case .durationChanged(let seconds): item.durationGrew(to: seconds)
        }
        updateTimeControlStatus()
    }

    /// What happens at the end of an item: a queue with `.advance` moves on; a plain player pauses for both
    /// `.pause` and `.advance` (it has nothing to advance to); `.none` leaves the rate alone.
    func itemDidEnd(_ item: PlayerItem) {
        switch actionAtItemEnd {
        case .advance: advance(after: item)
        case .pause: rate = 0
        case .none: break
        }
    }

    func updateTimeControlStatus() {
        let (status, reason): (TimeControlStatus, WaitingReason?)
        if storedRate == 0 {
            (status, reason) = (.paused, nil)
        } else if currentItem == nil || self.status == .failed {
            (status, reason) = (.waitingToPlayAtSpecifiedRate, .noItemToPlay)
        } else if !engineReady {
            (status, reason) = (.waitingToPlayAtSpecifiedRate, .evaluatingBufferingRate)
        } else if isInterruptedByAudioSession {
            (status, reason) = (.waitingToPlayAtSpecifiedRate, .interruptedByAudioSession)
        } else if stalled || isWaitingForSoundServer {
            (status, reason) = (.waitingToPlayAtSpecifiedRate, .toMinimizeStalls)
        } else {
            (status, reason) = (.playing, nil)
        }
        if timeControlStatus != status { timeControlStatus = status }
        timebase.rate = status == .playing ? Double(storedRate) : 0
        if reasonForWaitingToPlay != reason { reasonForWaitingToPlay = reason }
        observers.statusChanged(playing: status == .playing, player: self)
    }

    /// Updates the current item's loaded range and preloads the next item four times a second while the player
    /// plays; a paused player's monitor ends (nothing it watches moves) and `applyRate` starts it again. Main actor.
    func startBufferMonitor() {
        bufferMonitorID &+= 1
        let id = bufferMonitorID
        Task { @MainActor [weak self] in
            // The player is held only while it is looked at, never across the sleep: one nobody holds goes away.
            while self?.monitorBuffer(id) == true {
                try? await Task.sleep(for: .milliseconds(250))
            }
        }
    }

    /// One look of the buffer monitor `id`; false when it should end (another monitor runs, no engine, paused).
    private func monitorBuffer(_ id: Int) -> Bool {
        guard engine != nil, bufferMonitorID == id else { return false }
        updateLoadedTimeRanges()
        preloadNextIfNeeded()
        return storedRate != 0
    }

    /// The current item's loaded range: from the play head to what the engine has read ahead. Main actor.
    func updateLoadedTimeRanges() {
        guard let engine, let item = currentItem else { return }
        let now = engine.currentSeconds
        let until = max(now, engine.bufferedUntil)
        let range = TimeRange(
            start: MediaTime(seconds: now, preferredTimescale: 600),
            end: MediaTime(seconds: until, preferredTimescale: 600))
        if item.loadedTimeRanges != [range] { item.loadedTimeRanges = [range] }
        let full = engine.bufferIsFull
        if item.isPlaybackBufferFull != full { item.isPlaybackBufferFull = full }
    }
}
