import Foundation
import PlayheadAudio
import PlayheadCore

/// Gapless hand-off between items: a queue preloads the next item's engine inactive (opened, read ahead, decoders
/// primed, its first samples decoded and waiting), and when this engine's audio ends it activates that engine so
/// the next item's first sample follows this item's last one in the same output stream, with no drain, no reopen
/// and no cork. This engine reports `.ended` when the output's play position reaches the boundary, so the player
/// moves its current item at the exact sample where the sound changes.
extension PlaybackEngine {
    /// Whether a preloaded engine can take over the output right now, from its audio thread's point of view.
    enum HandOffReadiness {
        /// Opened, buffered, and its first samples wait at the output.
        case ready
        /// Still opening or decoding.
        case notYet
        /// Failed, stopped, or without audio: the predecessor must play out and let the player start it.
        case unusable
    }

    /// Whether the engine's period is presented (shows pictures and subtitles; its audio may own the output).
    /// Any thread.
    var isActive: Bool { control.withLock { $0.active } }

    /// Lets a preloaded engine present from now on, applying its cork state to the output it now owns. Called by
    /// the renderer at a hand-off and by the player when it promotes the engine. Any thread.
    func activate() {
        let corked = control.withLock { c -> Bool? in
            guard !c.active else { return nil }
            c.active = true
            return c.rate == 0 || c.buffering
        }
        if let corked { applyCork(corked) }
        wake()
    }

    /// The renderer gave the output back after the period this engine handed it to was stopped: this engine owns
    /// it again and, its own sound being written already, ends (or carries out the seek that caused it). Any
    /// thread.
    func outputReturned() {
        let corked = control.withLock { $0.rate == 0 || $0.buffering }
        applyCork(corked)
        wake()
    }

    /// How ready this engine is to follow its predecessor gaplessly.
    var handOffReadiness: HandOffReadiness {
        let primed = config.audio?.isPrimed(self) ?? false
        return control.withLock { c in
            if c.failed || c.stopping || !config.decodeAudio { return .unusable }
            if let info, info.audioStream == nil { return .unusable }
            return primed && c.readyPosted ? .ready : .notYet
        }
    }

    /// Audio thread: blocks a preloaded engine's first write until it is activated; false when the engine stops
    /// or a seek supersedes the samples.
    func waitForActivation(generation: Int) -> Bool {
        while true {
            let token = wakeToken()
            let current = control.withLock { !$0.stopping && $0.generation == generation }
            if !current { return false }
            if ownsOutput { return true }
            // Waiting for our turn: the playing period, waiting at its end, may take us now.
            config.audio?.notePrimed(self)
            // The renderer's hand-off (through `activate()`), the player's promotion, a seek and `stop()` wake us.
            waitForWake(since: token)
        }
    }

    /// Audio thread, at the end of this engine's audio: hands the output to the successor when it is ready before
    /// the output runs dry, then waits until the boundary is heard and reports the end. Returns false when there
    /// is no usable successor (the caller plays out and ends as usual).
    func handOff(_ output: any AudioOutput, generation: Int) -> Bool {
        guard let renderer = config.audio else { return false }
        let rate = config.format.sampleRate
        let slack = Int64(rate / 50)
        var next: PlaybackEngine?
        while next == nil {
            let token = wakeToken()
            guard let candidate = renderer.next, !isStopping, control.withLock({ $0.generation }) == generation else {
                return false
            }
            switch candidate.handOffReadiness {
            case .ready: next = candidate
            case .unusable: return false
            case .notYet:
                // Too late once the output is about to run dry: play out instead.
                let playing = control.withLock { $0.rate != 0 }
                let left = output.writePosition - output.playPosition
                if playing && left < slack { return false }
                // The candidate's readiness (primed, ready, failed, stopped) and the player's queue edits wake
                // us; otherwise sleep until the output is about to run dry (it runs down in real time at any
                // speed). Paused, nothing runs down until a command wakes us.
                waitForWake(since: token, seconds: playing ? max(Double(left - slack) / Double(rate), 0.001) : nil)
            }
        }
        guard let next, control.withLock({ $0.generation == generation && !$0.stopping }),
            let boundary = renderer.handOff(from: self, to: next)
        else { return false }
        // Until the boundary is heard, or the player takes the successor away (the output comes back to us then).
        while !isStopping {
            let token = wakeToken()
            let (current, playing) = control.withLock { ($0.generation == generation, $0.rate != 0) }
            let left = boundary - output.playPosition
            guard current, renderer.handedOver(from: self), left > 0 else { break }
            // Sleep until the boundary is due to be heard (output frames pass in real time at any speed); paused,
            // until a command.
            let due = Double(left) / Double(rate)
            waitForWake(since: token, seconds: playing ? max(due, 0.001) : nil)
        }
        guard !isStopping, control.withLock({ $0.generation }) == generation else { return true }
        control.withLock { $0.audioEnded = true }
        checkEnded()
        return true
    }
}
