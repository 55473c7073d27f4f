import Foundation
import Playhead
import PlayheadNowPlaying

/// `playhead`'s use of the audio session: the `.playback` category, with the `.moviePlayback` mode while the item
/// playing has video (the server shows the stream's role as `video`, else `music`), `--exclusive-audio`,
/// `--audio-device=help`, one-line notices and `--log-json` entries for interruptions, route changes and sound
/// server loss. Main actor.
@MainActor
final class AudioSessionCLI {
    private let options: Options
    private let log: EventLog?
    private let terminal: Terminal
    private let player: Player
    private var token: UUID?
    /// Whether the mode set is `.moviePlayback` (the item playing has video).
    private var movie = false
    /// False once the player is closing (`stopReporting`): what the session says then (the interruption "ends" as
    /// the stream leaves the server) is no event of the playback, and the player's position is gone.
    private var reporting = true
    /// Activation, deactivation and mode changes run here, in order, off the main actor: activating connects to
    /// the sound server (and may pause other players over D-Bus), and a mode change updates the open stream on the
    /// server, which need not hold up playback. The player activates the session on the same queue when it plays,
    /// so the deactivation at the end comes after it.
    private var activation: DispatchQueue { AudioSession.shared.activationQueue }

    init(options: Options, log: EventLog?, terminal: Terminal, player: Player) {
        self.options = options
        self.player = player
        self.log = log
        self.terminal = terminal
    }

    /// Lists the sinks for `--audio-device=help`; returns the exit status.
    static func listDevices() -> Int32 {
        let session = AudioSession.shared
        let outputs = session.availableOutputs
        guard !outputs.isEmpty else {
            printError("no sound server answers (\(ProcessInfo.processInfo.environment["PULSE_SERVER"] ?? "default"))")
            return 1
        }
        let current = session.currentRoute.outputs.first?.uid
        print("Audio devices (--audio-device=NAME):")
        for o in outputs {
            let mark = o.uid == current ? "*" : " "
            print(terminalSafe("\(mark) \(o.uid)  \(o.portName) [\(o.portType.rawValue)]"))
        }
        return 0
    }

    /// Sets the category, follows the session's events and activates it (pausing other players with
    /// `--exclusive-audio`).
    func start() {
        let session = AudioSession.shared
        do {
            try session.setCategory(.playback)
        } catch {
            printError(error.description)
        }
        token = session.addObserver(Self.handler(for: self))
        if options.exclusiveAudio { session.otherApplications = MPRISOtherPlayers() }
        guard !options.noAudio, options.audioOutput == .auto || options.audioOutput == .pulse else { return }
        let loud = options.verbose || options.exclusiveAudio
        activation.async {
            do {
                try session.setActive(true)
            } catch {
                if loud { printError("\(error)") }
            }
        }
    }

    /// Sets the mode for `item`, the item playing: `.moviePlayback` when it has a video track (and `--no-video` is
    /// not given), the default mode otherwise; nothing until its tracks are known, or when the mode is already
    /// right.
    func follow(_ item: PlayerItem?) {
        guard let item, !item.tracks.isEmpty else { return }
        let video = !options.noVideo && item.tracks.contains { $0.mediaType == .video }
        guard video != movie else { return }
        movie = video
        let loud = options.verbose
        activation.async {
            do {
                try AudioSession.shared.setCategory(.playback, mode: video ? .moviePlayback : .default)
            } catch {
                if loud { printError("\(error)") }
            }
        }
    }

    /// Says and logs nothing more: the player is about to close.
    func stopReporting() { reporting = false }

    /// Deactivates the session, resuming the players it paused.
    func finish() {
        if let token { AudioSession.shared.removeObserver(token) }
        activation.sync { try? AudioSession.shared.setActive(false, options: .notifyOthersOnDeactivation) }
    }

    nonisolated static func handler(for cli: AudioSessionCLI) -> @Sendable (AudioSession.Event) -> Void {
        return { [weak cli] event in
            let stamp = MonotonicClock.now() - MonotonicClock.processStart
            Task { @MainActor in cli?.report(event, at: stamp) }
        }
    }

    private func report(_ event: AudioSession.Event, at time: Double) {
        guard reporting else { return }
        var entry: [String: Any] = ["time": (time * 1_000_000).rounded() / 1_000_000]
        entry["position"] = player.currentTime().seconds
        entry["monotonic"] = time + MonotonicClock.processStart  // CLOCK_MONOTONIC seconds, for benchmarks
        var notice: String?
        switch event {
        case .interruption(.began, _):
            entry["event"] = "interruption-began"
            notice = "playback interrupted by the sound server (a call?): paused until it ends"
        case .interruption(.ended, let o):
            entry["event"] = "interruption-ended"
            entry["should-resume"] = o.contains(.shouldResume)
            // Without advice: a play asked for during the call (its rate set, its sound held) goes on anyway.
            if o.contains(.shouldResume) {
                notice = "the interruption ended"
            } else if player.resumesAfterInterruptionWithoutAdvice {
                notice = "the interruption ended: playing on (no terminal, window or MPRIS to resume a pause)"
            } else if player.rate != 0 {
                notice = "the interruption ended: playing (as asked during it)"
            } else {
                notice = "the interruption ended without advice to resume: paused (play to go on)"
            }
        case .routeChange(let reason, _):
            entry["event"] = "route-change"
            entry["reason"] = "\(reason)"
            entry["device"] = AudioSession.shared.currentRoute.outputs.first?.uid ?? ""
            if reason == .oldDeviceUnavailable {
                let device = entry["device"] ?? "the default"
                notice =
                    player.pausesWhenOutputDeviceGoesAway
                    ? "the audio device went away: paused (play resumes on \(device))"
                    : "the audio device went away: playing on \(device) (no terminal, window or MPRIS to resume a pause)"
            }
        case .mediaServicesWereLost:
            entry["event"] = "media-services-lost"
            notice = "the sound server went away: waiting for it"
        case .mediaServicesWereReset:
            entry["event"] = "media-services-reset"
            notice = "the sound server is back"
        case .resumptionRecommendation:
            return
        }
        log?.write(entry)
        guard let notice, !options.reallyQuiet else { return }
        if Terminal.isInteractive { terminal.message(notice) } else { printError(notice) }
    }
}
