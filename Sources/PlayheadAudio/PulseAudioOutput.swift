import CPulse
import Foundation
import PlayheadCore

/// Plays audio through PulseAudio (or PipeWire's PulseAudio server) with the asynchronous API, on the process's
/// one shared connection (`PulseConnection`: one `pa_threaded_mainloop` and context for every output and the audio
/// session). Making an output never waits for the server, nor does `requestStream(format:)`: the stream is made on
/// a queue when the connection is ready, and writes wait for it. The stream carries the `media.role` of
/// `AudioSession.shared`'s category (or the role given) and the application name, starts corked, and reports the
/// server's latency-corrected position as `playPosition`. When the server goes away the shared connection
/// reconnects and the output rebuilds its stream on it by itself, keeping its timeline (positions continue, and do
/// not run while disconnected) and its corked state.
///
/// Threads: PulseAudio's own mainloop thread runs the C callbacks, which only record and signal. `write` runs on
/// the player's audio thread; every other member may be called from any thread except a PulseAudio callback.
public final class PulseAudioOutput: AudioOutput, PulseConnectionClient, @unchecked Sendable {
    /// The process's connection, whose mainloop lock guards every variable below.
    let connection = PulseConnection.shared
    var mainloop: OpaquePointer { connection.mainloop }
    var context: OpaquePointer? { connection.context }
    var stream: OpaquePointer?
    var format = AudioFormat()
    var written: Int64 = 0
    /// The last position reported as heard (positions never go backwards).
    var heard: Int64 = 0
    /// Where the current stream's frame 0 is on the output's timeline (non-zero after a rebuild).
    var timelineBase: Int64 = 0
    /// The last frames written (`replayCapacity`), to play again on a rebuilt stream what the lost one had not.
    var replay = ReplayRing()
    /// The next frame of `replay` a rebuilt stream still has to get before the writer's new frames (up to
    /// `written`), or nil.
    var replayFrom: Int64?
    var corked = true
    /// When `setPaused` last changed the cork (the system clock, as timing information is stamped): timing older
    /// than this is not extrapolated.
    var corkChangedAt = timeval()
    var interrupted = false
    /// The question `corkForInterruption` asks the server once its cork landed (is the stream still muted?), until
    /// answered; cancelled when the stream goes (its callback holds no reference to the output).
    var muteQuery: OpaquePointer?
    /// True while the stream is being made: opened by `start` and not ready yet, or rebuilt after a loss.
    var reconnecting = false
    /// True while the stream `start` asked for is made for the first time (its failure is `openFailure`).
    var opening = false
    /// Why the stream `start` asked for could not be made (no server, no such device); writes then throw it.
    var openError: PlaybackError?
    var closed = false
    /// Whether `start` opened a stream that `stop` has not closed (a rebuild recreates it).
    var wantsStream = false
    /// Counts `start` and `stop` calls, so a stream built for an earlier `start` is not kept.
    var streamGeneration = 0
    var storedRole: String
    /// The sink new streams go to: `device`, or the session's preferred output.
    var targetDevice: String?
    var handler: (@Sendable (AudioOutputEvent) -> Void)?
    let events = DispatchQueue(label: "playhead.pulse.events")
    /// How long the first connection may take before the stream fails.
    let connectTimeout: Double

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
    /// How many seconds of written sound `replay` keeps: more than the server may hold unplayed.
    var replayCapacity: Double { max(1, 3 * targetLatency) }

    /// Makes the output at once, without waiting for the sound server (at `PULSE_SERVER` or the default): the
    /// process's shared connection is made on a background queue if it is not already, and `start(format:)` opens
    /// the stream when it is ready. When no server answers within `timeout` seconds, the stream fails: writes throw
    /// the error (see `openFailure`). Without `role`, the stream's role follows `AudioSession.shared`'s category
    /// and mode; without `device`, its preferred output. Any thread; it does not block. Never throws today (the
    /// signature is kept for callers).
    /// `targetLatency` is 0.3 s by default: at 0.1 s a build running beside the player left its threads waiting for
    /// the CPU longer than the buffer lasted, and the stream ran dry (`docs/architecture.md`, "Real time under
    /// load").
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
        connectTimeout = timeout
        connection.add(self)
        connection.prewarm()
    }

    deinit {
        stop()
        lock()
        closed = true
        unlock()
        connection.remove(id: ObjectIdentifier(self))
    }

    /// Starts connecting the process's shared sound server connection on a background queue, unless it is ready or
    /// connecting, so the first stream is made sooner; returns at once. Any thread.
    public static func prewarmConnection() { PulseConnection.shared.prewarm() }

    func lock() { connection.lock() }
    func unlock() { connection.unlock() }
    var selfPointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    func serverError(_ what: String) -> PlaybackError {
        let code = connection.errnoLocked
        let text = code != 0 ? String(cString: pa_strerror(code)) : "no server"
        return PlaybackError(.audioOutput, source: "PulseAudio", reason: "\(what) (\(text))", code: code)
    }

    /// Waits on the mainloop condition (lock held) at most `seconds`; a C callback's signal ends it early.
    func timedWait(_ seconds: Double) { connection.timedWait(seconds) }

    /// Why the stream `start(format:)` asked for could not be made (no sound server answers, or the device asked
    /// for cannot play), or nil while it is being made, plays, or after `stop()`. Any thread.
    public var openFailure: PlaybackError? {
        lock()
        defer { unlock() }
        return openError
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
