import PlayheadCore

extension Player {
    /// Seeks to `time` quickly: the position may land on the keyframe before it, like `AVPlayer.seek(to:)`.
    ///
    /// Every seek follows the current item's `interstitialTimeRanges`: while the play head is in an ad that
    /// requires linear playback and has not been played, the seek is refused (nothing changes, the completion
    /// says false, `requiresLinearPlayback` is true); a forward seek that would jump over such an ad, or into it,
    /// lands exactly at the ad's start instead (the completion says true: read where with `currentTime()`), and
    /// playback goes on through the ad. An ad counts as played once the play head has been at or past its end;
    /// seeking back over a played ad, or over any ad that does not require linear playback, is free.
    ///
    /// A seek ahead to a time already read into the forward buffer is carried out there: nothing is read or
    /// downloaded again, and an input that cannot seek (a pipe, a server without byte ranges) seeks that far too;
    /// beyond the buffer, such an input refuses the seek (the completion says false, nothing changes). Main actor.
    public func seek(to time: MediaTime) {
        startSeek(to: time, exact: false, handler: nil)
    }

    /// Seeks within the tolerances; `.zero` for both lands exactly on `time` (decoding from the keyframe and
    /// discarding what comes before).
    public func seek(to time: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime) {
        startSeek(to: time, exact: isExact(toleranceBefore, toleranceAfter), handler: nil)
    }

    /// Seeks and calls `completionHandler` (on the main actor) with true when the seek finished (a seek to the end
    /// finishes there), false when a later seek or item change superseded it or it was refused (a time that is not
    /// a number, a failed item, an unplayed linear ad: see `seek(to:)`).
    public func seek(
        to time: MediaTime, toleranceBefore: MediaTime = .positiveInfinity,
        toleranceAfter: MediaTime = .positiveInfinity, completionHandler: @escaping @Sendable (Bool) -> Void
    ) {
        startSeek(to: time, exact: isExact(toleranceBefore, toleranceAfter), handler: completionHandler)
    }

    /// Seeks quickly and returns whether the seek finished (false when superseded or refused: see `seek(to:)`).
    @discardableResult
    public func seek(to time: MediaTime) async -> Bool {
        await seekAndWait(to: time, exact: false)
    }

    /// Seeks within the tolerances and returns whether the seek finished (false when superseded or refused).
    @discardableResult
    public func seek(to time: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime) async -> Bool {
        await seekAndWait(to: time, exact: isExact(toleranceBefore, toleranceAfter))
    }

    private func isExact(_ before: MediaTime, _ after: MediaTime) -> Bool {
        // Playhead decodes from the previous keyframe, so any tolerance below a second is honoured exactly.
        before.isNumeric && after.isNumeric && before.seconds < 1 && after.seconds < 1
    }

    private func seekAndWait(to time: MediaTime, exact: Bool) async -> Bool {
        await withCheckedContinuation { (c: CheckedContinuation<Bool, Never>) in
            guard let id = startSeek(to: time, exact: exact, handler: nil) else {
                c.resume(returning: false)
                return
            }
            seekWaiters[id] = c
        }
    }

    @discardableResult
    private func startSeek(to time: MediaTime, exact: Bool, handler: (@Sendable (Bool) -> Void)?) -> Int? {
        // A failed item has nowhere to go (its engine may still be there, stopped): refused.
        guard engine != nil, currentItem?.status != .failed, time.isValid, !time.isIndefinite else {
            handler?(false)
            return nil
        }
        var seconds = time.isNumeric ? time.seconds : (time > .zero ? .infinity : 0)
        if let item = currentItem, item.duration.isNumeric { seconds = min(seconds, item.duration.seconds) }
        // A live stream: within its seekable window as it is now (`.positiveInfinity` goes to the live start point;
        // a time the window has moved past goes to its start, as with AVPlayer: the source can only start there,
        // and the clock set before it played silence up to it).
        if let item = currentItem, !item.duration.isNumeric, let window = item.seekableTimeRanges.last,
            window.start.isNumeric, window.end.isNumeric
        {
            seconds = min(max(seconds, window.start.seconds), window.end.seconds)
        }
        seconds = max(0, seconds)
        var exact = exact
        if let item = currentItem, !item.interstitialTimeRanges.isEmpty {
            let position = item.seekInFlight?.seconds ?? currentTime().seconds
            guard let landing = item.interstitialSeekTarget(from: position, to: seconds) else {
                handler?(false)
                return nil
            }
            // Landing at an ad's start: exactly there, not on the keyframe before (content already seen).
            if landing != seconds { (seconds, exact) = (landing, true) }
        }
        let id = nextSeekID
        nextSeekID += 1
        currentItem?.seekInFlight = (id, seconds)
        if let handler { seekHandlers[id] = handler }
        resources.loop.send(.seek(to: seconds, exact: exact, id: id))
        // The next item may already be playing in the output after this one's last sample: it must go, and the
        // output returns to this item's engine. After the seek is asked, never before: given the output back
        // without a seek pending, the engine would report its end at once and the queue would move on.
        if let next = preloaded, next.engine.isActive { discardPreloaded() }
        return id
    }

    func finishSeek(id: Int, finished: Bool) {
        if currentItem?.seekInFlight?.id == id { currentItem?.seekInFlight = nil }
        seekWaiters.removeValue(forKey: id)?.resume(returning: finished)
        seekHandlers.removeValue(forKey: id)?(finished)
    }
}
