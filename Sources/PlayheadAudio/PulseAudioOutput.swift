import CPulse
import Foundation
import PlayheadCore

/// Plays audio through PulseAudio (or PipeWire's PulseAudio server) with the asynchronous API on a
/// `pa_threaded_mainloop`. The stream carries the `media.role` of `AudioSession.shared`'s category (or the role
/// given) and the application name, starts corked, and reports the server's latency-corrected position as
/// `playPosition`. When the server goes away the output reconnects and rebuilds its stream by itself, keeping its
/// timeline (positions continue, and do not run while disconnected) and its corked state.
///
/// Threads: PulseAudio's own mainloop thread runs the C callbacks, which only record and signal. `write` runs on
/// the engine's audio thread; every other member may be called from any thread except a PulseAudio callback.
public final class PulseAudioOutput: AudioOutput, @unchecked Sendable {
    let mainloop: OpaquePointer
    var context: OpaquePointer?
    var stream: OpaquePointer?
    var format = AudioFormat()
    var written: Int64 = 0
    /// The last position reported as heard (positions never go backwards).
    var heard: Int64 = 0
    /// Where the current stream's frame 0 is on the output's timeline (non-zero after a rebuild).
    var timelineBase: Int64 = 0
    var corked = true
    var interrupted = false
    /// True while the server is gone or the stream is being rebuilt.
    var reconnecting = false
    var closed = false
    /// Whether `start` opened a stream that `stop` has not closed (a rebuild recreates it).
    var wantsStream = false
    var storedRole: String
    /// The sink new streams go to: `device`, or the session's preferred output.
    var targetDevice: String?
    var handler: (@Sendable (AudioOutputEvent) -> Void)?
    let events = DispatchQueue(label: "playhead.pulse.events")

    /// "pulse".
    public let name = "pulse"
    /// The application name the server shows.
    public let applicationName: String
    /// The stream's `media.role` ("music", "video", "phone", "game", "event"...); follows the session's category
    /// unless given to `init`.
    public var role: String {
        lock()
        defer { unlock() }
        return storedRole
    }
    /// The sink asked for at `init`, or nil for the session's preferred output or the server's default.
    public let device: String?
    let fixedRole: Bool
    /// The buffered latency asked of the server, in seconds: how much written sound the server holds, and so how
    /// long the writing threads may be held back (a busy machine) before the listener hears a gap. Volume and
    /// speed changes, applied before writing, are heard this much later; pause, seek and stop act at once.
    public let targetLatency: Double

    /// Connects to the sound server (at `PULSE_SERVER` or the default), failing within `timeout` seconds when it
    /// does not answer. The stream itself is created by `start(format:)`. Without `role`, the stream's role follows
    /// `AudioSession.shared`'s category and mode; without `device`, its preferred output. `targetLatency` is 0.3 s
    /// by default: at 0.1 s a build running beside the player left its threads waiting for the CPU longer than the
    /// buffer lasted, and the stream ran dry (`docs/architecture.md`, "Real time under load").
    public init(
        applicationName: String = "Playhead", role: String? = nil, device: String? = nil,
        targetLatency: Double = 0.3, timeout: Double = 3
    ) throws(PlaybackError) {
        self.applicationName = applicationName
        fixedRole = role != nil
        storedRole = role ?? AudioSession.shared.currentStreamProperties["media.role"] ?? "music"
        self.device = device
        targetDevice = device ?? AudioSession.shared.preferredOutput?.uid
        self.targetLatency = targetLatency
        guard let ml = pa_threaded_mainloop_new() else {
            throw PlaybackError(.audioOutput, source: "PulseAudio", reason: "cannot create a mainloop")
        }
        mainloop = ml
        try connect(timeout: timeout)
    }

    deinit {
        stop()
        lock()
        closed = true
        if let c = context {
            pa_context_set_state_callback(c, nil, nil)
            pa_context_disconnect(c)
            pa_context_unref(c)
        }
        context = nil
        unlock()
        pa_threaded_mainloop_stop(mainloop)
        pa_threaded_mainloop_free(mainloop)
    }

    func lock() { pa_threaded_mainloop_lock(mainloop) }
    func unlock() { pa_threaded_mainloop_unlock(mainloop) }
    var selfPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    private func connect(timeout: Double) throws(PlaybackError) {
        guard makeContext() else {
            throw PlaybackError(.audioOutput, source: "PulseAudio", reason: "cannot create a context")
        }
        guard let c = context, pa_context_connect(c, nil, PA_CONTEXT_NOAUTOSPAWN, nil) >= 0 else {
            throw serverError("cannot connect to the sound server")
        }
        lock()
        defer { unlock() }
        guard pa_threaded_mainloop_start(mainloop) >= 0 else {
            throw PlaybackError(.audioOutput, source: "PulseAudio", reason: "cannot start the mainloop thread")
        }
        guard waitForContext(timeout: timeout) else { throw serverError("the sound server does not answer") }
    }

    /// Creates the context with the application's properties (not connected yet).
    func makeContext() -> Bool {
        let proplist = pa_proplist_new()
        defer { pa_proplist_free(proplist) }
        pa_proplist_sets(proplist, PA_PROP_APPLICATION_NAME, applicationName)
        pa_proplist_sets(proplist, PA_PROP_APPLICATION_ID, "org.playhead.Playhead")
        guard let c = pa_context_new_with_proplist(pa_threaded_mainloop_get_api(mainloop), applicationName, proplist)
        else { return false }
        context = c
        pa_context_set_state_callback(c, PulseCallbacks.contextState, selfPointer)
        return true
    }

    /// Waits (lock held) until the context is ready; false when it fails or `timeout` passes.
    func waitForContext(timeout: Double) -> Bool {
        guard let c = context else { return false }
        let deadline = MonotonicClock.now() + timeout
        while true {
            let s = pa_context_get_state(c)
            if s == PA_CONTEXT_READY { return true }
            if ph_pa_context_is_good(s) == 0 || MonotonicClock.now() > deadline { return false }
            timedWait(0.05)
        }
    }

    func serverError(_ what: String) -> PlaybackError {
        let code = context.map { pa_context_errno($0) } ?? 0
        let text = code != 0 ? String(cString: pa_strerror(code)) : "no server"
        return PlaybackError(.audioOutput, source: "PulseAudio", reason: "\(what) (\(text))", code: code)
    }

    /// Waits on the mainloop condition (lock held) at most `seconds`; a C callback's signal ends it early.
    func timedWait(_ seconds: Double) {
        // pa_threaded_mainloop_wait has no time-out; a timer event signals us instead.
        let api = pa_threaded_mainloop_get_api(mainloop)!
        var tv = timeval()
        pa_timeval_add(pa_gettimeofday(&tv), pa_usec_t(seconds * 1_000_000))
        let timer = api.pointee.time_new(api, &tv, PulseCallbacks.timer, selfPointer)
        pa_threaded_mainloop_wait(mainloop)
        api.pointee.time_free(timer)
    }

    /// Called on the events queue.
    public var eventHandler: (@Sendable (AudioOutputEvent) -> Void)? {
        get { lock(); defer { unlock() }; return handler }
        set { lock(); handler = newValue; unlock() }
    }

    /// Reports `event` to the handler and the audio session, on the events queue. Any thread.
    func post(_ event: AudioOutputEvent) {
        if let h = handler { events.async { h(event) } }
        let session = AudioSession.shared
        session.queue.async { [weak self] in
            if let self { session.output(self, reported: event) }
        }
    }
}
