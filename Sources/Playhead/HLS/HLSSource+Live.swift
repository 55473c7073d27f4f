import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// Reload state of a live or event playlist. A value type owned by its `HLSSource` (demux thread).
struct LiveState {
    var schedule = LiveReloadSchedule()
    /// When to reload next, on `MonotonicClock`.
    var reloadAt = 0.0
    /// Parts and blocking reloads are used (low-latency HLS).
    var lowLatency = false
    /// Reloads that failed in a row, and when the first of them did (`MonotonicClock`): an origin outage.
    var failedReloads = 0
    var failingSince: Double?
    /// The chain of reloads running beside the segment downloads, if one is (`reloadChain`).
    var reload: LiveReload?
}

extension HLSSource {
    /// Starts a live or event playlist `HOLD-BACK` (three target durations by default) or `EXT-X-START` from its
    /// edge, and schedules its next reload.
    func startLive(loadStarted: Double) throws(PlaybackError) {
        var state = LiveState()
        if case .reload(let at) = state.schedule.loaded(playlist, startedAt: loadStarted) { state.reloadAt = at }
        state.lowLatency = Self.isLowLatency(playlist)
        live = state
        fitPolicyToLiveBuffer()
        if state.lowLatency && multivariantStart == nil && playlist.start == nil {
            startLowLatency()
        } else if let start = LiveReloadSchedule.startPosition(of: playlist, multivariantStart: multivariantStart) {
            next = start.segmentIndex
            nextStart = windowStart + segmentStart(next, in: playlist)
        }
        reportWindow()
    }

    /// Reloads the live playlist on its schedule, beside the segment downloads (`LiveReload`, a chain that reloads
    /// at each due time on its own): the loads it has made are taken, and the caller goes on with the segments
    /// listed. When `waiting` (the next segment is not listed yet) and nothing was taken, first sleeps until the
    /// chain has made a load (a seek ends the sleep early: `waitForReload`). A playlist that stops changing ends in
    /// an error. A jump forward a reload finds is handed to the engine (`handOverJump`).
    func refreshLive(waiting: Bool) throws {
        guard let reload = reloadChain() else { return }
        if !reload.hasNews {
            guard waiting else { return }
            try waitForReload { reload.hasNews }
        }
        try takeReloads(of: reload)
        try handOverJump()
    }

    /// The reload chain of the playlist playing, started if none runs (first at `reloadAt`), on a fetcher of its
    /// own (the segments' is busy with them); a chain of a playlist left since (a variant switch) is stopped and
    /// let go, its loads dropped. Nil when not live or low-latency (reloaded by blocking requests). Demux thread.
    func reloadChain() -> LiveReload? {
        guard var state = live, !state.lowLatency else { return nil }
        if let reload = state.reload {
            if reload.url == playlistURL { return reload }
            reload.stop()
        }
        let fetch = HTTPFetch(
            timeout: self.fetch.timeout, localFiles: self.fetch.localFiles,
            stopping: { [cancelled, stopping = self.fetch.stopping] in
                cancelled.current || stopping?() == true
            })
        let reload = LiveReload(
            url: playlistURL, fetch: fetch, schedule: state.schedule, firstAt: state.reloadAt, wakeup: wakeup)
        state.reload = reload
        live = state
        runningReload.withLock { $0.chain = reload }
        return reload
    }

    /// Takes what `reload` brought, oldest first: each playlist (`took`) or error (an outage: `reloadFailed`).
    /// Loads of a variant left since the chain started are dropped; a chain that has ended is let go (the next is
    /// started when a reload is due). Demux thread.
    func takeReloads(of reload: LiveReload) throws(PlaybackError) {
        let ended = reload.finished
        for outcome in reload.takeOutcomes() {
            guard let state = live, reload.url == playlistURL else { break }
            switch outcome.result {
            case .success(let fresh): try took(fresh, startedAt: outcome.started)
            case .failure(let error): live = try reloadFailed(error, state, retryAfter: outcome.retryAfter)
            }
        }
        if ended, var state = live, state.reload === reload {
            state.reload = nil
            live = state
        }
    }

    /// Sleeps on the demux thread until `deadline` (on `MonotonicClock`), or until `ready` holds (checked each time
    /// `wakeup` is signalled). Ends early when the engine has a seek waiting (`PlaybackEngine.seek` signals
    /// `wakeup`): throws `ByteSourceInterruption`, so FFmpeg returns `AVERROR_EXIT` and the engine takes the seek at
    /// once. The source stays usable; only `interrupt()` cancels it for good.
    func waitForReload(until deadline: Double = .infinity, _ ready: () -> Bool = { false }) throws {
        while true {
            if isCancelled { throw PlaybackError(.network, source: playlistURL.absoluteString, reason: "cancelled") }
            if seekPending() { throw ByteSourceInterruption() }
            if ready() { return }
            let left = deadline - MonotonicClock.now()
            if left <= 0 { return }
            // A signal left over from a seek already taken only goes round the loop again.
            if left.isFinite {
                _ = wakeup.wait(timeout: .now() + left)
            } else {
                wakeup.wait()
            }
        }
    }

    /// Takes the live playlist's next reload, due now: the reload chain's load (waited for while it runs, bounded
    /// by its fetcher's time limits) with its window (`adopt`), its reload schedule, the adaptive state's copy;
    /// reports the window. Demux thread.
    func reloadLive() throws(PlaybackError) {
        guard let reload = reloadChain() else { return }
        reload.waitForNews()
        try takeReloads(of: reload)
    }

    /// Takes a reloaded live playlist (`fresh`, requested at `started`): its window (`adopt`), its reload
    /// schedule, the adaptive state's copy; reports the window. Demux thread.
    func took(_ fresh: MediaPlaylist, startedAt started: Double) throws(PlaybackError) {
        guard var state = live else { return }
        state.failedReloads = 0
        state.failingSince = nil
        adopt(fresh)
        switch state.schedule.loaded(fresh, startedAt: started) {
        case .reload(let at):
            state.reloadAt = at
            live = state
        case .ended:
            live = nil
        case .stalled(let reloads):
            let target = Double(max(fresh.targetDuration ?? 1, 1))
            let seconds = Int((Double(reloads) * target / 2).rounded())
            throw PlaybackError(
                .network, source: playlistURL.absoluteString,
                reason: "the live playlist stopped changing (no new segment for \(seconds) s)")
        }
        if let state = adaptive, let current = state.current { state.playlists[current] = fresh }
        reportWindow()
    }

    /// When the next reload of a live playlist is due on `MonotonicClock`, for the demux thread to sleep until
    /// while its buffer is full; nil when nothing reloads on a schedule (not live, or low-latency). Demux thread.
    var idleReloadDeadline: Double? { live.flatMap { $0.lowLatency ? nil : $0.reloadAt } }

    /// Called by the engine on the demux thread while its buffer is full (paused, or read far enough ahead) instead
    /// of reading: reloads a live playlist when its schedule says so, without fetching segments, so the seekable
    /// window stays current. A jump forward it finds waits in `jumpPending` until the engine hands it over
    /// (`handOverPendingJump`, once the item plays). Errors are reported as a read's are. Low-latency playlists
    /// are left alone (they are reloaded by blocking requests while reading).
    func reloadWhileIdle() throws(PlaybackError) {
        guard let state = live, !state.lowLatency, MonotonicClock.now() >= state.reloadAt else { return }
        do throws(PlaybackError) {
            try reloadLive()
        } catch {
            failure = failure ?? error
            report(.failed(error))
            throw error
        }
    }

    /// Reports a jump found by a reload and asks the engine (`onJump`) to restart reading there, as for a seek, so
    /// its clock follows; the jump is from the play head (the engine drops what it buffered). Demux thread. True
    /// when the engine took it; without an engine (while the input opens) reading simply continues there.
    func handOverPendingJump() -> Bool {
        guard let jump = jumpPending else { return false }
        jumpPending = nil
        guard let onJump else {
            report(.timeJumped(from: jump.from, to: jump.to))
            return false
        }
        report(.timeJumped(from: playbackPosition(), to: jump.to))
        onJump(jump.to)
        return true
    }

    /// Hands a pending jump over from inside a read and interrupts the read (`ByteSourceInterruption`) when the
    /// engine took it.
    func handOverJump() throws {
        if handOverPendingJump() { throw ByteSourceInterruption() }
    }

    /// Takes a reloaded (or another variant's) playlist: places its window on the item timeline by media sequence
    /// number, and continues with the same next segment, or jumps forward to the live start position when that
    /// segment has left the window. A jump still waiting for the item to play moves on with each reload to the
    /// live start position of the newest playlist (it stayed where the first reload put it, and a long pause
    /// resumed at the window's oldest segment, twice the hold-back from the edge).
    func adopt(_ fresh: MediaPlaylist) {
        let nextSequence = playlist.firstListedMediaSequence + next
        windowStart = itemTime(ofFirstSegmentOf: fresh)
        playlist = fresh
        let waiting = jumpPending
        if waiting != nil || LiveReloadSchedule.fellBehind(nextMediaSequence: nextSequence, in: fresh) {
            let from = waiting?.from ?? nextStart
            let start = LiveReloadSchedule.startPosition(of: fresh, multivariantStart: multivariantStart)
            next = start?.segmentIndex ?? 0
            nextStart = windowStart + segmentStart(next, in: fresh)
            readFrom = nextStart
            partCursor = 0
            partsTime = 0
            jumpPending = (from, nextStart)
            onJumpWaits?()
        } else {
            next = nextSequence - fresh.firstListedMediaSequence
        }
    }

    /// A live stream never buffers more than its distance from the edge (`HOLD-BACK`, three target durations by
    /// default; with low-latency HLS `PART-HOLD-BACK`, three part targets by default): the policy's buffer
    /// thresholds scale down to it. A low-latency buffer (the hold-back plus at most the segment it started in)
    /// rides out no drop. Demux thread, once `live` is set.
    func fitPolicyToLiveBuffer() {
        let target = Double(playlist.targetDuration ?? 6)
        if live?.lowLatency == true, let partTarget = playlist.partInformation?.partTarget {
            let reach = playlist.serverControl?.partHoldBack ?? 3 * partTarget
            fitPolicy(toBuffer: reach, rideOut: reach + target)
        } else {
            fitPolicy(toBuffer: playlist.serverControl?.holdBack ?? 3 * target)
        }
    }

    /// Where `other`'s first segment lies on the item timeline, from its media sequence number and the playlist
    /// playing (the durations of the segments they share or, past the known ones, target durations).
    func itemTime(ofFirstSegmentOf other: MediaPlaylist) -> Double {
        let first = playlist.firstListedMediaSequence
        let count = other.firstListedMediaSequence - first
        let target = Double(playlist.targetDuration ?? 6)
        if count <= 0 { return windowStart + Double(count) * target }
        let shared = playlist.segments.prefix(count).reduce(0) { $0 + $1.duration }
        return windowStart + shared + Double(max(count - playlist.segments.count, 0)) * target
    }

    /// Seconds from the playlist's first segment to the start of segment `index`.
    func segmentStart(_ index: Int, in playlist: MediaPlaylist) -> Double {
        playlist.segments.prefix(index).reduce(0) { $0 + $1.duration }
    }

    /// The latest item time a seek may target: the window's end for VOD and events that ended, `HOLD-BACK` from
    /// the live edge while live.
    var seekableEnd: Double {
        let total = segmentStart(playlist.segments.count, in: playlist)
        guard live != nil else { return windowStart + total }
        let target = Double(playlist.targetDuration ?? 6)
        return windowStart + max(total - (playlist.serverControl?.holdBack ?? 3 * target), 0)
    }

    func reportWindow() {
        report(.window(start: windowStart, end: seekableEnd, live: live != nil))
        var anchors: [DateAnchor] = []
        var t = windowStart
        for segment in playlist.segments {
            if let date = segment.programDateTime {
                let expected = anchors.last.map { $0.date.addingTimeInterval(t - $0.seconds) }
                if expected.map({ abs($0.timeIntervalSince(date)) > 0.001 }) ?? true {
                    anchors.append(DateAnchor(seconds: t, date: date))
                }
            }
            t += segment.duration
        }
        if !anchors.isEmpty { report(.dates(anchors)) }
    }

    /// Restarts reading in place at the segment that holds `seconds` (within the seekable window), for a seek: the
    /// segment is fetched first, its init section before it, and its bytes begin a new part at byte 0 of a new
    /// I/O context (`MediaInput.restartPart`), so the demuxer and the decoders are kept and nothing is probed.
    /// The download in flight was dropped when the engine's seek came (`seekPending`). Demux thread.
    func reposition(at seconds: Double) {
        let target = min(max(seconds, windowStart), seekableEnd)
        var start = windowStart
        var index = 0
        for (i, segment) in playlist.segments.enumerated() {
            index = i
            if target < start + segment.duration { break }
            start += segment.duration
        }
        next = index
        nextStart = start
        readFrom = start
        partCursor = 0
        partsTime = 0
        abandonTarget = nil
        jumpPending = nil
        skippedTime = nil
        partBreak = true
        _ = takePartBreak()
    }
}
