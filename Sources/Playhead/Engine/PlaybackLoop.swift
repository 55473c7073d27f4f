import Foundation
import PlayheadAudio
import PlayheadCore

/// A player's playback loop: one thread (`playhead.loop`) that carries out, in the order the player sent them, every
/// command that reaches its periods, its audio renderer or the sound server. The player (main actor) only posts to
/// the mailbox and returns: starting an engine's threads, corking and uncorking the stream, interrupting a write,
/// asking for the stream and closing it all happen here, so the main actor never waits for a thread to start or for
/// the lock of the sound server's connection.
///
/// The loop owns the player's `PlaybackTimeline` (which period plays, which follows, the rate and volume they get)
/// and does what its pure `apply` decides. It also watches the gapless joins: a period that handed the output to
/// the next one (`AudioRenderer.handOff`) reports its end when the next one's first sample is heard, and the loop
/// sleeps until that is due (`PlaybackEngine.joinWait`), at the writer's real-time priority from the first join on
/// (under load a normal thread woke 128 ms late, and the item changed that long after the sound did). It sleeps while
/// the mailbox is empty and no join is due (nothing polls), starts with the first message and ends once a `close`
/// is carried out (a later message starts it again). It holds no reference to the player: a player nobody holds
/// sends `close` from its resources' `deinit`, and the thread ends after it.
///
/// Threads: `send` from any thread (the main actor, a deinit); everything else on the loop's thread.
final class PlaybackLoop: @unchecked Sendable {
    /// What the mailbox carries.
    enum Message {
        /// A command for the timeline.
        case timeline(PlaybackTimeline<PlaybackEngine>.Command)
        /// The player's sound from now on: its renderer's thread starts and, for the sound server, its stream is
        /// asked for (made on the connection's queue, not waited for).
        case openSound(AudioRenderer, requestStream: Bool)
        /// The player's sound as it is goes away (its output was chosen anew): the renderer's thread ends and its
        /// output stops; the periods it played are stopped already. The next `openSound` brings the new one.
        case closeSound
    }

    private let condition = PriorityInheritingCondition()
    /// Guarded by `condition`.
    private var mailbox: [Message] = []
    /// Whether the loop's thread runs; guarded by `condition`.
    private var running = false
    /// Whether the loop holds nothing (no period, no sound): a `close` then has nothing to do and starts no
    /// thread (a player that never played goes away without one). Guarded by `condition`.
    private var holdsNothing = true
    /// Periods that handed the output over since the loop last looked (`watchJoin`). Guarded by `condition`.
    private var handedOver: [PlaybackEngine] = []
    /// The periods whose joins the loop watches: each until its boundary is heard or no longer applies. The loop
    /// thread's own.
    private var joins: [PlaybackEngine] = []
    /// The loop thread's own state.
    private var timeline = PlaybackTimeline<PlaybackEngine>()
    private var renderer: AudioRenderer?
    /// The player's presentation threads (pictures, subtitles), shut down with the player's sound.
    private let presenters: [PeriodPresenter]

    /// A loop for a player whose periods are presented by `presenters`.
    init(presenters: [PeriodPresenter] = []) { self.presenters = presenters }

    /// Posts `message`; returns at once. Any thread.
    func send(_ message: Message) {
        condition.lock()
        if case .timeline(.close) = message, !running, holdsNothing {
            condition.unlock()
            return
        }
        holdsNothing = false
        mailbox.append(message)
        let start = !running
        running = true
        condition.signal()
        condition.unlock()
        if start { PlaybackThreads.start("playhead.loop") { [self] in run() } }
    }

    /// Posts a timeline command. Any thread.
    func send(_ command: PlaybackTimeline<PlaybackEngine>.Command) { send(.timeline(command)) }

    /// The loop's thread: takes messages in order until a `close` has been carried out and nothing more came.
    private func run() {
        while let message = take() {
            switch message {
            case .openSound(let r, let requestStream):
                renderer = r
                r.watchJoins { [weak self] period in self?.watchJoin(of: period) }
                r.start()
                if requestStream, let pulse = r.output as? PulseAudioOutput {
                    pulse.requestStream(format: AudioFormat())
                }
            case .closeSound:
                renderer?.shutDown()
                renderer?.output.stop()
                renderer = nil
            case .timeline(let command):
                for effect in timeline.apply(command) { perform(effect) }
            }
        }
    }

    /// `period` handed the output over (or the output was uncorked while it waits): the loop watches its join from
    /// now on, or looks at it again. The renderer's thread, or the thread that uncorks.
    private func watchJoin(of period: PlaybackEngine) {
        condition.lock()
        defer { condition.unlock() }
        // A loop that ended holds no sound: nothing it started can hand over.
        guard running else { return }
        handedOver.append(period)
        condition.signal()
    }

    /// The next message, sleeping while there is none (until the earliest join is due, if any); nil (and the thread
    /// ends) when the timeline is closed and the mailbox empty.
    private func take() -> Message? {
        while true {
            // Looked at without the loop's lock: a join's check takes the engine's lock and the output's.
            let wait = lookAtJoins()
            condition.lock()
            defer { condition.unlock() }
            if !mailbox.isEmpty { return mailbox.removeFirst() }
            if !handedOver.isEmpty {
                for period in handedOver where !joins.contains(where: { $0 === period }) { joins.append(period) }
                handedOver.removeAll()
                continue
            }
            if timeline.closed || (timeline.periods.isEmpty && renderer == nil) {
                running = false
                holdsNothing = true
                joins.removeAll()
                return nil
            }
            if let wait {
                _ = condition.wait(until: Date(timeIntervalSinceNow: wait))
            } else {
                condition.wait()
            }
        }
    }

    /// Reports the end of each watched period whose boundary was heard, and stops watching those; the seconds until
    /// the next join is due, nil when none is (none watched, or all paused).
    private func lookAtJoins() -> Double? {
        guard !joins.isEmpty else { return nil }
        // Scheduled like the writer (real time where allowed): a join's end is as punctual as its sound.
        renderer?.output.prepareWriterThread()
        var earliest: Double?
        joins.removeAll { period in
            switch period.joinWait() {
            case .over: return true
            case .paused: return false
            case .due(let seconds):
                earliest = min(earliest ?? seconds, seconds)
                return false
            }
        }
        return earliest
    }

    private func perform(_ effect: PlaybackTimeline<PlaybackEngine>.Effect) {
        switch effect {
        case .play(let p):
            renderer?.play(p)
            p.config.videoPresenter?.play(p)
            p.config.textPresenter?.play(p)
        case .enqueue(let p):
            renderer?.enqueue(p)
            p.config.videoPresenter?.enqueue(p)
            p.config.textPresenter?.enqueue(p)
        case .start(let p, let at): p.start(at: at)
        case .activate(let p): p.activate()
        case .setRate(let p, let rate): p.setRate(rate)
        case .setVolume(let p, let volume, let muted): p.setVolume(volume, muted: muted)
        case .seek(let p, let seconds, let exact, let id): p.seek(to: seconds, exact: exact, id: id)
        case .stop(let p):
            p.stop()
            p.config.videoPresenter?.remove(p)
            p.config.textPresenter?.remove(p)
        case .closeOutput:
            renderer?.shutDown()
            renderer?.output.stop()
            renderer = nil
            for presenter in presenters { presenter.shutDown() }
        }
    }
}
