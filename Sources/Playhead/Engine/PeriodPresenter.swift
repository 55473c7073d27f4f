import Foundation
import PlayheadCore

/// One of a player's presentation threads, one per track type for the player's whole life: `playhead.video` shows
/// the periods' pictures when the clock reaches them, `playhead.text` shows their subtitles. Like the audio
/// renderer's thread, it runs one period's turn at a time (`PlaybackEngine.presentVideoTurn`, `presentTextTurn`);
/// the periods themselves are only their loader and decoders.
///
/// Whose turn it is follows the player's timeline (the playing period and the one queued to follow it, as the
/// playback loop sets them) and the periods' state:
/// - pictures: the playing period's, until its last picture has been shown; then the queued period's, once it is
///   active (its sound took the output over), whose first picture waits until that sound is heard. A seek of the
///   playing period gives the turn back to it.
/// - subtitles: the queued period's once it is active, else the playing period's once it is active.
///
/// A period whose state changes what the choice would be (opened, activated, sought, stopped) says so with
/// `changed()`: the thread, asleep with nothing to present or inside another period's turn, looks again. Nothing
/// polls: with nothing to present the thread sleeps until told.
///
/// Threads: the playback loop calls `play`, `enqueue`, `remove` and `shutDown`; engine threads call `changed`;
/// the turns call `isTurn(of:)`. No call into an engine is made while the presenter's lock is held.
final class PeriodPresenter: @unchecked Sendable {
    /// What the presenter shows.
    enum Kind: Sendable {
        case video
        case text
    }

    private struct State {
        var playing: PlaybackEngine?
        var next: PlaybackEngine?
        /// The period whose turn runs now.
        var current: PlaybackEngine?
        /// Counts `changed()` calls: the idle wait ends when it moves.
        var changes = 0
        var running = false
        var shutDown = false
    }

    let kind: Kind
    private let condition = PriorityInheritingCondition()
    private var state = State()

    /// A presenter of `kind`; its thread starts when a period first has something to present (a player that never
    /// shows a picture or a subtitle has no such thread).
    init(kind: Kind) { self.kind = kind }

    private func withState<T>(_ body: (inout State) -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body(&state)
    }

    /// `period` is the playing period from now on (an item that starts, or a queued one promoted). Playback loop.
    func play(_ period: PlaybackEngine) {
        withState { s in
            if s.next === period { s.next = nil }
            s.playing = period
            s.shutDown = false
        }
        changed()
    }

    /// Queues `period` to follow the playing one (nil: none follows). Playback loop.
    func enqueue(_ period: PlaybackEngine?) {
        withState { $0.next = period }
        changed()
    }

    /// `period` stopped: it gets no turn again (a turn of it that runs ends, as the period stops). Playback loop.
    func remove(_ period: PlaybackEngine) {
        withState { s in
            if s.playing === period { s.playing = nil }
            if s.next === period { s.next = nil }
        }
        changed()
    }

    /// Ends the thread (the player closes or goes away; its periods are stopped). A later `play` starts it again.
    /// Playback loop.
    func shutDown() {
        withState { s in
            s.shutDown = true
            s.playing = nil
            s.next = nil
        }
        changed()
    }

    /// Something that decides whose turn it is changed (a period opened, was activated or sought): the thread looks
    /// again, and the turn that runs ends if it is no longer its period's; the thread starts when a period first
    /// has something to present. Any thread; holds no engine lock.
    func changed() {
        let (current, idle) = withState { s -> (PlaybackEngine?, (PlaybackEngine?, PlaybackEngine?)?) in
            s.changes &+= 1
            return (s.current, s.running || s.shutDown ? nil : (s.playing, s.next))
        }
        condition.broadcast()
        current?.wakeForPresenter()
        guard let (playing, next) = idle, choose(playing: playing, next: next) != nil else { return }
        let start = withState { s -> Bool in
            defer { s.running = s.running || !s.shutDown }
            return !s.running && !s.shutDown
        }
        if start { startThread() }
    }

    /// Whether `period`'s turn goes on. In the turn, on the presenter's thread.
    func isTurn(of period: PlaybackEngine) -> Bool {
        let (playing, next, shutDown) = withState { ($0.playing, $0.next, $0.shutDown) }
        return !shutDown && choose(playing: playing, next: next) === period
    }

    /// Whose turn it is; reads the periods' state, so it is called without the presenter's lock.
    private func choose(playing: PlaybackEngine?, next: PlaybackEngine?) -> PlaybackEngine? {
        switch kind {
        case .video:
            let playingWants = playing?.wantsVideoTurn ?? false
            if let next, !playingWants, next.isActive, next.wantsVideoTurn { return next }
            return playingWants ? playing : nil
        case .text:
            if let next, next.isActive, next.wantsTextTurn { return next }
            if let playing, playing.isActive, playing.wantsTextTurn { return playing }
            return nil
        }
    }

    private func startThread() {
        let name = kind == .video ? "playhead.video" : "playhead.text"
        PlaybackThreads.start(name) { [self] in run() }
    }

    /// The thread: runs the chosen period's turn; with none to run, sleeps until something changes.
    private func run() {
        while true {
            let snapshot = withState { s -> (PlaybackEngine?, PlaybackEngine?, Int)? in
                if s.shutDown {
                    s.running = false
                    return nil
                }
                return (s.playing, s.next, s.changes)
            }
            guard let (playing, next, token) = snapshot else { return }
            if let period = choose(playing: playing, next: next) {
                withState { $0.current = period }
                switch kind {
                case .video: period.presentVideoTurn(self)
                case .text: period.presentTextTurn(self)
                }
                withState { $0.current = nil }
                continue
            }
            condition.lock()
            while state.changes == token && !state.shutDown { condition.wait() }
            condition.unlock()
        }
    }
}
