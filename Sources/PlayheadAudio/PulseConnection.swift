import CPulse
import Foundation
import PlayheadCore

/// What uses the shared connection and must hear when the sound server goes away.
protocol PulseConnectionClient: AnyObject, Sendable {
    /// The ready context failed: the server is gone. Called on the mainloop thread with the lock held; must not
    /// wait (it starts its own rebuild on a queue).
    func connectionLost()
    /// A subscription event of the context (mainloop thread, lock held), for the clients that subscribed.
    func subscriptionEvent(_ type: pa_subscription_event_type_t, index: UInt32)
}

extension PulseConnectionClient {
    /// Outputs do not subscribe: nothing to do.
    func subscriptionEvent(_ type: pa_subscription_event_type_t, index: UInt32) {}
}

/// The process's one connection to the sound server: one `pa_threaded_mainloop` and at most one `pa_context` at a
/// time, shared by every `PulseAudioOutput` and the audio session's monitor, so the server sees one client for the
/// process however many players play. The connection is made on first need off the caller's thread
/// (`prewarm()`), or by whoever waits for it (`readyLocked(timeout:)`: outputs on their own queues, never the main
/// actor); after a server loss the first waiter makes the new context and the others wait for that one.
///
/// Ownership: the mainloop and its thread belong to the process-wide `shared` instance and end with the process;
/// each context belongs to the instance until it fails and is replaced. Threads: the mainloop thread runs the C
/// callbacks, which only record and signal; every member may be called from any thread except a PulseAudio
/// callback, those marked "lock held" between `lock()` and `unlock()`.
final class PulseConnection: @unchecked Sendable {
    /// The process's connection (created, its mainloop thread started, on first use).
    static let shared = PulseConnection()

    let mainloop: OpaquePointer
    /// The current context (lock held); nil before the first attempt and after a failed one was dropped.
    private(set) var context: OpaquePointer?
    /// Whether the current context has been ready (its failure is then a server loss, not a refused attempt).
    private var contextWasReady = false
    /// The error of the last context that failed, for messages once it is gone.
    private var lastErrno: Int32 = 0
    private var clients: [ObjectIdentifier: WeakClient] = [:]
    private let prewarmQueue = DispatchQueue(label: "playhead.pulse.connect", qos: .userInitiated)

    private struct WeakClient {
        weak var client: (any PulseConnectionClient)?
    }

    private init() {
        guard let ml = pa_threaded_mainloop_new() else { fatalError("PulseAudio: cannot create a mainloop") }
        mainloop = ml
        guard pa_threaded_mainloop_start(ml) >= 0 else { fatalError("PulseAudio: cannot start the mainloop thread") }
    }

    /// Takes the mainloop lock (recursive). Any thread. On the mainloop thread, which holds the lock while it runs
    /// the C callbacks, nothing is taken: there a client's `deinit` may run, when the reference a callback took
    /// (`subscription` reads each client's weak reference) was the last one, and libpulse aborts on a lock taken
    /// by its own thread.
    func lock() {
        guard pa_threaded_mainloop_in_thread(mainloop) == 0 else { return }
        pa_threaded_mainloop_lock(mainloop)
    }
    /// Releases the mainloop lock (nothing on the mainloop thread, as `lock`).
    func unlock() {
        guard pa_threaded_mainloop_in_thread(mainloop) == 0 else { return }
        pa_threaded_mainloop_unlock(mainloop)
    }
    /// Wakes every thread waiting on the mainloop condition. Lock held.
    func signal() { pa_threaded_mainloop_signal(mainloop, 0) }
    private var selfPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// Starts connecting on a background queue unless a context is ready or connecting; returns at once. Any thread.
    func prewarm() {
        prewarmQueue.async { [self] in
            lock()
            _ = readyLocked(timeout: 3)
            unlock()
        }
    }

    /// Whether the context is ready now. Lock held.
    var isReadyLocked: Bool { context.map { pa_context_get_state($0) == PA_CONTEXT_READY } ?? false }

    /// Waits (lock held, never on the main actor) until the context is ready, making a new one when there is none
    /// or it failed; false when the context it waits for fails (no server answers) or `timeout` passes (the
    /// attempt is then dropped, so the next waiter tries afresh).
    func readyLocked(timeout: Double) -> Bool {
        if let c = context, ph_pa_context_is_good(pa_context_get_state(c)) == 0 { dropContextLocked() }
        if context == nil { guard connectLocked() else { return false } }
        guard let c = context else { return false }
        let deadline = MonotonicClock.now() + timeout
        while true {
            guard context == c else { return isReadyLocked }
            let s = pa_context_get_state(c)
            if s == PA_CONTEXT_READY { return true }
            if ph_pa_context_is_good(s) == 0 { return false }
            if MonotonicClock.now() > deadline {
                lastErrno = Int32(PA_ERR_TIMEOUT.rawValue)
                dropContextLocked()
                return false
            }
            timedWait(0.05)
        }
    }

    /// The error code of the current context, or of the last one that failed. Lock held.
    var errnoLocked: Int32 {
        if let c = context, pa_context_errno(c) != 0 { return pa_context_errno(c) }
        return lastErrno
    }

    /// Creates a context with the application's properties and starts connecting it. Lock held.
    private func connectLocked() -> Bool {
        let props = pa_proplist_new()
        defer { pa_proplist_free(props) }
        pa_proplist_sets(props, PA_PROP_APPLICATION_NAME, "Playhead")
        pa_proplist_sets(props, PA_PROP_APPLICATION_ID, "org.playhead.Playhead")
        guard let c = pa_context_new_with_proplist(pa_threaded_mainloop_get_api(mainloop), "Playhead", props) else {
            return false
        }
        context = c
        contextWasReady = false
        pa_context_set_state_callback(c, PulseConnection.contextState, selfPointer)
        pa_context_set_subscribe_callback(c, PulseConnection.subscription, selfPointer)
        guard pa_context_connect(c, nil, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            dropContextLocked()
            return false
        }
        return true
    }

    /// Disconnects and releases the current context. Lock held.
    private func dropContextLocked() {
        guard let c = context else { return }
        if pa_context_errno(c) != 0 { lastErrno = pa_context_errno(c) }
        pa_context_set_state_callback(c, nil, nil)
        pa_context_set_subscribe_callback(c, nil, nil)
        pa_context_disconnect(c)
        pa_context_unref(c)
        context = nil
        contextWasReady = false
    }

    /// Adds `client` (held weakly) to those told of a server loss. Any thread.
    func add(_ client: any PulseConnectionClient) {
        lock()
        clients[ObjectIdentifier(client)] = WeakClient(client: client)
        unlock()
    }

    /// Removes the client with this identity (from its deinit, where its weak reference already reads nil). Any
    /// thread.
    func remove(id: ObjectIdentifier) {
        lock()
        clients[id] = nil
        unlock()
    }

    /// The context changed state (mainloop thread, lock held): a ready context that fails is a server loss,
    /// told to every client once.
    private func stateChanged(_ c: OpaquePointer?) {
        guard let c, c == context else { return }
        let s = pa_context_get_state(c)
        if s == PA_CONTEXT_READY {
            contextWasReady = true
            // This callback runs on the mainloop thread, which carries the server's requests to every writer.
            RealtimeScheduling.raiseCallingThreadOnce()
        }
        if (s == PA_CONTEXT_FAILED || s == PA_CONTEXT_TERMINATED) && contextWasReady {
            contextWasReady = false
            lastErrno = pa_context_errno(c)
            for entry in clients.values { entry.client?.connectionLost() }
        }
    }

    /// Waits (lock held) for the operation `op` to finish, at most `seconds`, and unrefs it; cancels it when the
    /// context is lost, the time is up or `giveUp` says so (checked at each wake-up). True when it completed.
    @discardableResult
    func wait(for op: OpaquePointer?, seconds: Double, giveUp: () -> Bool = { false }) -> Bool {
        guard let op else { return false }
        let deadline = MonotonicClock.now() + seconds
        while pa_operation_get_state(op) == PA_OPERATION_RUNNING {
            let lost = context.map { pa_context_get_state($0) != PA_CONTEXT_READY } ?? true
            if giveUp() || lost || MonotonicClock.now() > deadline {
                pa_operation_cancel(op)
                break
            }
            timedWait(0.1)
        }
        let done = pa_operation_get_state(op) == PA_OPERATION_DONE
        pa_operation_unref(op)
        return done
    }

    /// Waits on the mainloop condition (lock held) at most `seconds`; a C callback's signal ends it early.
    func timedWait(_ seconds: Double) {
        // pa_threaded_mainloop_wait has no time-out; a timer event signals us instead.
        let api = pa_threaded_mainloop_get_api(mainloop)!
        var tv = timeval()
        pa_timeval_add(pa_gettimeofday(&tv), pa_usec_t(seconds * 1_000_000))
        let timer = api.pointee.time_new(api, &tv, PulseConnection.timer, selfPointer)
        pa_threaded_mainloop_wait(mainloop)
        api.pointee.time_free(timer)
    }

    private static func connection(_ p: UnsafeMutableRawPointer?) -> PulseConnection? {
        p.map { Unmanaged<PulseConnection>.fromOpaque($0).takeUnretainedValue() }
    }

    private static let contextState: pa_context_notify_cb_t = { c, userdata in
        guard let conn = connection(userdata) else { return }
        conn.stateChanged(c)
        conn.signal()
    }

    /// Hands a subscription event to every client (each audio session's monitor subscribes).
    private static let subscription: pa_context_subscribe_cb_t = { c, type, index, userdata in
        guard let conn = connection(userdata), c == conn.context else { return }
        for entry in conn.clients.values { entry.client?.subscriptionEvent(type, index: index) }
    }

    private static let timer: pa_time_event_cb_t = { _, _, _, userdata in
        connection(userdata)?.signal()
    }
}
