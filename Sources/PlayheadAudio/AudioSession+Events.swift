import CPulse
import Foundation

extension AudioSession {
    /// Calls `handler` on the session's queue for every event from now on, after the observers added before it (in
    /// the order they were added, as `NotificationCenter` does); keep the token to remove it.
    public func addObserver(_ handler: @escaping @Sendable (Event) -> Void) -> UUID {
        let id = UUID()
        state.withLock { $0.observers.append((id, handler)) }
        return id
    }

    /// Stops calling the handler registered as `token`.
    public func removeObserver(_ token: UUID) {
        state.withLock { $0.observers.removeAll { $0.id == token } }
    }

    /// Every event from now on, as an async stream (one per call; ends when the consumer stops).
    public func events() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream<Event>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let token = addObserver { continuation.yield($0) }
        continuation.onTermination = { [weak self] _ in self?.removeObserver(token) }
        return stream
    }

    /// Calls the observers and posts the notification. Session queue.
    func deliver(_ event: Event) {
        let observers = state.withLock { $0.observers.map(\.handler) }
        for o in observers { o(event) }
        let center = NotificationCenter.default
        switch event {
        case .interruption(let type, let options):
            var info: [String: Any] = [Self.interruptionTypeKey: type.rawValue]
            if type == .ended { info[Self.interruptionOptionKey] = options.rawValue }
            center.post(name: Self.interruptionNotification, object: self, userInfo: info)
        case .resumptionRecommendation(let r):
            center.post(
                name: Self.resumptionRecommendationNotification, object: self, userInfo: [Self.resumptionContextKey: r])
        case .routeChange(let reason, let previous):
            center.post(
                name: Self.routeChangeNotification, object: self,
                userInfo: [Self.routeChangeReasonKey: reason.rawValue, Self.routeChangePreviousRouteKey: previous])
        case .mediaServicesWereLost: center.post(name: Self.mediaServicesWereLostNotification, object: self)
        case .mediaServicesWereReset: center.post(name: Self.mediaServicesWereResetNotification, object: self)
        }
    }

    /// An output opened a stream: its events now reach the session. Any thread (not with the output's lock).
    func register(_ output: PulseAudioOutput) {
        let id = ObjectIdentifier(output)
        let device = output.currentDevice
        state.withLock { s in
            s.outputs[id] = WeakOutput(output: output)
            s.sinkOf[id] = device
        }
        queue.async { _ = self.monitor() }
    }

    /// An output's first stream is made (on the session's queue): records the sink it plays on, if the output is
    /// still registered.
    func streamOpened(_ output: PulseAudioOutput) {
        let id = ObjectIdentifier(output)
        let device = output.currentDevice
        state.withLock { s in
            if s.outputs[id] != nil { s.sinkOf[id] = device }
        }
    }

    /// An output closed its stream.
    func unregister(_ output: PulseAudioOutput) {
        let id = ObjectIdentifier(output)
        let endsInterruption = state.withLock { s -> Bool in
            s.outputs[id] = nil
            s.sinkOf[id] = nil
            s.expectedMoves[id] = nil
            let was = s.corked.remove(id) != nil
            return was && s.corked.isEmpty && s.interrupted
        }
        if endsInterruption { queue.async { self.endInterruption(shouldResume: false) } }
    }

    /// What an output reported, on the session's queue.
    func output(_ output: PulseAudioOutput, reported event: AudioOutputEvent) {
        let id = ObjectIdentifier(output)
        switch event {
        case .corkRequested:
            let begin = state.withLock { s -> Bool in
                guard s.outputs[id] != nil, s.options.isDisjoint(with: Self.mixingOptions) else { return false }
                s.corked.insert(id)
                defer { s.interrupted = true }
                return !s.interrupted
            }
            if begin { deliver(.interruption(.began, options: [])) }
        case .uncorkRequested:
            let end = state.withLock { s -> Bool in
                guard s.corked.remove(id) != nil else { return false }
                return s.corked.isEmpty && s.interrupted
            }
            if end { endInterruption(shouldResume: true) }
        case .moved(let device):
            movedOutput(id, to: device)
        case .serverLost:
            serverLost()
        case .serverReset:
            state.withLock { $0.sinkOf[id] = output.currentDevice }
            serverBack()
        case .failed:
            // The stream's sink went away with nowhere to go; the output rebuilds its stream elsewhere.
            let previous = currentRoute
            deliver(.routeChange(.oldDeviceUnavailable, previousRoute: previous))
        case .underflow:
            // The player's business (its writer fell behind), not the session's.
            break
        }
    }

    /// Whether a cork request is an interruption (not under a mixing option). Any thread, including PulseAudio
    /// callbacks (it only reads the state).
    var corkRequestsInterrupt: Bool {
        state.withLock { $0.options.isDisjoint(with: Self.mixingOptions) }
    }

    static let mixingOptions: CategoryOptions = [.mixWithOthers, .duckOthers, .interruptSpokenAudioAndMixWithOthers]

    func endInterruption(shouldResume: Bool) {
        let was = state.withLock { s -> Bool in
            defer {
                s.interrupted = false
                s.corked = []
            }
            return s.interrupted
        }
        guard was else { return }
        deliver(.interruption(.ended, options: shouldResume ? .shouldResume : []))
        deliver(.resumptionRecommendation(shouldResume ? .shouldResume : .shouldNotResume))
    }

    private func movedOutput(_ id: ObjectIdentifier, to device: String) {
        let (old, expected) = state.withLock { s in
            defer { s.expectedMoves[id] = nil }
            return (s.sinkOf[id], s.expectedMoves[id])
        }
        var previous = currentRoute
        if let old { previous.outputs = previous.outputs.filter { $0.uid != device } + [portFor(old)] }
        state.withLock { $0.sinkOf[id] = device }
        if expected == device || old == device { return }
        let gone = old.map { !(monitor()?.sinkExists($0) ?? false) } ?? false
        deliver(.routeChange(gone ? .oldDeviceUnavailable : .override, previousRoute: previous))
    }

    private func portFor(_ name: String) -> PortDescription {
        PortDescription(portName: name, portType: .other, uid: name)
    }

    private func serverLost() {
        let first = state.withLock { s -> Bool in
            defer { s.serverLost = true }
            return !s.serverLost
        }
        guard first else { return }
        deliver(.mediaServicesWereLost)
        // The new server knows nothing of the old cork: the interruption ends, without advice to resume.
        endInterruption(shouldResume: false)
    }

    private func serverBack() {
        let was = state.withLock { s -> Bool in
            defer { s.serverLost = false }
            return s.serverLost
        }
        if was { deliver(.mediaServicesWereReset) }
    }

    /// What the monitor saw, on the session's queue.
    func handle(_ event: MonitorEvent) {
        switch event {
        case .sinkAdded:
            deliver(.routeChange(.newDeviceAvailable, previousRoute: currentRoute))
        case .sinkRemoved:
            break  // our streams report their move (or failure) themselves
        case .sinkChanged(let old, let new):
            let ours = state.withLock { $0.sinkOf.values.contains(new.name) }
            guard ours else { return }
            var previous = currentRoute
            previous.outputs = previous.outputs.map { $0.uid == old.name ? old.port : $0 }
            if old.activePortAvailable && !new.activePortAvailable {
                deliver(.routeChange(.oldDeviceUnavailable, previousRoute: previous))
            } else if old.activePort != new.activePort {
                deliver(.routeChange(.routeConfigurationChange, previousRoute: previous))
            }
        case .sinkInputAdded:
            let ducking = state.withLock { $0.active && $0.options.contains(.duckOthers) }
            if ducking { applyDucking(true) }
        case .serverLost: serverLost()
        case .serverBack:
            state.withLock { $0.ducked = [:] }
            serverBack()
        }
    }

    /// Lowers (on, while the session is active) or restores (off) the volume of every other process's sink input.
    func applyDucking(_ on: Bool) {
        guard let m = monitor() else { return }
        let me = getpid()
        duckingLock.lock()
        defer { duckingLock.unlock() }
        if on {
            // A deactivation since the caller looked has restored everything: nothing is lowered after it.
            guard state.withLock({ $0.active && $0.options.contains(.duckOthers) }) else { return }
            let ducked = state.withLock { $0.ducked }
            for input in m.sinkInputs() where input.processID != me && ducked[input.index] == nil {
                var original = input.volume
                var lowered = pa_cvolume()
                pa_sw_cvolume_multiply_scalar(&lowered, &original, pa_sw_volume_from_linear(Self.duckingFactor))
                m.setVolume(lowered, ofSinkInput: input.index)
                state.withLock { $0.ducked[input.index] = original }
            }
        } else {
            let ducked = state.withLock { s in
                defer { s.ducked = [:] }
                return s.ducked
            }
            let present = Set(m.sinkInputs().map(\.index))
            for (index, volume) in ducked where present.contains(index) { m.setVolume(volume, ofSinkInput: index) }
        }
    }

    /// The amplitude other streams keep while ducked (about -14 dB).
    static let duckingFactor = 0.2
}
