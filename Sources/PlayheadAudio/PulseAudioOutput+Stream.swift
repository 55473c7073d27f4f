import CPulse
import Foundation
import PlayheadCore

extension PulseAudioOutput {
    /// Creates the playback stream for `format`, corked, with the role and latency of this output, and registers
    /// the output with `AudioSession.shared`; waits until the stream is ready (connecting first if the process's
    /// connection is not), and throws when no server answers or the device cannot play. Blocks the calling thread
    /// meanwhile: the player uses `requestStream(format:)` instead. Any thread but the main actor's.
    public func start(format: AudioFormat) throws(PlaybackError) {
        requestStream(format: format)
        lock()
        defer { unlock() }
        while opening && openError == nil && !closed { timedWait(0.1) }
        if let openError { throw openError }
    }

    /// Asks for a playback stream for `format`, corked, with the role and latency of this output, and registers
    /// the output with `AudioSession.shared`. Returns at once (any thread, the main actor included): the stream is
    /// made on a queue once the shared connection is ready, and writes wait for it; when it cannot be made (no
    /// server answers, no such device) writes throw the error and `openFailure` reports it.
    public func requestStream(format: AudioFormat) {
        stop()
        lock()
        self.format = format
        written = 0
        heard = 0
        timelineBase = 0
        replay.reset(channels: format.channels, frames: Int(Double(format.sampleRate) * replayCapacity))
        replayFrom = nil
        corked = true
        openError = nil
        wantsStream = true
        opening = true
        streamGeneration += 1
        startRebuild()
        unlock()
        AudioSession.shared.register(self)
    }

    /// Creates and connects a stream on `device` (lock held); it starts corked unless `corked` is false.
    func makeStreamLocked(device: String?) throws(PlaybackError) {
        guard let c = context else { throw serverError("not connected") }
        var spec = pa_sample_spec(
            format: PA_SAMPLE_FLOAT32LE, rate: UInt32(format.sampleRate), channels: UInt8(format.channels))
        let props = pa_proplist_new()
        defer { pa_proplist_free(props) }
        var properties = fixedRole ? [:] : AudioSession.shared.currentStreamProperties
        properties["media.role"] = fixedRole ? storedRole : properties["media.role"] ?? storedRole
        storedRole = properties["media.role"] ?? storedRole
        for (key, value) in properties where !value.isEmpty { pa_proplist_sets(props, key, value) }
        pa_proplist_sets(props, PA_PROP_MEDIA_NAME, applicationName)
        pa_proplist_sets(props, PA_PROP_APPLICATION_NAME, applicationName)
        guard let s = pa_stream_new_with_proplist(c, "playback", &spec, nil, props) else {
            throw serverError("cannot create a stream")
        }
        stream = s
        let ctx = selfPointer
        pa_stream_set_state_callback(s, PulseCallbacks.streamState, ctx)
        pa_stream_set_write_callback(s, PulseCallbacks.writable, ctx)
        pa_stream_set_event_callback(s, PulseCallbacks.event, ctx)
        pa_stream_set_moved_callback(s, PulseCallbacks.moved, ctx)
        pa_stream_set_underflow_callback(s, PulseCallbacks.underflow, ctx)
        let bytes = UInt32(Double(format.sampleRate * format.bytesPerFrame) * targetLatency)
        var attr = pa_buffer_attr(
            maxlength: UInt32.max, tlength: bytes, prebuf: UInt32.max, minreq: UInt32.max, fragsize: UInt32.max)
        var flags =
            PA_STREAM_INTERPOLATE_TIMING.rawValue | PA_STREAM_AUTO_TIMING_UPDATE.rawValue
            | PA_STREAM_ADJUST_LATENCY.rawValue
        let startedCorked = corked
        if startedCorked { flags |= PA_STREAM_START_CORKED.rawValue }
        if pa_stream_connect_playback(s, device, &attr, pa_stream_flags_t(flags), nil, nil) < 0 {
            dropStreamLocked()
            throw serverError("cannot open a playback stream")
        }
        let deadline = MonotonicClock.now() + 3
        while pa_stream_get_state(s) != PA_STREAM_READY {
            if ph_pa_stream_is_good(pa_stream_get_state(s)) == 0 || MonotonicClock.now() > deadline {
                dropStreamLocked()
                throw serverError(device.map { "cannot play on the device '\($0)'" } ?? "the playback stream failed")
            }
            timedWait(0.05)
            // `stop()` on another thread may have closed the stream while we waited.
            guard stream == s else { throw serverError("the playback stream was closed") }
        }
        // `setPaused` while the stream was being made only recorded the wish: apply it (not waited for).
        if corked != startedCorked, let op = pa_stream_cork(s, corked ? 1 : 0, nil, nil) { pa_operation_unref(op) }
    }

    /// Disconnects and releases the stream, if any (lock held).
    func dropStreamLocked() {
        endMuteQuery(cancel: true)
        guard let s = stream else { return }
        pa_stream_set_state_callback(s, nil, nil)
        pa_stream_set_write_callback(s, nil, nil)
        pa_stream_set_event_callback(s, nil, nil)
        pa_stream_set_moved_callback(s, nil, nil)
        pa_stream_set_underflow_callback(s, nil, nil)
        if ph_pa_stream_is_good(pa_stream_get_state(s)) != 0 { pa_stream_disconnect(s) }
        pa_stream_unref(s)
        stream = nil
    }

    /// The frame heard now, from the server's timing information: the read index less the sink's latency, plus
    /// the time since the server measured it while the stream plays; while corked, where the sound stopped.
    /// Never goes backwards, never passes `written`. (`pa_stream_get_time` keeps interpolating while a stream has
    /// not started, which would run the clock early.)
    public var playPosition: Int64 {
        lock()
        defer { unlock() }
        return positionLocked()
    }

    /// `playPosition`, lock held: updates `heard` from the timing information unless corked. Timing stamped before
    /// the last cork change is not extrapolated (it would count a pause as played).
    func positionLocked() -> Int64 {
        guard !reconnecting, let s = stream else { return heard }
        guard !corked, let info = pa_stream_get_timing_info(s), info.pointee.read_index_corrupt == 0 else {
            // A flush while corked takes back what was written and not heard.
            heard = min(written, heard)
            return heard
        }
        let rate = Double(format.sampleRate)
        var frames = Double(timelineBase) + Double(info.pointee.read_index) / Double(format.bytesPerFrame)
        frames -= Double(info.pointee.sink_usec) * rate / 1_000_000
        var stamp = info.pointee.timestamp
        if info.pointee.playing != 0 && pa_timeval_cmp(&stamp, &corkChangedAt) > 0 {
            frames += Double(pa_timeval_age(&stamp)) * rate / 1_000_000
        }
        heard = min(written, max(heard, Int64(frames)))
        return heard
    }

    /// Frames written since the stream began, moved back to the read position by `flush`.
    public var writePosition: Int64 {
        lock()
        defer { unlock() }
        return written
    }

    /// The index of this stream's sink input on the server, for tests and the audio session.
    public var sinkInputIndex: UInt32? {
        lock()
        defer { unlock() }
        guard let s = stream else { return nil }
        let i = pa_stream_get_index(s)
        return i == ph_pa_invalid_index() ? nil : i
    }

    /// Waits (lock held) for an operation to finish; `interruptible` lets `interruptWrite` end the wait.
    @discardableResult
    func wait(_ op: OpaquePointer?, interruptible: Bool = false) -> Bool {
        connection.wait(for: op, seconds: 5) { interruptible && interrupted }
    }
}
