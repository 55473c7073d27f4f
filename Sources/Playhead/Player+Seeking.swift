import PlayheadCore

extension Player {
    /// Seeks to `time` quickly: the position may land on the keyframe before it, like `AVPlayer.seek(to:)`.
    public func seek(to time: MediaTime) {
        startSeek(to: time, exact: false, handler: nil)
    }

    /// Seeks within the tolerances; `.zero` for both lands exactly on `time` (decoding from the keyframe and
    /// discarding what comes before).
    public func seek(to time: MediaTime, toleranceBefore: MediaTime, toleranceAfter: MediaTime) {
        startSeek(to: time, exact: isExact(toleranceBefore, toleranceAfter), handler: nil)
    }

    /// Seeks and calls `completionHandler` (on the main actor) with true when the seek finished, false when a later
    /// seek or item change superseded it.
    public func seek(
        to time: MediaTime, toleranceBefore: MediaTime = .positiveInfinity,
        toleranceAfter: MediaTime = .positiveInfinity, completionHandler: @escaping @Sendable (Bool) -> Void
    ) {
        startSeek(to: time, exact: isExact(toleranceBefore, toleranceAfter), handler: completionHandler)
    }

    /// Seeks quickly and returns whether the seek finished (false when superseded).
    @discardableResult
    public func seek(to time: MediaTime) async -> Bool {
        await seekAndWait(to: time, exact: false)
    }

    /// Seeks within the tolerances and returns whether the seek finished (false when superseded).
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
        guard let engine, time.isValid, !time.isIndefinite else {
            handler?(false)
            return nil
        }
        var seconds = time.isNumeric ? time.seconds : (time > .zero ? .infinity : 0)
        if let item = currentItem, item.duration.isNumeric { seconds = min(seconds, item.duration.seconds) }
        seconds = max(0, seconds)
        let id = nextSeekID
        nextSeekID += 1
        if let handler { seekHandlers[id] = handler }
        // The next item may already be playing in the output after this one's last sample: it must go.
        if let next = preloaded, next.engine.isActive { discardPreloaded() }
        engine.seek(to: seconds, exact: exact, id: id)
        return id
    }

    func finishSeek(id: Int, finished: Bool) {
        seekWaiters.removeValue(forKey: id)?.resume(returning: finished)
        seekHandlers.removeValue(forKey: id)?(finished)
    }
}
