import CPulse
import Foundation
import PlayheadCore

/// Writing to the playback stream and the commands on it (pause, flush, drain, stop); the stream's life is in
/// `PulseAudioOutput+Stream.swift`.
extension PulseAudioOutput {
    /// Asks for real-time scheduling for the calling (engine audio) thread where the process may
    /// (`RealtimeScheduling`). On the player's audio thread.
    public func prepareWriterThread() {
        RealtimeScheduling.raiseCallingThreadOnce()
    }

    /// Writes as the server makes room, blocking (on the player's audio thread) while the buffer is full.
    public func write(_ samples: UnsafeBufferPointer<Float>) throws(PlaybackError) -> Int {
        lock()
        defer { unlock() }
        let frameBytes = format.bytesPerFrame
        let total = samples.count / format.channels
        var done = 0
        while done < total {
            if let openError { throw openError }
            if interrupted { break }
            if reconnecting || closed {
                // The stream is being made, or the server is gone: wait for the (re)built stream; the clock stands
                // still meanwhile.
                timedWait(0.05)
                continue
            }
            guard let s = stream, ph_pa_stream_is_good(pa_stream_get_state(s)) != 0,
                let c = context, pa_context_get_state(c) == PA_CONTEXT_READY
            else { throw serverError("the sound server stream was lost") }
            let room = pa_stream_writable_size(s) / frameBytes
            if room == 0 {
                pa_threaded_mainloop_wait(mainloop)
                continue
            }
            if replayFrom != nil {
                try writeReplayLocked(s, room: room)
                continue
            }
            let n = min(room, total - done)
            let base = samples.baseAddress! + done * format.channels
            if pa_stream_write(s, base, n * frameBytes, nil, 0, PA_SEEK_RELATIVE) < 0 {
                throw serverError("writing to the sound server failed")
            }
            replay.record(base, frames: n, at: written)
            done += n
            written += Int64(n)
            AudioCounters.wrote()
        }
        return done
    }

    /// Wakes a blocked `write` or `drain`.
    public func interruptWrite() {
        lock()
        interrupted = true
        pa_threaded_mainloop_signal(mainloop, 0)
        unlock()
    }

    /// Allows blocking writes again.
    public func resumeWrites() {
        lock()
        interrupted = false
        unlock()
    }

    /// Corks or uncorks the stream, returning at once: the request and a timing update are sent and not waited
    /// for (the server carries out a stream's requests in order). Until timing newer than the change arrives,
    /// `playPosition` does not run on from older timing, which would count the pause as played.
    public func setPaused(_ paused: Bool) {
        lock()
        defer { unlock() }
        // The position stands where the sound stops now, not where the server's last timing left it.
        if paused { _ = positionLocked() }
        corked = paused
        guard let s = stream, !reconnecting else { return }
        pa_gettimeofday(&corkChangedAt)
        if let op = pa_stream_cork(s, paused ? 1 : 0, nil, nil) { pa_operation_unref(op) }
        if let op = pa_stream_update_timing_info(s, nil, nil) { pa_operation_unref(op) }
    }

    /// Drops unheard audio; the write position returns to the server's read position. Waits for the server (on
    /// the player's audio thread).
    public func flush() {
        lock()
        defer { unlock() }
        replayFrom = nil
        guard let s = stream, !reconnecting else {
            written = heard
            return
        }
        // The waits let go of the lock, and `stop()` or a rebuild on another thread may drop the stream meanwhile:
        // the reference keeps `s` valid, and a stream that is no longer ours is not read.
        pa_stream_ref(s)
        defer { pa_stream_unref(s) }
        wait(pa_stream_flush(s, PulseCallbacks.success, selfPointer))
        if stream == s { wait(pa_stream_update_timing_info(s, PulseCallbacks.success, selfPointer)) }
        guard stream == s else {
            written = heard
            return
        }
        if let info = pa_stream_get_timing_info(s), info.pointee.write_index_corrupt == 0 {
            written = timelineBase + info.pointee.write_index / Int64(format.bytesPerFrame)
        }
    }

    /// Starts playback of a short tail and waits until the server has played everything written.
    public func drain() -> Bool {
        lock()
        defer { unlock() }
        if reconnecting {
            timedWait(0.05)
            return false
        }
        guard let s = stream else { return true }
        // What a rebuilt stream still has to play again is written first, as `write` would.
        while replayFrom != nil, !interrupted, stream == s, ph_pa_stream_is_good(pa_stream_get_state(s)) != 0 {
            let room = pa_stream_writable_size(s) / format.bytesPerFrame
            if room == 0 {
                pa_threaded_mainloop_wait(mainloop)
            } else if (try? writeReplayLocked(s, room: room)) == nil {
                return false
            }
        }
        if replayFrom != nil { return false }
        return wait(pa_stream_drain(s, PulseCallbacks.success, selfPointer), interruptible: true)
    }

    /// Disconnects the stream and leaves the audio session.
    public func stop() {
        lock()
        let had = wantsStream
        wantsStream = false
        openError = nil
        streamGeneration += 1
        dropStreamLocked()
        unlock()
        if had { AudioSession.shared.unregister(self) }
    }
}
