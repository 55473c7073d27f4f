import Foundation

extension AudioSession {
    /// Activates or deactivates the session. Activation needs a category set first (`setCategory`) and a sound
    /// server; a non-mixable category pauses the other players `otherApplications` finds playing, and
    /// `.duckOthers` lowers other streams. Deactivation restores ducked streams and, with
    /// `.notifyOthersOnDeactivation`, resumes exactly the players activation paused. Activating an active session
    /// does nothing. Any thread; it may block while it asks the server and the other players, so call it off the
    /// main actor when that matters.
    public func setActive(_ active: Bool, options: SetActiveOptions = []) throws(SessionError) {
        activationLock.lock()
        defer { activationLock.unlock() }
        if active {
            guard state.withLock({ $0.categorySet }) else {
                throw SessionError(
                    "setActive(true) before setCategory(_:mode:options:): choose a category first")
            }
            try activate()
        } else {
            deactivate(notifyingOthers: options.contains(.notifyOthersOnDeactivation))
        }
    }

    /// Activates the session for a player that starts playing through the sound server, unless it is active, as
    /// AVPlayer activates the app's session when it plays: with the current category (`.soloAmbient`, the
    /// default, when the app chose none), pausing the other players or ducking them as `setActive(true)` does.
    /// Returns at once: the activation runs on `activationQueue`, and a failure (no sound server) is ignored, the
    /// player plays on. Any thread.
    package func activateForPlayback() {
        guard !isActive else { return }
        activationQueue.async {
            self.activationLock.lock()
            defer { self.activationLock.unlock() }
            try? self.activate()
        }
    }

    /// Activates with the current category; nothing when active already. Holds `activationLock`.
    private func activate() throws(SessionError) {
        if state.withLock({ $0.active }) { return }
        guard monitor() != nil else {
            throw SessionError("setActive(true): no sound server answers (\(Self.serverName))")
        }
        let (category, opts, others) = state.withLock { s in
            s.active = true
            return (s.category, s.options, s.others)
        }
        let mixes = category.mixesByDefault || !opts.isDisjoint(with: [.mixWithOthers, .duckOthers])
        if !mixes, let others {
            let paused = others.pausePlayingApplications()
            state.withLock { $0.pausedOthers = paused }
        }
        if opts.contains(.duckOthers) { applyDucking(true) }
    }

    /// Deactivates: ducked streams are restored, and the players activation paused resumed when `notifyingOthers`.
    /// Holds `activationLock`.
    private func deactivate(notifyingOthers: Bool) {
        let (wasActive, paused, others) = state.withLock { s in
            defer {
                s.active = false
                s.pausedOthers = []
            }
            return (s.active, s.pausedOthers, s.others)
        }
        guard wasActive else { return }
        applyDucking(false)
        if notifyingOthers, !paused.isEmpty { others?.resumeApplications(paused) }
    }
}
