import CPulse
import Foundation
import PlayheadCore

/// What the process does with sound and what the sound server tells it, like `AVAudioSession`.
///
/// The category and mode set the `media.role` of every PulseAudio stream the process opens. The session turns
/// what PulseAudio reports into `AVAudioSession`'s events: a cork request (`module-role-cork`, a `phone` stream
/// started) is an interruption, a removed sink or unplugged port is `.oldDeviceUnavailable`, the server dying and
/// coming back is media services lost and reset (the outputs rebuild their streams themselves).
///
/// Threads: every member may be called from any thread (not from a PulseAudio callback). Observers and
/// notifications are delivered on the session's own serial queue, in order.
public final class AudioSession: @unchecked Sendable {
    /// The process's session.
    public static let shared = AudioSession()

    struct WeakOutput {
        weak var output: PulseAudioOutput?
    }

    struct State {
        var category = Category.soloAmbient
        var mode = Mode.default
        var options: CategoryOptions = []
        var categorySet = false
        var active = false
        var preferredOutput: PortDescription?
        var outputs: [ObjectIdentifier: WeakOutput] = [:]
        /// The sink each output plays on, as last reported.
        var sinkOf: [ObjectIdentifier: String] = [:]
        /// Moves the session asked for itself (`setPreferredOutput`): not reported again as `.override`.
        var expectedMoves: [ObjectIdentifier: String] = [:]
        var corked: Set<ObjectIdentifier> = []
        var interrupted = false
        var serverLost = false
        var pausedOthers: [String] = []
        var ducked: [UInt32: pa_cvolume] = [:]
        /// In the order they were added, called in that order (as `NotificationCenter` calls its observers).
        var observers: [(id: UUID, handler: @Sendable (Event) -> Void)] = []
        var others: (any OtherAudioApplications)?
    }

    let state = Locked(State())
    let queue = DispatchQueue(label: "playhead.audiosession")
    private let monitorLock = NSLock()
    /// Held through each activation or deactivation, so two at once (the app's and a player's) do not both pause
    /// the other players.
    let activationLock = NSLock()
    /// Serialises lowering and restoring other streams (activation, deactivation, a stream that appears), so a
    /// stream lowered for an activation that a deactivation has already undone is never left lowered.
    let duckingLock = NSLock()
    /// Where players activate the session when they start playing (`activateForPlayback()`), in order; an app
    /// that activates and deactivates the session off the main actor may use it too, to stay in order with them.
    package let activationQueue = DispatchQueue(label: "playhead.audiosession.activation")
    private var monitorStorage: PulseContextMonitor?

    init() {}

    /// The category (`.soloAmbient` until set).
    public var category: Category { state.withLock { $0.category } }
    /// The mode.
    public var mode: Mode { state.withLock { $0.mode } }
    /// The category options.
    public var categoryOptions: CategoryOptions { state.withLock { $0.options } }
    /// Whether the session is active: `setActive(true)` was called, or a player started playing through the sound
    /// server (`Player.play()` activates the session as AVPlayer does), and `setActive(false)` was not called since.
    public var isActive: Bool { state.withLock { $0.active } }
    /// Whether the sound server is interrupting our streams now (a call).
    public var isInterrupted: Bool { state.withLock { $0.interrupted } }

    /// Who pauses other players on activation (exclusive audio). Nil (the default) pauses nobody;
    /// `PlayheadNowPlaying.MPRISOtherPlayers` pauses other MPRIS players.
    public var otherApplications: (any OtherAudioApplications)? {
        get { state.withLock { $0.others } }
        set { state.withLock { $0.others = newValue } }
    }

    /// Sets the category, mode and options. Throws, like `AVAudioSession`, for combinations it rejects. Changing
    /// them updates the properties of the streams already open (the server shows the new role) and posts
    /// `.routeChange(.categoryChange)`.
    public func setCategory(_ category: Category, mode: Mode = .default, options: CategoryOptions = [])
        throws(SessionError)
    {
        try Self.validate(category, mode, options)
        let (changed, outputs, active) = state.withLock { s -> (Bool, [PulseAudioOutput], Bool) in
            let changed = s.category != category || s.mode != mode || s.options != options
            s.category = category
            s.mode = mode
            s.options = options
            s.categorySet = true
            return (changed, s.outputs.values.compactMap(\.output), s.active)
        }
        guard changed else { return }
        let properties = Self.streamProperties(category: category, mode: mode)
        for o in outputs { o.updateStreamProperties(properties) }
        if active { applyDucking(options.contains(.duckOthers)) }
        if !outputs.isEmpty {
            let route = currentRoute
            queue.async { self.deliver(.routeChange(.categoryChange, previousRoute: route)) }
        }
    }

    /// Whether another process plays sound now (a sink input of another process that is not corked), like
    /// `AVAudioSession.isOtherAudioPlaying`. Asks the server; false without one.
    public var isOtherAudioPlaying: Bool {
        let me = getpid()
        return monitor()?.sinkInputs().contains { $0.processID != me && !$0.corked } ?? false
    }

    /// The sinks our streams play on now; without a stream, the preferred output or the server's default sink.
    public var currentRoute: RouteDescription {
        let (sinkNames, preferred) = state.withLock { s in (Array(Set(s.sinkOf.values)).sorted(), s.preferredOutput) }
        let available = availableOutputs
        if !sinkNames.isEmpty {
            return RouteDescription(
                outputs: sinkNames.map { n in
                    available.first { $0.uid == n } ?? PortDescription(portName: n, portType: .other, uid: n)
                })
        }
        if let preferred { return RouteDescription(outputs: [preferred]) }
        let name = monitor()?.defaultSink
        return RouteDescription(outputs: available.filter { $0.uid == name })
    }

    /// Every sink of the server (Linux's counterpart of the outputs a route picker offers).
    public var availableOutputs: [PortDescription] { monitor()?.sinkList.map(\.port) ?? [] }

    /// The output chosen with `setPreferredOutput`, if any.
    public var preferredOutput: PortDescription? { state.withLock { $0.preferredOutput } }

    /// The available output whose sink is named `name`.
    public func port(named name: String) -> PortDescription? { availableOutputs.first { $0.uid == name } }

    /// Plays every stream of the process on `port` from now on (nil: the server's default sink), moving the
    /// streams already open, like choosing a device in AirPlay's route picker. Throws for an unknown sink.
    public func setPreferredOutput(_ port: PortDescription?) throws(SessionError) {
        guard let m = monitor() else { throw SessionError("no sound server answers (\(Self.serverName))") }
        let target = port?.uid ?? m.defaultSink
        if let port, !m.sinkExists(port.uid) {
            let names = m.sinkList.map(\.name).joined(separator: ", ")
            throw SessionError("no output named '\(port.uid)' (available: \(names))")
        }
        let previous = currentRoute
        let outputs = state.withLock { s -> [PulseAudioOutput] in
            s.preferredOutput = port
            let list = s.outputs.values.compactMap(\.output)
            for o in list {
                if let target { s.expectedMoves[ObjectIdentifier(o)] = target }
            }
            return list
        }
        var moved = false
        for o in outputs {
            o.setTargetDevice(port?.uid)
            if let target, let index = o.sinkInputIndex, m.moveSinkInput(index, to: target) {
                moved = true
                state.withLock { $0.sinkOf[ObjectIdentifier(o)] = target }
            }
        }
        if moved || outputs.isEmpty { queue.async { self.deliver(.routeChange(.override, previousRoute: previous)) } }
    }

    /// The server the session talks to, for messages.
    static var serverName: String { ProcessInfo.processInfo.environment["PULSE_SERVER"] ?? "the default server" }

    /// The session's own connection to the server, made on first use (nil while no server answers).
    func monitor() -> PulseContextMonitor? {
        monitorLock.lock()
        defer { monitorLock.unlock() }
        if let m = monitorStorage { return m }
        let m = try? PulseContextMonitor(timeout: 2) { [weak self] event in
            guard let self else { return }
            self.queue.async { self.handle(event) }
        }
        monitorStorage = m
        return m
    }
}

/// Other applications the session may pause on activation and resume on deactivation (exclusive audio). Its
/// methods are called on the thread calling `setActive` and may block briefly.
public protocol OtherAudioApplications: AnyObject, Sendable {
    /// Pauses the other applications that play now; returns identifiers of those it paused.
    func pausePlayingApplications() -> [String]
    /// Resumes the applications `pausePlayingApplications` paused (those still present).
    func resumeApplications(_ identifiers: [String])
}
