import Foundation
import PlayheadAudio

/// A player's link with `AudioSession.shared`. Main actor (a stored property of `Player`).
struct AudioSessionLink {
    var token: UUID?
    /// The rate to resume at when the interruption ends; nil when no resumption is due (the player was not
    /// playing when interrupted, or the user changed the rate since).
    var resumeRate: Float?
    /// True while the player itself applies a session-driven rate change (not a user action).
    var applying = false
    /// `Player.resumesAfterInterruption`.
    var resumesAfterInterruption = true
    /// `Player.pausesWhenOutputDeviceGoesAway`.
    var pausesWhenOutputDeviceGoesAway = true
    /// `Player.resumesAfterInterruptionWithoutAdvice`.
    var resumesAfterInterruptionWithoutAdvice = false
}

extension Player {
    /// Starts following the audio session's events (once per player). Main actor.
    func attachAudioSession() {
        guard audioSessionLink.token == nil else { return }
        audioSessionLink.token = AudioSession.shared.addObserver(Self.audioSessionHandler(for: self))
        resources.setAudioSessionObserver(audioSessionLink.token)
    }

    /// Stops following the audio session (the app's `resumesAfterInterruption` choice is kept). Main actor.
    func detachAudioSession() {
        if let token = audioSessionLink.token { AudioSession.shared.removeObserver(token) }
        audioSessionLink = AudioSessionLink(
            resumesAfterInterruption: audioSessionLink.resumesAfterInterruption,
            pausesWhenOutputDeviceGoesAway: audioSessionLink.pausesWhenOutputDeviceGoesAway,
            resumesAfterInterruptionWithoutAdvice: audioSessionLink.resumesAfterInterruptionWithoutAdvice)
        resources.setAudioSessionObserver(nil)
        isInterruptedByAudioSession = false
        sendEngineRate()
        updateTimeControlStatus()
    }

    /// Whether the player resumes by itself when an interruption (a call) ends with `.shouldResume`, having been
    /// playing when it began, with nobody changing its rate meanwhile. True by default. AVPlayer leaves resumption
    /// to the app: set false to decide yourself from `AudioSession.interruptionNotification` (or `events()`); the
    /// player then stays paused after every interruption. An interruption that ends without `.shouldResume` does
    /// not resume it unless `resumesAfterInterruptionWithoutAdvice`. Main actor.
    public var resumesAfterInterruption: Bool {
        get { audioSessionLink.resumesAfterInterruption }
        set { audioSessionLink.resumesAfterInterruption = newValue }
    }

    /// Whether the player pauses when the device it plays on goes away (`.oldDeviceUnavailable`: headphones
    /// unplugged, the sink removed), as Apple's guidelines ask, so the sound does not go on through the speakers
    /// unasked. True by default. Set false where nobody could resume a pause (a program with no controls, no
    /// terminal and no remote commands, where the pause would never end): the sound then plays on on the device
    /// the server moved the stream to. Main actor.
    public var pausesWhenOutputDeviceGoesAway: Bool {
        get { audioSessionLink.pausesWhenOutputDeviceGoesAway }
        set { audioSessionLink.pausesWhenOutputDeviceGoesAway = newValue }
    }

    /// Whether the player resumes when an interruption ends without `.shouldResume` too (the sound server went away
    /// during the call, and the new one knows nothing of it), as it does with it: having been playing when it
    /// began, with nobody changing its rate meanwhile, and `resumesAfterInterruption` true. False by default, as
    /// Apple's rule asks. Set true where nobody could resume a pause (a program with no controls, no terminal and
    /// no remote commands, where the pause would never end). Linux addition. Main actor.
    public var resumesAfterInterruptionWithoutAdvice: Bool {
        get { audioSessionLink.resumesAfterInterruptionWithoutAdvice }
        set { audioSessionLink.resumesAfterInterruptionWithoutAdvice = newValue }
    }

    /// Built outside the main actor: the session calls it on its own queue, and it hops to the main actor.
    nonisolated static func audioSessionHandler(for player: Player) -> @Sendable (AudioSession.Event) -> Void {
        { [weak player] event in
            Task { @MainActor in player?.handleAudioSession(event) }
        }
    }

    /// Activates `AudioSession.shared` for playback unless it is active, when the player's sound goes to the sound
    /// server: a silent output (null, WAV, none) has nothing to make exclusive or to duck for. The activation runs
    /// on the session's activation queue (it may talk to the server and to other players over D-Bus). Main actor.
    func activateAudioSessionForPlayback() {
        guard soundGoesToServer else { return }
        AudioSession.shared.activateForPlayback()
    }

    /// Whether the player's sound goes to the sound server (not a null, WAV or disabled output, nor an automatic
    /// one that found no server). Main actor.
    var soundGoesToServer: Bool {
        switch audioOutputChoice {
        case .automatic, .pulse: break
        case .custom(let output) where output is PulseAudioOutput: break
        case .custom, .null, .wav, .disabled: return false
        }
        if case .automatic = audioOutputChoice, let output = audioRenderer?.output as? AutomaticAudioOutput,
            output.isSilent
        {
            return false
        }
        return true
    }

    /// On the next turn of the main actor (after the app chose the output), starts connecting the process's shared
    /// sound server connection on a background queue when the player's sound goes to the server, so the first play
    /// finds it ready. Main actor; does not wait.
    func prewarmSoundServerSoon() {
        Task { @MainActor [weak self] in
            guard let self else { return }
            switch self.audioOutputChoice {
            case .automatic, .pulse: PulseAudioOutput.prewarmConnection()
            case .custom(let output) where output is PulseAudioOutput: PulseAudioOutput.prewarmConnection()
            case .custom, .null, .wav, .disabled: break
            }
        }
    }

    /// A rate change by the app or the user: an interruption's pending resumption is cancelled (a user who
    /// paused during a call stays paused). Main actor.
    func audioSessionUserChangedRate() {
        guard !audioSessionLink.applying else { return }
        audioSessionLink.resumeRate = nil
    }

    /// Reacts as a careful iOS app does: pause when an interruption begins; when it ends with `.shouldResume` (or
    /// without it, if `resumesAfterInterruptionWithoutAdvice`), resume only if `resumesAfterInterruption`, the
    /// player was playing and nobody changed the rate meanwhile (a play asked for during the call waits for its
    /// end, then plays, advised or not: the person asked for it); pause
    /// when the device playing goes away (and stay paused on the device the stream moved to) unless
    /// `pausesWhenOutputDeviceGoesAway` is false. Main actor.
    func handleAudioSession(_ event: AudioSession.Event) {
        switch event {
        case .interruption(.began, _):
            // A call interrupts what is heard: a player heard nowhere (null, WAV, disabled output) plays on.
            guard soundGoesToServer else { break }
            isInterruptedByAudioSession = true
            audioSessionLink.resumeRate = storedRate != 0 ? storedRate : nil
            applySessionRate(0)
        case .interruption(.ended, let options):
            isInterruptedByAudioSession = false
            let advised = options.contains(.shouldResume) || resumesAfterInterruptionWithoutAdvice
            if resumesAfterInterruption, advised, let rate = audioSessionLink.resumeRate {
                applySessionRate(rate)
            }
            audioSessionLink.resumeRate = nil
            // A play asked for during the call (the user's, whatever the advice) starts now.
            sendEngineRate()
            updateTimeControlStatus()
        case .routeChange(.oldDeviceUnavailable, _):
            // The process's route changed (a stream's device went away): a player heard nowhere has nothing to
            // pause for, and one told not to pause plays on where the stream went.
            guard soundGoesToServer, pausesWhenOutputDeviceGoesAway else { break }
            audioSessionLink.resumeRate = nil
            applySessionRate(0)
        case .mediaServicesWereLost:
            // Nothing is heard and the clock stands until a server answers: time does not move, as after a stall.
            isWaitingForSoundServer = true
            updateTimeControlStatus()
        case .mediaServicesWereReset:
            isWaitingForSoundServer = false
            updateTimeControlStatus()
        default:
            break
        }
    }

    private func applySessionRate(_ rate: Float) {
        audioSessionLink.applying = true
        applyRate(rate)
        audioSessionLink.applying = false
    }
}
