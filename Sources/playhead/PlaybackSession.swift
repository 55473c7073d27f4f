import Foundation
import Playhead
import PlayheadNowPlaying

/// Plays the command line's inputs one after another on one `Player`, with the status line, keys and event log.
/// Main actor.
@MainActor
final class PlaybackSession {
    enum Outcome {
        case ended, failed, quit
    }

    let options: Options
    let player = Player()
    let terminal = Terminal()
    var log: EventLog?
    private var quitRequested = false
    /// Wakes the current input's wait loop for a quit or `--end`.
    private var interrupt: AsyncStream<PlayerEvent?>.Continuation?

    init(options: Options) {
        self.options = options
        switch options.audioOutput {
        case _ where options.noAudio: player.audioOutputChoice = .disabled
        case .auto where options.audioDevice != nil, .pulse:
            player.audioOutputChoice = .pulse(device: options.audioDevice)
        case .auto: player.audioOutputChoice = .automatic
        case .null: player.audioOutputChoice = .null(untimed: options.untimed)
        case .wav(let path): player.audioOutputChoice = .wav(path: path)
        }
        if options.untimed, options.audioOutput == .auto { player.audioOutputChoice = .null(untimed: true) }
        player.decodesVideo = !options.noVideo
        player.untimed = options.untimed
        player.volume = Float(options.volume / 100)
        player.isMuted = options.mute
        player.defaultRate = Float(options.speed)
    }

    /// Plays every input; returns the exit status.
    func run() async -> Int32 {
        if let path = options.logJSON {
            log = EventLog(path: path)
            if log == nil { printError("\(path): cannot write the event log") }
        }
        let nowPlaying = options.mpris ? await startNowPlaying() : nil
        defer { nowPlaying?.invalidate() }
        let audioSession = AudioSessionCLI(options: options, log: log, terminal: terminal, player: player)
        audioSession.start()
        defer { audioSession.finish() }
        terminal.start { [weak self] key in self?.handle(key) }
        defer { terminal.restore() }
        var failures = 0
        for input in options.inputs {
            if quitRequested { break }
            switch await play(input) {
            case .failed: failures += 1
            case .quit: quitRequested = true
            case .ended: break
            }
        }
        player.close()
        return failures > 0 ? 1 : 0
    }

    /// Exports the player over MPRIS when a session bus answers; a missing bus is not an error (a notice with -v).
    private func startNowPlaying() async -> NowPlayingSession? {
        let session = NowPlayingSession(players: [player])
        session.automaticallyPublishesNowPlayingInfo = true
        if await session.becomeActiveIfPossible() { return session }
        session.invalidate()
        if options.verbose { printError("no D-Bus session bus: Now Playing and media keys are off") }
        return nil
    }

    private func play(_ input: String) async -> Outcome {
        let url =
            input.contains("://") ? (URL(string: input) ?? URL(fileURLWithPath: input)) : URL(fileURLWithPath: input)
        let item = PlayerItem(url: url)
        if !options.noVideo { item.add(NullVideoOutput()) }
        let (signals, continuation) = AsyncStream<PlayerEvent?>.makeStream()
        interrupt = continuation
        let events = player.events()
        let forward = Task { @MainActor in
            for await e in events { continuation.yield(e) }
        }
        defer {
            forward.cancel()
            interrupt = nil
        }
        player.replaceCurrentItem(with: item)
        if let start = options.start {
            await player.seek(
                to: MediaTime(seconds: start, preferredTimescale: 1000), toleranceBefore: .zero, toleranceAfter: .zero)
        }
        player.play()
        if !options.reallyQuiet && Terminal.isInteractive { terminal.message("Playing: \(input)") }
        var loopsLeft = options.loopFile
        let ticker = Task { @MainActor [weak self] in
            while !Task.isCancelled {
                self?.tick()
                try? await Task.sleep(for: .milliseconds(50))
            }
        }
        defer { ticker.cancel() }
        for await signal in signals {
            guard let event = signal else { break }
            log?.write(event, input: input)
            switch event.kind {
            case .error(let e):
                printError(e.description)
                return .failed
            case .ended:
                if loopsLeft == nil || loopsLeft! > 0 {
                    if let n = loopsLeft { loopsLeft = n - 1 }
                    let start = MediaTime(seconds: options.start ?? 0, preferredTimescale: 1000)
                    await player.seek(to: start, toleranceBefore: .zero, toleranceAfter: .zero)
                    player.play()
                    continue
                }
                return .ended
            default: break
            }
        }
        return quitRequested ? .quit : .ended
    }

    private var stopReached: Bool {
        guard let stop = options.stopTime else { return false }
        return player.currentTime().seconds >= stop
    }

    /// Called every 50 ms: the `--end` check and the status line.
    private func tick() {
        if stopReached {
            interrupt?.yield(nil)
            return
        }
        guard Terminal.isInteractive, !options.reallyQuiet, let item = player.currentItem else { return }
        terminal.status(StatusLine.render(player: player, item: item))
    }

    private func handle(_ key: Terminal.Key) {
        let now = player.currentTime().seconds
        switch key {
        case .char(" "), .char("p"): player.rate == 0 ? player.play() : player.pause()
        case .char("q"), .char("Q"):
            quitRequested = true
            interrupt?.yield(nil)
        case .left: seek(now - 5)
        case .right: seek(now + 5)
        case .up: seek(now + 60)
        case .down: seek(now - 60)
        case .char("["): changeSpeed(by: 1 / 1.1)
        case .char("]"): changeSpeed(by: 1.1)
        case .char("9"): player.volume = max(0, player.volume - 0.05)
        case .char("0"): player.volume = min(1, player.volume + 0.05)
        case .char("m"): player.isMuted.toggle()
        default: break
        }
    }

    private func changeSpeed(by factor: Double) {
        let r = min(4, max(0.25, Double(player.defaultRate) * factor))
        player.defaultRate = Float(r)
        if player.rate != 0 { player.rate = Float(r) }
    }

    private func seek(_ seconds: Double) {
        player.seek(to: MediaTime(seconds: max(0, seconds), preferredTimescale: 1000))
    }
}

/// Prints `playhead: message` on stderr.
func printError(_ message: String) {
    FileHandle.standardError.write(Data("playhead: \(message)\n".utf8))
}
