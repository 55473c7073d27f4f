import CPulse
import Foundation
import PlayheadCore

/// Plays audio through PulseAudio (or PipeWire's PulseAudio server) with the asynchronous API on a
/// `pa_threaded_mainloop`. The stream carries `media.role` and the application name, starts corked, and reports
/// the server's latency-corrected position (`pa_stream_get_time`) as `playPosition`.
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
    var corked = true
    var interrupted = false
    var handler: (@Sendable (AudioOutputEvent) -> Void)?
    let events = DispatchQueue(label: "playhead.pulse.events")

    /// "pulse".
    public let name = "pulse"
    /// The application name the server shows.
    public let applicationName: String
    /// The stream's `media.role` ("music", "video", "phone", "game", "event"...).
    public let role: String
    /// The sink to play on, or nil for the server's default.
    public let device: String?
    /// The buffered latency asked of the server, in seconds.
    public let targetLatency: Double

    /// Connects to the sound server (at `PULSE_SERVER` or the default), failing within `timeout` seconds when it
    /// does not answer. The stream itself is created by `start(format:)`.
    public init(
        applicationName: String = "Playhead", role: String = "music", device: String? = nil,
        targetLatency: Double = 0.1, timeout: Double = 3
    ) throws(PlaybackError) {
        self.applicationName = applicationName
        self.role = role
        self.device = device
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
        let proplist = pa_proplist_new()
        defer { pa_proplist_free(proplist) }
        pa_proplist_sets(proplist, PA_PROP_APPLICATION_NAME, applicationName)
        pa_proplist_sets(proplist, PA_PROP_APPLICATION_ID, "org.playhead.Playhead")
        guard let c = pa_context_new_with_proplist(pa_threaded_mainloop_get_api(mainloop), applicationName, proplist)
        else {
            throw PlaybackError(.audioOutput, source: "PulseAudio", reason: "cannot create a context")
        }
        context = c
        pa_context_set_state_callback(c, PulseCallbacks.contextState, selfPointer)
        if pa_context_connect(c, nil, PA_CONTEXT_NOAUTOSPAWN, nil) < 0 {
            throw serverError("cannot connect to the sound server")
        }
        lock()
        defer { unlock() }
        guard pa_threaded_mainloop_start(mainloop) >= 0 else {
            throw PlaybackError(.audioOutput, source: "PulseAudio", reason: "cannot start the mainloop thread")
        }
        let deadline = MonotonicClock.now() + timeout
        while true {
            let s = pa_context_get_state(c)
            if s == PA_CONTEXT_READY { break }
            if ph_pa_context_is_good(s) == 0 || MonotonicClock.now() > deadline {
                throw serverError("the sound server does not answer")
            }
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

    func post(_ event: AudioOutputEvent) {
        guard let h = handler else { return }
        events.async { h(event) }
    }
}
