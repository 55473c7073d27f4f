import CPulse
import Foundation
import PlayheadCore

extension PulseAudioOutput {
    /// The context failed (mainloop thread, lock held): the server is gone. Reports it and starts rebuilding.
    func contextFailed() {
        guard !closed else { return }
        post(.serverLost)
        startRebuild()
    }

    /// Starts reconnecting and rebuilding the stream on a queue (lock held), once.
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

    /// One attempt; true when finished (rebuilt, or the output closed).
    private func rebuildOnce() -> Bool {
        lock()
        defer { unlock() }
        if closed { return true }
        guard rebuildLocked() else { return false }
        reconnecting = false
        post(.serverReset)
        pa_threaded_mainloop_signal(mainloop, 0)
        return true
    }

    /// One attempt (lock held): a new context if the old one is not ready, then a stream whose frame 0 is the
    /// next frame of the output's timeline. Frames written but not heard before the loss are counted as heard
    /// (they are gone), so the clock jumps over at most the buffered latency.
    private func rebuildLocked() -> Bool {
        dropStreamLocked()
        if context.map({ pa_context_get_state($0) != PA_CONTEXT_READY }) ?? true {
            if let c = context {
                pa_context_set_state_callback(c, nil, nil)
                pa_context_disconnect(c)
                pa_context_unref(c)
                context = nil
            }
            guard makeContext(), let c = context, pa_context_connect(c, nil, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0,
                waitForContext(timeout: 1)
            else { return false }
        }
        guard wantsStream else { return true }
        timelineBase = written
        heard = written
        do {
            try makeStreamLocked(device: targetDevice)
        } catch {
            // The chosen sink is not on this server (or went away): play on the default one.
            guard targetDevice != nil, (try? makeStreamLocked(device: nil)) != nil else { return false }
        }
        return true
    }

    /// Corks the stream for an interruption without waiting (mainloop thread, lock held). The server sends
    /// `request-uncork` only to corked streams, so this also makes sure the interruption's end is reported.
    func corkForInterruption() {
        guard let s = stream, !corked else { return }
        corked = true
        if let op = pa_stream_cork(s, 1, nil, nil) { pa_operation_unref(op) }
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
        let props = pa_proplist_new()
        defer { pa_proplist_free(props) }
        for (key, value) in properties where !value.isEmpty { pa_proplist_sets(props, key, value) }
        wait(pa_stream_proplist_update(s, PA_UPDATE_REPLACE, props, PulseCallbacks.success, selfPointer))
        for (key, value) in properties where value.isEmpty {
            var keys: [UnsafePointer<CChar>?] = [UnsafePointer(strdup(key)), nil]
            wait(pa_stream_proplist_remove(s, &keys, PulseCallbacks.success, selfPointer))
            free(UnsafeMutablePointer(mutating: keys[0]))
        }
    }
}
