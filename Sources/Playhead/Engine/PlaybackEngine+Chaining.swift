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
        if control.withLock({ $0.activate() }) != nil { applyCork() }
        wake()
        presentersChanged()
    }

    /// The renderer gave the output back after the period this engine handed it to was stopped: this engine owns
    /// it again and, its own sound being written already, ends (unless a seek is pending: the player asks it
    /// first, and the renderer's thread then carries it out in this period's turn). Any thread.
    func outputReturned() {
        let wasWaiting = control.withLock { c -> Bool in
            defer { c.boundary = nil }
            // A boundary of an earlier generation is stale: a seek came since, and its sound is what plays now.
            return c.boundary.map { $0.generation == c.generation && c.pendingSeek == nil } ?? false
        }
        applyCork()
        if wasWaiting {
            control.withLock { $0.audioEnded = true }
            checkEnded()
        }
        wake()
    }

    /// How ready this engine is to follow its predecessor gaplessly.
    var handOffReadiness: HandOffReadiness {
        let primed = config.audio?.isPrimed(self) ?? false
        // A period whose sound ends before its first packet (a web page saved as `.flac`: FFmpeg finds a FLAC
        // stream of no channels) has nothing to follow with; handed the output, it wrote nothing, and the join's
        // boundary, the output's last frame, was never heard: the queue stood still, the output open.
        if audioQueue.reachedEnd && audioQueue.byteCount == 0 { return .unusable }
        return control.withLock { c in
            if c.failed || c.stopping || !config.decodeAudio { return .unusable }
            if let info, info.audioStream == nil { return .unusable }
            return primed && c.readyPosted ? .ready : .notYet
        }
    }

    /// At the end of this period's audio, in its turn on the renderer's thread: hands the output to the next
    /// period when it is ready before the output runs dry, and reports the end once the boundary is heard
    /// (the player's loop watches it: `joinWait`), while the renderer's thread goes on with the next period. Returns
    /// false when there is no usable next period (the caller plays out and ends as usual).
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
        // The renderer has the player's loop watch the boundary from now on (`joinWait`).
        guard renderer.handOff(from: self, to: next) != nil else {
            control.withLock { $0.boundary = nil }
            return false
        }
        return true
    }

    /// Where this period's join stands after its hand-off, for the player's playback loop, which watches it.
    enum JoinWait: Equatable {
        /// The boundary was heard (this period's end is reported now, so the player changes item at that sample),
        /// or no longer applies (a seek, a stop, the output coming back: `outputReturned` ends the period itself).
        case over
        /// Paused, or the output corked (the next period stalled): nothing is heard until a command or an uncork.
        case paused
        /// The boundary is due in about this many seconds (output frames pass in real time at any speed).
        case due(Double)
    }

    /// Looks once at this period's join (armed by `handOff`), and reports the end when it is over (the boundary
    /// heard, or a seek or stop came since: `takeEnd` decides what, if anything, ends). On the playback loop's
    /// thread, which sleeps until the time this returns (or a command) and looks again.
    func joinWait() -> JoinWait {
        guard let output = config.audioOutput else { return .over }
        let played = output.playPosition
        let corked = config.audio?.isCorked ?? false
        let wait = control.withLock {
            $0.joinWait(played: played, sampleRate: config.format.sampleRate, outputCorked: corked)
        }
        if wait == .over { checkEnded() }
        return wait
    }
}
