import CPulse
import Foundation
import PlayheadCore

extension PulseAudioOutput {
    /// The shared connection's ready context failed (mainloop thread, lock held): the server is gone. Reports it
    /// and starts rebuilding the stream (an output whose first stream is still being made just goes on waiting).
    func connectionLost() {
        guard !closed, openError == nil else { return }
        _ = positionLocked()  // where the sound stopped: what follows is played again on the next stream
        if !opening { post(.serverLost) }
        startRebuild()
    }

    /// Starts making the stream on a queue (lock held), once at a time: the first stream `start` asked for, or a
    /// new one after a server loss or a failed stream.
    func startRebuild() {
        guard !closed, !reconnecting else { return }
        reconnecting = true
        // Only a weak reference between attempts, so an output dropped while the server is away can end.
        DispatchQueue(label: "playhead.pulse.reconnect").async { [weak self] in
            while !(self?.rebuildOnce() ?? true) {
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
    }

    /// One attempt; true when finished (made, the first stream failed for good, or the output closed).
    private func rebuildOnce() -> Bool {
        lock()
        defer { unlock() }
        if closed { return true }
        let first = opening
        let generation = streamGeneration
        let result: PlaybackError?
        do throws(PlaybackError) {
            try rebuildLocked(first: first)
            result = nil
        } catch {
            result = error
        }
        // A `stop` or `start` while the attempt waited: it was for an earlier stream; try again for the current.
        guard generation == streamGeneration else {
            dropStreamLocked()
            return false
        }
        if let result {
            guard first else { return false }
            openError = result
        }
        reconnecting = false
        opening = false
        if !first {
            post(.serverReset)
        } else if result == nil, wantsStream {
            let session = AudioSession.shared
            session.queue.async { [weak self] in
                if let self { session.streamOpened(self) }
            }
        }
        connection.signal()
        return true
    }

    /// One attempt (lock held): waits for the shared connection (made afresh if it failed), then a stream whose
    /// frame 0 is the first frame not heard. After a loss, the frames written and not heard are written again
    /// (`replay`) before the writer's next ones, so the listener misses nothing and the clock goes on from where
    /// the sound stopped (were they no longer held, they would count as heard: the clock would jump over them);
    /// a sink that is gone is replaced by the default one. The first stream must be on the device asked for.
    private func rebuildLocked(first: Bool) throws(PlaybackError) {
        dropStreamLocked()
        guard connection.readyLocked(timeout: first ? connectTimeout : 1) else {
            throw serverError("the sound server does not answer")
        }
        guard wantsStream else { return }
        if first { return try makeStreamLocked(device: targetDevice) }
        if written > heard, replay.holds(heard..<written) {
            timelineBase = heard
            replayFrom = heard
        } else {
            timelineBase = written
            heard = written
            replayFrom = nil
        }
        do {
            try makeStreamLocked(device: targetDevice)
        } catch {
            // The chosen sink is not on this server (or went away): play on the default one.
            guard targetDevice != nil else { throw error }
            try makeStreamLocked(device: nil)
        }
    }

    /// Writes to the rebuilt stream `s` (lock held) as much of what it must play again as `room` frames take.
    func writeReplayLocked(_ s: OpaquePointer, room: Int) throws(PlaybackError) {
        guard let from = replayFrom else { return }
        guard replay.holds(from..<written) else {
            replayFrom = nil
            return
        }
        let (bytesPerFrame, channels) = (format.bytesPerFrame, format.channels)
        let status = replay.withFrames(from: from, limit: room) { samples in
            let n = samples.count / channels
            return pa_stream_write(s, samples.baseAddress, n * bytesPerFrame, nil, 0, PA_SEEK_RELATIVE) < 0 ? -1 : n
        }
        if status < 0 { throw serverError("writing to the sound server failed") }
        replayFrom = from + Int64(status) < written ? from + Int64(status) : nil
    }

    /// Corks the stream for an interruption without waiting (mainloop thread, lock held). The server sends
    /// `request-uncork` only to corked streams, so this also makes sure the interruption's end is reported; once
    /// the cork landed, `askWhetherStillMuted` covers a call that ended before it did.
    func corkForInterruption() {
        guard let s = stream, !corked else { return }
        _ = positionLocked()
        corked = true
        if let op = pa_stream_cork(s, 1, PulseCallbacks.corkedForInterruption, selfPointer) { pa_operation_unref(op) }
    }

    /// The interruption's cork reached the server (mainloop thread, lock held). PulseAudio's role-cork module
    /// mutes a stream as it asks for the cork, and when the call ends unmutes it, sending `request-uncork` only
    /// if the stream is corked by then: a call over before this cork arrived leaves the stream unmuted and no
    /// uncork to come. So the server is asked whether the stream is still muted (its answer follows the cork);
    /// not muted means the interruption is over (`stillMutedAnswered`).
    func askWhetherStillMuted() {
        guard let s = stream, let c = context, muteQuery == nil else { return }
        muteQuery = pa_context_get_sink_input_info(
            c, pa_stream_get_index(s), PulseCallbacks.muteAnswer, selfPointer)
    }

    /// The server's answer to `askWhetherStillMuted` (mainloop thread, lock held): `muted` is nil when it has no
    /// such stream. A stream no longer muted reports the interruption's end as an uncork request would (the
    /// session ends an interruption once, whichever report comes first).
    func stillMutedAnswered(_ muted: Bool?) {
        endMuteQuery(cancel: false)
        if muted == false, corked { post(.uncorkRequested) }
    }

    /// Forgets the pending mute question (lock held), cancelling it first when asked (the stream goes).
    func endMuteQuery(cancel: Bool) {
        guard let op = muteQuery else { return }
        if cancel { pa_operation_cancel(op) }
        pa_operation_unref(op)
        muteQuery = nil
    }

    /// The name of the sink the stream plays on now. Any thread.
    var currentDevice: String? {
        lock()
        defer { unlock() }
        guard let s = stream, !reconnecting else { return nil }
        return pa_stream_get_device_name(s).map { String(cString: $0) }
    }

    /// Sets the sink for streams opened from now on (the session's preferred output); an explicit `device`
    /// given to `init` is replaced too. Any thread.
    func setTargetDevice(_ name: String?) {
        lock()
        targetDevice = name ?? device
        unlock()
    }

    /// Replaces the stream's properties (the session's category changed); empty values remove the key. Roles
    /// given to `init` are kept. Any thread.
    func updateStreamProperties(_ properties: [String: String]) {
        lock()
        defer { unlock() }
        guard !fixedRole else { return }
        storedRole = properties["media.role"] ?? storedRole
        guard let s = stream, !reconnecting else { return }
        // The waits let go of the lock: the reference keeps `s` valid if `stop()` drops the stream meanwhile.
        pa_stream_ref(s)
        defer { pa_stream_unref(s) }
        let props = pa_proplist_new()
        defer { pa_proplist_free(props) }
        for (key, value) in properties where !value.isEmpty { pa_proplist_sets(props, key, value) }
        wait(pa_stream_proplist_update(s, PA_UPDATE_REPLACE, props, PulseCallbacks.success, selfPointer))
        for (key, value) in properties where value.isEmpty && stream == s {
            var keys: [UnsafePointer<CChar>?] = [UnsafePointer(strdup(key)), nil]
            wait(pa_stream_proplist_remove(s, &keys, PulseCallbacks.success, selfPointer))
            free(UnsafeMutablePointer(mutating: keys[0]))
        }
    }
}
