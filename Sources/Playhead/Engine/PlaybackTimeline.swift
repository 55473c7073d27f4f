/// A player's timeline of periods, as its playback loop keeps it: the period that plays, the one queued to follow it
/// gaplessly, and the rate and volume both get. A pure state machine: `apply` takes a command the player sent and
/// returns what must be done to the periods and the audio renderer, in order, touching nothing itself. The loop
/// (`PlaybackLoop`) carries the effects out on its own thread; tests drive this alone.
///
/// `Period` is the engine type in the player (`PlaybackEngine`) and any class in tests. Value type: owned by the
/// loop's thread.
struct PlaybackTimeline<Period: AnyObject> {
    /// What the player asks, in the order it asks (sent from the main actor).
    enum Command {
        /// `period` plays from now on, started at `seconds` (nil: its item's own start); the period that played
        /// stops (a queued one stays: the player discards it first when it no longer follows).
        case begin(Period, at: Double?)
        /// `period` opens, reads ahead and waits to follow the playing period in the same stream; a period queued
        /// before stops.
        case preload(Period, at: Double?)
        /// The queued period stops (its item is no longer next).
        case discardNext
        /// The queued period becomes the playing one (it took the output over at the join, or the player moves
        /// on); the period that played stops.
        case promote
        /// The playing period stops and nothing plays (no item, or the item is being replaced).
        case stopPlaying
        /// Both periods play at `rate` (0 pauses).
        case setRate(Double)
        /// Both periods' sound at `volume` (0...1), muted or not.
        case setVolume(Float, muted: Bool)
        /// The playing period seeks; `id` names the seek in its events.
        case seek(to: Double, exact: Bool, id: Int)
        /// Everything stops and the player's sound closes; the loop's thread ends once this is carried out.
        case close
    }

    /// What the loop does, in this order.
    enum Effect {
        /// The audio renderer gives the output to `period` (the playing period).
        case play(Period)
        /// The audio renderer queues `period` to follow the playing one.
        case enqueue(Period)
        /// `period` opens its input and starts its threads at `at` (nil: its item's start).
        case start(Period, at: Double?)
        /// A queued period that became the playing one presents from now on.
        case activate(Period)
        case setRate(Period, Double)
        case setVolume(Period, Float, muted: Bool)
        case seek(Period, to: Double, exact: Bool, id: Int)
        /// `period` stops (its threads end on their own; it leaves the audio renderer).
        case stop(Period)
        /// The audio renderer's thread ends and the output closes.
        case closeOutput
    }

    private(set) var playing: Period?
    private(set) var next: Period?
    private(set) var rate: Double = 0
    private(set) var volume: Float = 1
    private(set) var muted = false
    /// Closed: every period stopped, the output closed. A period begun after this opens the player's sound again.
    private(set) var closed = false

    /// The periods that run (have not been stopped).
    var periods: [Period] { [playing, next].compactMap { $0 } }

    /// Takes `command` and returns what to do, in order.
    mutating func apply(_ command: Command) -> [Effect] {
        switch command {
        case .begin(let period, let at):
            closed = false
            var effects: [Effect] = playing.map { [.stop($0)] } ?? []
            playing = period
            effects += [.play(period), .setVolume(period, volume, muted: muted), .start(period, at: at)]
            effects.append(.setRate(period, rate))
            return effects
        case .preload(let period, let at):
            var effects: [Effect] = next.map { [.stop($0)] } ?? []
            next = period
            effects += [.setVolume(period, volume, muted: muted), .start(period, at: at), .setRate(period, rate)]
            effects.append(.enqueue(period))
            return effects
        case .discardNext:
            guard let n = next else { return [] }
            next = nil
            return [.stop(n)]
        case .promote:
            guard let n = next else { return [] }
            var effects: [Effect] = playing.map { [.stop($0)] } ?? []
            (playing, next) = (n, nil)
            effects += [.play(n), .activate(n)]
            return effects
        case .stopPlaying:
            guard let p = playing else { return [] }
            playing = nil
            return [.stop(p)]
        case .setRate(let r):
            rate = r
            return periods.map { .setRate($0, r) }
        case .setVolume(let v, let m):
            (volume, muted) = (v, m)
            return periods.map { .setVolume($0, v, muted: m) }
        case .seek(let seconds, let exact, let id):
            return playing.map { [.seek($0, to: seconds, exact: exact, id: id)] } ?? []
        case .close:
            guard !closed else { return [] }
            closed = true
            return stopAll() + [.closeOutput]
        }
    }

    /// Stops both periods, the queued one first (it never plays after the playing one stops).
    private mutating func stopAll() -> [Effect] {
        let stopped = [next, playing].compactMap { $0 }
        (playing, next) = (nil, nil)
        return stopped.map { .stop($0) }
    }
}
