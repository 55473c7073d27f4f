import Foundation
import PlayheadAudio
import PlayheadCore

/// The player's sound, one for the player's whole life: the audio output (the sound server stream, which stays
/// open while items change) and the order in which the items' periods play in it.
///
/// Exactly one period, the *playing* one, writes to the output, corks, flushes and interrupts it. A queue's next
/// period (a preloaded engine) opens, reads ahead and decodes its first samples while it waits; at the playing
/// period's last sample the output passes to it (`handOff`), so its first sample follows in the same stream, and
/// the period that handed over only waits for its boundary to be heard. Who owns the output is decided here and
/// nowhere else: the engines ask (`owns`), the player sets the order (`play`, `enqueue`), a stopped engine
/// leaves (`remove`), and every change wakes the engines it concerns.
///
/// Threads: the player calls from the main actor (or, for `remove`, any thread that stops an engine); engine
/// threads call `owns`, `notePrimed` and `handOff`. One lock guards the state; no call blocks.
final class AudioRenderer: Sendable {
    private struct State {
        /// The period that writes to the output now.
        var playing: PlaybackEngine?
        /// The period queued to follow `playing` in the same stream.
        var next: PlaybackEngine?
        /// `next` has decoded its first samples and waits only for its turn.
        var nextPrimed = false
        /// The period that handed the output to `playing` and waits for its boundary to be heard: if `playing`
        /// is stopped before it is promoted (a seek of the earlier item), the output goes back to it.
        var handedFrom: PlaybackEngine?
    }

    /// The output, started, owned by the player for its whole life.
    let output: any AudioOutput
    private let state = Locked(State())

    /// A renderer for a started output.
    init(output: any AudioOutput) { self.output = output }

    /// Whether `engine` is the period that writes, corks and flushes now. Any thread.
    func owns(_ engine: PlaybackEngine) -> Bool { state.withLock { $0.playing === engine } }

    /// The period queued to follow the playing one. Any thread.
    var next: PlaybackEngine? { state.withLock { $0.next } }

    /// Whether `engine` is the queued period and has decoded its first samples. Any thread.
    func isPrimed(_ engine: PlaybackEngine) -> Bool { state.withLock { $0.next === engine && $0.nextPrimed } }

    /// Whether `engine` handed the output to the playing period and waits for its boundary. Any thread.
    func handedOver(from engine: PlaybackEngine) -> Bool { state.withLock { $0.handedFrom === engine } }

    /// Makes `engine` the playing period (an item that starts, or a queued one promoted after its predecessor
    /// played out); the period that played before must have been stopped. Main actor.
    func play(_ engine: PlaybackEngine) {
        state.withLock { s in
            if s.next === engine {
                s.next = nil
                s.nextPrimed = false
            }
            if s.playing !== engine {
                s.playing = engine
                s.handedFrom = nil
            }
        }
        engine.wake()
    }

    /// Queues `engine` to follow the playing period gaplessly, or clears the queue (nil). Main actor.
    func enqueue(_ engine: PlaybackEngine?) {
        let playing = state.withLock { s -> PlaybackEngine? in
            if s.next !== engine { s.nextPrimed = false }
            s.next = engine
            return s.playing
        }
        playing?.wake()
    }

    /// A stopped engine leaves. When it had taken the output over from a period still waiting for its boundary,
    /// the output goes back to that period, which ends at once (its own sound was written already). Any thread.
    func remove(_ engine: PlaybackEngine) {
        let restored = state.withLock { s -> PlaybackEngine? in
            if s.next === engine {
                s.next = nil
                s.nextPrimed = false
            }
            if s.handedFrom === engine { s.handedFrom = nil }
            guard s.playing === engine else { return nil }
            s.playing = s.handedFrom
            s.handedFrom = nil
            return s.playing
        }
        restored?.outputReturned()
    }

    /// The queued period's audio thread has its first samples ready: the playing period, which may be waiting at
    /// its end, looks again. Engine audio thread.
    func notePrimed(_ engine: PlaybackEngine) {
        let playing = state.withLock { s -> PlaybackEngine? in
            guard s.next === engine, !s.nextPrimed else { return nil }
            s.nextPrimed = true
            return s.playing
        }
        playing?.wake()
    }

    /// Something about the queued period `engine` changed (ready, failed, stopping): the playing period, which
    /// may be waiting at its end for it, looks again. Any engine thread.
    func nextChanged(_ engine: PlaybackEngine) {
        let playing = state.withLock { s in s.next === engine ? s.playing : nil }
        playing?.wake()
    }

    /// Passes the output from `engine` (playing, at the end of its audio) to the queued period `next`; returns the
    /// output frame where `next`'s first sample plays, or nil when the order changed meanwhile. Audio thread of
    /// `engine`, the only writer, so the write position is the boundary.
    func handOff(from engine: PlaybackEngine, to next: PlaybackEngine) -> Int64? {
        let boundary = state.withLock { s -> Int64? in
            guard s.playing === engine, s.next === next else { return nil }
            s.playing = next
            s.next = nil
            s.nextPrimed = false
            s.handedFrom = engine
            return output.writePosition
        }
        if boundary != nil { next.activate() }
        return boundary
    }
}
