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
        if let corked = control.withLock({ $0.activate() }) { applyCork(corked) }
        wake()
        presentersChanged()
    }

    /// The renderer gave the output back after the period this engine handed it to was stopped: this engine owns
    /// it again and, its own sound being written already, ends (unless a seek is pending: the player asks it
    /// first, and the renderer's thread then carries it out in this period's turn). Any thread.
    func outputReturned() {
        let (corked, wasWaiting) = control.withLock { c -> (Bool, Bool) in
            defer { c.boundary = nil }
            // A boundary of an earlier generation is stale: a seek came since, and its sound is what plays now.
            let waiting = c.boundary.map { $0.generation == c.generation && c.pendingSeek == nil } ?? false
            return (c.corked, waiting)
        }
        applyCork(corked)
        if wasWaiting {
            control.withLock { $0.audioEnded = true }
            checkEnded()
        }
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

    /// At the end of this period's audio, in its turn on the renderer's thread: hands the output to the next
    /// period when it is ready before the output runs dry, and reports the end once the boundary is heard
    /// (`watchBoundary`), while the renderer's thread goes on with the next period. Returns false when there is no usable
    /// next period (the caller plays out and ends as usual).
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
                // The candidate's readiness (decoder attached, ready, failed, stopping) and the player's queue
                // edits wake us; otherwise sleep until the output is about to run dry (it runs down in real time at
                // any speed). Paused, nothing runs down until a command wakes us.
                waitForWake(since: token, seconds: playing ? max(Double(left - slack) / Double(rate), 0.001) : nil)
            }
        }
        guard let next, control.withLock({ $0.generation == generation && !$0.stopping }) else { return false }
        // Armed before the hand-off: the output may come back (the next period stopped) at any moment after it.
        control.withLock { $0.boundary = Boundary(frame: output.writePosition, generation: generation) }
        guard renderer.handOff(from: self, to: next) != nil else {
            control.withLock { $0.boundary = nil }
            return false
        }
        spawn("playhead.join") { $0.watchBoundary() }
        return true
    }

    /// A short-lived thread of this engine, from its hand-off until its boundary (the next period's first sample)
    /// is heard: then it reports this period's end, so the player changes item at that sample. It sleeps until the
    /// boundary is due (output frames pass in real time at any speed), paused until a command; a seek, a stop or
    /// the output coming back (`outputReturned`, which ends the period itself) ends it. Scheduled like the writer
    /// (real time where allowed): a join's end is as punctual as its sound.
    func watchBoundary() {
        guard let output = config.audioOutput else { return }
        output.prepareWriterThread()
        let rate = Double(config.format.sampleRate)
        while true {
            let token = wakeToken()
            let played = output.playPosition
            let step = control.withLock { c -> (done: Bool, wait: Double?) in
                guard let b = c.boundary, !c.stopping, b.generation == c.generation else { return (true, nil) }
                if played >= b.frame {
                    c.boundary = nil
                    c.audioEnded = true
                    return (true, nil)
                }
                return (false, c.rate != 0 ? Double(b.frame - played) / rate : nil)
            }
            if step.done { break }
            waitForWake(since: token, seconds: step.wait.map { max($0, 0.001) })
        }
        checkEnded()
    }
}
