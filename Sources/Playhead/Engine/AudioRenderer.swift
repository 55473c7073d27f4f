import Foundation
import PlayheadAudio
import PlayheadCore

/// The player's sound, one for the player's whole life: the audio output (the sound server stream, which stays
/// open while items change), the order in which the items' periods play in it, and the one thread that decodes
/// and writes them (`playhead.audio`).
///
/// Exactly one period, the *playing* one, writes to the output, corks, flushes and interrupts it; the renderer's
/// thread runs that period's audio pipeline (`PlaybackEngine.renderAudioTurn`) for as long as it owns the output.
/// A queue's next period (a preloaded engine) opens, reads ahead and attaches its audio decoder while it waits; at
/// the playing period's last sample the output passes to it (`handOff`) and the same thread goes on with the next
/// period's first sample, in the same stream. The period that handed over only waits for its boundary to be
/// heard, which the player's playback loop watches (`watchJoins`). Who owns the output is decided here and nowhere
/// else: the engines ask (`owns`), the player sets the order (`play`, `enqueue`), a stopping engine retires and then
/// leaves (`retire`, `remove`), and every change wakes the engines and the thread it concerns.
///
/// Threads: the player calls from the main actor (or, for `retire` and `remove`, any thread that stops an
/// engine); engine threads call `owns`, `attach` and `handOff`. One lock guards the state, and no call into an
/// engine is made while it is held.
final class AudioRenderer: @unchecked Sendable {
    private struct State {
        /// The period that writes to the output now.
        var playing: PlaybackEngine?
        /// The period queued to follow `playing` in the same stream.
        var next: PlaybackEngine?
        /// The period that handed the output to `playing` and waits for its boundary to be heard: if `playing`
        /// is stopped before it is promoted (a seek of the earlier item), the output goes back to it.
        var handedFrom: PlaybackEngine?
        /// Periods whose audio decoder is attached (their pipeline can run).
        var attached: Set<ObjectIdentifier> = []
        /// Periods that are stopping: never given a turn again.
        var retired: Set<ObjectIdentifier> = []
        /// A playing period stopped: what it wrote is flushed on the renderer's thread before the next turn.
        var flushPending = false
        /// The renderer's thread is flushing now.
        var flushing = false
        /// Whether the playing period wants the output corked; an uncork waits for a pending flush.
        var wantsCorked = true
        var shutDown = false
        /// Told of each hand-off: the player's loop, which watches the join (`PlaybackEngine.joinWait`).
        var joinWatcher: (@Sendable (PlaybackEngine) -> Void)?
    }

    /// The output, started, owned by the player for its whole life.
    let output: any AudioOutput
    private let condition = PriorityInheritingCondition()
    private var state = State()

    /// A renderer for an output (started, or whose stream is being asked for); its thread starts with `start()`.
    init(output: any AudioOutput) {
        self.output = output
    }

    /// Starts the renderer's thread, which ends with `shutDown()`, and passes the output's underflows to the period
    /// that plays. Once, on the player's playback loop.
    func start() {
        // The output starts as the renderer's state says, corked until a period plays: a null output's clock ran
        // from the first write of a paused player until the cork came (a paused player's time read 0.75 ms).
        condition.lock()
        if state.wantsCorked { output.setPaused(true) }
        condition.unlock()
        let earlier = output.eventHandler
        output.eventHandler = { [weak self] event in
            earlier?(event)
            if event == .underflow, let period = self?.withState({ $0.playing }) { period.outputRanDry() }
        }
        PlaybackThreads.start("playhead.audio") { [self] in run() }
    }

    private func withState<T>(_ body: (inout State) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body(&state)
    }

    /// Who watches the joins from now on: `watcher` is told of each period that handed the output over, after the
    /// hand-off, and again when the output is uncorked while it waits. Playback loop, before `start()`.
    func watchJoins(_ watcher: @escaping @Sendable (PlaybackEngine) -> Void) {
        withState { $0.joinWatcher = watcher }
    }

    /// Ends the renderer's thread (the player closes or goes away; its engines are stopped). Any thread.
    func shutDown() {
        withState { s in
            s.shutDown = true
            s.playing = nil
            s.next = nil
            s.handedFrom = nil
        }
        condition.broadcast()
    }

    /// The renderer's thread: runs the playing period's audio while it owns the output and has a decoder; sleeps
    /// while there is none (no item, a video-only item, between items). The output's flush after a stopped period
    /// is made here too, between turns: this thread is the only writer, so nothing of the next period is lost.
    private func run() {
        output.prepareWriterThread()
        while let work = nextWork() {
            switch work {
            case .flush:
                output.flush()
                output.resumeWrites()
                // An uncork asked for meanwhile waited for the flush: none of the stopped period's sound is heard.
                condition.lock()
                state.flushing = false
                if !state.wantsCorked && !state.flushPending { output.setPaused(false) }
                condition.unlock()
            case .turn(let period):
                period.renderAudioTurn()
            }
        }
    }

    private enum Work {
        case flush
        case turn(PlaybackEngine)
    }

    /// What the renderer's thread does next, waiting until there is something; nil once shut down.
    private func nextWork() -> Work? {
        condition.lock()
        defer { condition.unlock() }
        while !state.shutDown {
            if state.flushPending {
                state.flushPending = false
                state.flushing = true
                return .flush
            }
            if let p = state.playing, state.attached.contains(ObjectIdentifier(p)),
                !state.retired.contains(ObjectIdentifier(p))
            {
                return .turn(p)
            }
            condition.wait()
        }
        return nil
    }

    /// Corks (true) or uncorks the output for the playing period, at once; an uncork while a stopped period's sound
    /// waits to be flushed is made after the flush. Any thread; returns at once (the server is not waited for, and
    /// the renderer's lock is held only around sending the request, so requests reach the server in order).
    /// An uncork while a period waits for its join to be heard has the join watcher look again (it sleeps while
    /// the output is corked).
    func setCorked(_ corked: Bool) {
        condition.lock()
        state.wantsCorked = corked
        if corked || !(state.flushPending || state.flushing) { output.setPaused(corked) }
        let (watcher, waiting) = corked ? (nil, nil) : (state.joinWatcher, state.handedFrom)
        condition.unlock()
        if let watcher, let waiting { watcher(waiting) }
    }

    /// Whether the output is corked for the playing period (paused, or stalled): nothing more is heard until it is
    /// uncorked. Any thread.
    var isCorked: Bool { withState { $0.wantsCorked } }

    /// Whether `engine` is the period that writes, corks and flushes now. Any thread.
    func owns(_ engine: PlaybackEngine) -> Bool { withState { $0.playing === engine } }

    /// The period queued to follow the playing one. Any thread.
    var next: PlaybackEngine? { withState { $0.next } }

    /// Whether `engine` is the queued period and its audio decoder is attached. Any thread.
    func isPrimed(_ engine: PlaybackEngine) -> Bool {
        withState { $0.next === engine && $0.attached.contains(ObjectIdentifier(engine)) }
    }

    /// Whether `engine` handed the output to the playing period and waits for its boundary. Any thread.
    func handedOver(from engine: PlaybackEngine) -> Bool { withState { $0.handedFrom === engine } }

    /// Makes `engine` the playing period (an item that starts, or a queued one promoted after its predecessor
    /// played out); the period that played before must have been stopped. Main actor.
    func play(_ engine: PlaybackEngine) {
        withState { s in
            if s.next === engine { s.next = nil }
            if s.playing !== engine {
                s.playing = engine
                s.handedFrom = nil
            }
        }
        condition.broadcast()
        engine.wake()
    }

    /// Queues `engine` to follow the playing period gaplessly, or clears the queue (nil). Main actor.
    func enqueue(_ engine: PlaybackEngine?) {
        let playing = withState { s -> PlaybackEngine? in
            s.next = engine
            return s.playing
        }
        playing?.wake()
    }

    /// `engine`'s audio decoder is open: its pipeline can run when it plays, and, queued, it can follow the
    /// playing period now (which may be waiting at its end for it). Engine demux thread.
    func attach(_ engine: PlaybackEngine) {
        let playing = withState { s -> PlaybackEngine? in
            s.attached.insert(ObjectIdentifier(engine))
            return s.next === engine ? s.playing : nil
        }
        condition.broadcast()
        playing?.wake()
    }

    /// `engine` is stopping: it gets no turn from now on, and the playing period, which may be waiting at its end
    /// for it, looks again. `flushingOutput`: it was the playing period, and what it wrote is dropped before the
    /// next turn. Any thread; returns at once.
    func retire(_ engine: PlaybackEngine, flushingOutput: Bool) {
        let playing = withState { s -> PlaybackEngine? in
            s.retired.insert(ObjectIdentifier(engine))
            if flushingOutput {
                // Its sound stops now (the cork is sent, not waited for) and stays stopped until the flush.
                s.flushPending = true
                s.wantsCorked = true
                output.setPaused(true)
            }
            return s.next === engine ? s.playing : nil
        }
        if flushingOutput { condition.broadcast() }
        playing?.wake()
    }

    /// A stopped engine leaves (after it let go of the output). When it had taken the output over from a period
    /// still waiting for its boundary, the output goes back to that period, which ends at once (its own sound was
    /// written already) or carries out the seek that caused this. Any thread.
    func remove(_ engine: PlaybackEngine) {
        let id = ObjectIdentifier(engine)
        let restored = withState { s -> PlaybackEngine? in
            s.attached.remove(id)
            s.retired.remove(id)
            if s.next === engine { s.next = nil }
            if s.handedFrom === engine { s.handedFrom = nil }
            guard s.playing === engine else { return nil }
            s.playing = s.handedFrom
            s.handedFrom = nil
            return s.playing
        }
        condition.broadcast()
        restored?.outputReturned()
    }

    /// Something about the queued period `engine` changed (ready, failed): the playing period, which may be
    /// waiting at its end for it, looks again. Any engine thread.
    func nextChanged(_ engine: PlaybackEngine) {
        let playing = withState { s in s.next === engine ? s.playing : nil }
        playing?.wake()
    }

    /// Passes the output from `engine` (playing, at the end of its audio) to the queued period `next`; returns the
    /// output frame where `next`'s first sample plays, or nil when the order changed meanwhile. On the renderer's
    /// thread, in `engine`'s turn: it is the only writer, so the write position is the boundary, and the thread
    /// goes on with `next` once `engine`'s turn returns. The join watcher then watches `engine`'s boundary.
    func handOff(from engine: PlaybackEngine, to next: PlaybackEngine) -> Int64? {
        let (boundary, watcher) = withState { s -> (Int64?, (@Sendable (PlaybackEngine) -> Void)?) in
            guard s.playing === engine, s.next === next else { return (nil, nil) }
            s.playing = next
            s.next = nil
            s.handedFrom = engine
            return (output.writePosition, s.joinWatcher)
        }
        guard boundary != nil else { return nil }
        next.activate()
        watcher?(engine)
        return boundary
    }
}
