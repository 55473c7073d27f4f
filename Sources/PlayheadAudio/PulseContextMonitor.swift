import CPulse
import Foundation
import PlayheadCore

/// A sink as the server describes it. Value type, safe anywhere.
struct SinkInfo: Sendable, Hashable {
    var index: UInt32
    var name: String
    var description: String
    var activePort: String?
    /// False when the active port is known to be unplugged (`PA_PORT_AVAILABLE_NO`).
    var activePortAvailable: Bool
    var portType: AudioSession.PortType

    var port: AudioSession.PortDescription {
        AudioSession.PortDescription(portName: description, portType: portType, uid: name, activePort: activePort)
    }
}

/// Another program's playback stream, for ducking. Value type, safe anywhere.
struct SinkInputInfo: Sendable {
    var index: UInt32
    var processID: Int32?
    var volume: pa_cvolume
    var corked: Bool
}

/// What the monitor saw on the server.
enum MonitorEvent: Sendable {
    case sinkAdded(SinkInfo)
    case sinkRemoved(SinkInfo)
    case sinkChanged(old: SinkInfo, new: SinkInfo)
    case sinkInputAdded(UInt32)
    case serverLost
    case serverBack
}

/// The audio session's own connection to PulseAudio: subscribes to sink, sink-input and server events, keeps the
/// sink list, answers queries, and reconnects when the server comes back.
///
/// Threads: its `pa_threaded_mainloop` runs the C callbacks, which only update the cache and hand events to
/// `onEvent` on a serial queue; every method may be called from any thread except a PulseAudio callback.
final class PulseContextMonitor: @unchecked Sendable {
    let mainloop: OpaquePointer
    var context: OpaquePointer?
    /// Sinks by index; guarded by the mainloop lock.
    var sinks: [UInt32: SinkInfo] = [:]
    var defaultSinkName: String?
    var closed = false
    var reconnecting = false
    let onEvent: @Sendable (MonitorEvent) -> Void
    let events = DispatchQueue(label: "playhead.audiosession.monitor")

    /// Connects (failing within `timeout` seconds), subscribes and loads the sink list.
    init(timeout: Double = 2, onEvent: @escaping @Sendable (MonitorEvent) -> Void) throws(PlaybackError) {
        guard let ml = pa_threaded_mainloop_new() else {
            throw PlaybackError(.audioOutput, source: "PulseAudio", reason: "cannot create a mainloop")
        }
        mainloop = ml
        self.onEvent = onEvent
        guard pa_threaded_mainloop_start(ml) >= 0 else {
            throw PlaybackError(.audioOutput, source: "PulseAudio", reason: "cannot start the mainloop thread")
        }
        lock()
        defer { unlock() }
        guard connectLocked(timeout: timeout) else {
            throw PlaybackError(.audioOutput, source: "PulseAudio", reason: "the sound server does not answer")
        }
    }

    deinit {
        lock()
        closed = true
        dropContextLocked()
        unlock()
        pa_threaded_mainloop_stop(mainloop)
        pa_threaded_mainloop_free(mainloop)
    }

    func lock() { pa_threaded_mainloop_lock(mainloop) }
    func unlock() { pa_threaded_mainloop_unlock(mainloop) }
    var selfPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Creates a context, waits for it, subscribes and loads sinks and the default sink. Lock held.
    func connectLocked(timeout: Double) -> Bool {
        let props = pa_proplist_new()
        defer { pa_proplist_free(props) }
        pa_proplist_sets(props, PA_PROP_APPLICATION_NAME, "Playhead audio session")
        pa_proplist_sets(props, PA_PROP_APPLICATION_ID, "org.playhead.Playhead")
        guard let c = pa_context_new_with_proplist(pa_threaded_mainloop_get_api(mainloop), "Playhead", props) else {
            return false
        }
        pa_context_set_state_callback(c, MonitorCallbacks.contextState, selfPointer)
        guard pa_context_connect(c, nil, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            pa_context_unref(c)
            return false
        }
        context = c
        let deadline = MonotonicClock.now() + timeout
        while pa_context_get_state(c) != PA_CONTEXT_READY {
            if ph_pa_context_is_good(pa_context_get_state(c)) == 0 || MonotonicClock.now() > deadline {
                dropContextLocked()
                return false
            }
            timedWait(0.05)
        }
        pa_context_set_subscribe_callback(c, MonitorCallbacks.subscription, selfPointer)
        let mask =
            PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SINK_INPUT.rawValue
            | PA_SUBSCRIPTION_MASK_SERVER.rawValue
        wait(pa_context_subscribe(c, pa_subscription_mask_t(mask), MonitorCallbacks.success, selfPointer))
        let collector = SinkCollector(mainloop: mainloop)
        let box = Unmanaged.passRetained(collector)
        wait(pa_context_get_sink_info_list(c, MonitorCallbacks.sinkList, box.toOpaque()))
        box.release()
        sinks = Dictionary(collector.sinks.map { ($0.index, $0) }) { $1 }
        refreshDefaultSinkLocked()
        return true
    }

    func dropContextLocked() {
        guard let c = context else { return }
        pa_context_set_state_callback(c, nil, nil)
        pa_context_set_subscribe_callback(c, nil, nil)
        pa_context_disconnect(c)
        pa_context_unref(c)
        context = nil
    }

    func refreshDefaultSinkLocked() {
        guard let c = context else { return }
        let box = Unmanaged.passRetained(StringBox(mainloop: mainloop))
        wait(pa_context_get_server_info(c, MonitorCallbacks.serverInfo, box.toOpaque()))
        if let name = box.takeRetainedValue().value { defaultSinkName = name }
    }

    /// Called on the mainloop thread when the context fails: reports the loss and reconnects on a queue.
    func contextFailed() {
        guard !closed, !reconnecting else { return }
        reconnecting = true
        sinks = [:]
        post(.serverLost)
        DispatchQueue(label: "playhead.audiosession.reconnect").async { [weak self] in self?.reconnectLoop() }
    }

    private func reconnectLoop() {
        while true {
            lock()
            if closed {
                unlock()
                return
            }
            dropContextLocked()
            if connectLocked(timeout: 1) {
                reconnecting = false
                unlock()
                post(.serverBack)
                return
            }
            unlock()
            Thread.sleep(forTimeInterval: 0.1)
        }
    }

    func post(_ event: MonitorEvent) {
        let handler = onEvent
        events.async { handler(event) }
    }

    /// Waits on the mainloop condition (lock held) at most `seconds`.
    func timedWait(_ seconds: Double) {
        let api = pa_threaded_mainloop_get_api(mainloop)!
        var tv = timeval()
        pa_timeval_add(pa_gettimeofday(&tv), pa_usec_t(seconds * 1_000_000))
        let timer = api.pointee.time_new(api, &tv, MonitorCallbacks.timer, selfPointer)
        pa_threaded_mainloop_wait(mainloop)
        api.pointee.time_free(timer)
    }

    /// Waits (lock held) for an operation to finish, at most 3 seconds; true when it completed.
    @discardableResult
    func wait(_ op: OpaquePointer?) -> Bool {
        guard let op else { return false }
        let deadline = MonotonicClock.now() + 3
        while pa_operation_get_state(op) == PA_OPERATION_RUNNING {
            let lost = context.map { pa_context_get_state($0) != PA_CONTEXT_READY } ?? true
            if lost || MonotonicClock.now() > deadline {
                pa_operation_cancel(op)
                break
            }
            timedWait(0.1)
        }
        let done = pa_operation_get_state(op) == PA_OPERATION_DONE
        pa_operation_unref(op)
        return done
    }
}

/// Collects sink infos across a list operation's callbacks (mainloop thread), read after the wait.
final class SinkCollector: @unchecked Sendable {
    let mainloop: OpaquePointer
    var sinks: [SinkInfo] = []
    var inputs: [SinkInputInfo] = []
    init(mainloop: OpaquePointer) { self.mainloop = mainloop }
}

/// One string answered by a callback (mainloop thread), read after the wait.
final class StringBox: @unchecked Sendable {
    let mainloop: OpaquePointer
    var value: String?
    init(mainloop: OpaquePointer) { self.mainloop = mainloop }
}
