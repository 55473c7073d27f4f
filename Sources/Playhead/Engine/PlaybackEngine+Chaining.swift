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

    /// Sets (or clears) the engine that plays after this one in the same output. Any thread.
    func chain(_ next: PlaybackEngine?) {
        control.withLock { $0.successor = next }
        wake()
    }

    /// The engine chained after this one, if any. Any thread.
    var successor: PlaybackEngine? { control.withLock { $0.successor } }

    /// Whether the engine owns the output (writes, corks and presents). Any thread.
    var isActive: Bool { control.withLock { $0.active } }

    /// Whether this engine's last sample was followed by its successor's first. Any thread.
    var didHandOff: Bool { control.withLock { $0.handedOff } }

    /// Lets a preloaded engine write, cork and present from now on. Any thread.
    func activate() {
        let corked = control.withLock { c -> Bool? in
            guard !c.active else { return nil }
            c.active = true
            return c.rate == 0 || c.buffering
        }
        if let corked { applyCork(corked) }
        wake()
    }

    /// Takes the output back after the successor that took it over was stopped: this engine owns the output
    /// again and, its own sound being written already, ends. Any thread.
    func revokeHandOff() {
        let corked = control.withLock { c -> Bool? in
            guard c.handedOff else { return nil }
            c.handedOff = false
            return c.rate == 0 || c.buffering
        }
        if let corked { applyCork(corked) }
        wake()
    }

    /// How ready this engine is to follow its predecessor gaplessly.
    var handOffReadiness: HandOffReadiness {
        control.withLock { c in
            if c.failed || c.stopping || !config.decodeAudio { return .unusable }
            if let info, info.audioStream == nil { return .unusable }
            return c.audioPrimed && c.readyPosted ? .ready : .notYet
        }
    }

    /// Audio thread: blocks a preloaded engine's first write until it is activated; false when the engine stops
    /// or a seek supersedes the samples.
    func waitForActivation(generation: Int) -> Bool {
        while true {
            let token = wakeToken()
            let (active, current) = control.withLock { c -> (Bool, Bool) in
                if !c.active { c.audioPrimed = true }
                return (c.active, !c.stopping && c.generation == generation)
            }
            if !current { return false }
            if active { return true }
            // `activate()`, a seek and `stop()` wake us.
            waitForWake(since: token)
        }
    }

    /// Audio thread, at the end of this engine's audio: hands the output to the successor when it is ready before
    /// the output runs dry, then waits until the boundary is heard and reports the end. Returns false when there
    /// is no usable successor (the caller plays out and ends as usual).
    func handOff(_ output: any AudioOutput, generation: Int) -> Bool {
        let slack = Int64(config.format.sampleRate / 50)
        var next: PlaybackEngine?
        while next == nil {
            let token = wakeToken()
            guard let candidate = successor, !isStopping, control.withLock({ $0.generation }) == generation else {
                return false
            }
            switch candidate.handOffReadiness {
            case .ready: next = candidate
            case .unusable: return false
            case .notYet:
                // Too late once the output is about to run dry: play out instead.
                let playing = control.withLock { $0.rate != 0 }
                if output.writePosition - output.playPosition < slack, playing { return false }
                // The successor's readiness has no event: look again in 5 ms while the output runs down; paused,
                // nothing runs down until a command wakes us.
                waitForWake(since: token, seconds: playing ? 0.005 : nil)
            }
        }
        let boundary = output.writePosition
        let handed = control.withLock { c -> Bool in
            guard c.generation == generation, !c.stopping else { return false }
            c.handedOff = true
            return true
        }
        guard handed, let next else { return false }
        next.activate()
        // Until the boundary is heard, or the player takes the successor away (its sound is gone then).
        while !isStopping {
            let token = wakeToken()
            let (current, rate) = control.withLock { ($0.generation == generation && $0.handedOff, $0.rate) }
            let left = boundary - output.playPosition
            guard current, left > 0 else { break }
            // Sleep until the boundary is due to be heard (output frames pass in real time at any speed); paused,
            // until a command.
            let due = Double(left) / Double(config.format.sampleRate)
            waitForWake(since: token, seconds: rate > 0 ? max(due, 0.001) : nil)
        }
        guard !isStopping, control.withLock({ $0.generation }) == generation else { return true }
        control.withLock { $0.audioEnded = true }
        checkEnded()
        return true
    }
}
