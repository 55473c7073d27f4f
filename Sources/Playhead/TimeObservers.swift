import Dispatch
import Foundation
import PlayheadCore

/// The player's clock as seen from any thread, like `AVPlayerItem.timebase` (a read-only `CMTimebase`): video
/// outputs, time observers and windows read the same time `Player.currentTime()` reports, without hopping to the
/// main actor. Safe from any thread.
public final class Timebase: @unchecked Sendable {
    private let state = Locked((engine: PlaybackEngine?.none, frozen: 0.0, rate: 0.0))

    var engine: PlaybackEngine? {
        get { state.withLock { $0.engine } }
        set { state.withLock { $0.engine = newValue } }
    }

    var frozen: Double {
        get { state.withLock { $0.frozen } }
        set { state.withLock { $0.frozen = newValue } }
    }

    var seconds: Double {
        let (engine, frozen) = state.withLock { ($0.engine, $0.frozen) }
        return engine?.currentSeconds ?? frozen
    }

    /// The current time of the player's current item (the time heard now when there is audio).
    public var time: MediaTime { MediaTime(seconds: seconds, preferredTimescale: 1_000_000) }

    /// How fast `time` moves now, like `CMTimebaseGetRate`: the player's rate while it plays, 0 while it is paused
    /// or waits (for data, for the sound server).
    public internal(set) var rate: Double {
        get { state.withLock { $0.rate } }
        set { state.withLock { $0.rate = newValue } }
    }
}

/// An opaque token for `Player.removeTimeObserver(_:)`. Safe anywhere.
public struct TimeObserverToken: Hashable, Sendable {
    let id: Int
}

/// The player's periodic and boundary time observers. Main actor: the timers live on the queues the observers
/// gave and only read the `Timebase`.
@MainActor
final class TimeObserverHub {
    private final class Periodic: @unchecked Sendable {
        let interval: Double
        let queue: DispatchQueue
        let block: @Sendable (MediaTime) -> Void
        var timer: DispatchSourceTimer?
        /// Set by `remove`: a call already queued on `queue` (a start or stop of playback) is not made.
        let removed = Locked(false)
        init(interval: Double, queue: DispatchQueue, block: @escaping @Sendable (MediaTime) -> Void) {
            self.interval = interval
            self.queue = queue
            self.block = block
        }
        // A resumed dispatch source keeps itself alive until cancelled: the observer ends with its player.
        deinit { timer?.cancel() }
    }

    private final class Boundary: @unchecked Sendable {
        let times: [Double]
        let queue: DispatchQueue
        let block: @Sendable () -> Void
        var timer: DispatchSourceTimer?
        let last = Locked(Double.nan)
        init(times: [Double], queue: DispatchQueue, block: @escaping @Sendable () -> Void) {
            self.times = times.sorted()
            self.queue = queue
            self.block = block
        }
        deinit { timer?.cancel() }
    }

    private var periodic: [Int: Periodic] = [:]
    private var boundary: [Int: Boundary] = [:]
    private var nextID = 1
    private var playing = false
    private var rate: Float = 1

    func addPeriodic(
        interval: Double, queue: DispatchQueue, block: @escaping @Sendable (MediaTime) -> Void, clock: Timebase
    )
        -> TimeObserverToken
    {
        let id = nextID
        nextID += 1
        let p = Periodic(interval: max(interval, 0.001), queue: queue, block: block)
        periodic[id] = p
        if playing { startTimer(p, clock: clock) }
        return TimeObserverToken(id: id)
    }

    func addBoundary(times: [Double], queue: DispatchQueue, block: @escaping @Sendable () -> Void, clock: Timebase)
        -> TimeObserverToken
    {
        let id = nextID
        nextID += 1
        let b = Boundary(times: times, queue: queue, block: block)
        boundary[id] = b
        if playing { startTimer(b, clock: clock) }
        return TimeObserverToken(id: id)
    }

    func remove(_ token: TimeObserverToken) {
        if let p = periodic.removeValue(forKey: token.id) {
            p.removed.withLock { $0 = true }
            p.timer?.cancel()
        }
        boundary.removeValue(forKey: token.id)?.timer?.cancel()
    }

    func statusChanged(playing now: Bool, player: Player) {
        guard now != playing else { return }
        playing = now
        let clock = player.timebase
        for p in periodic.values {
            fire(p, clock: clock)
            if now { startTimer(p, clock: clock) } else { p.timer?.cancel(); p.timer = nil }
        }
        for b in boundary.values {
            b.last.withLock { $0 = clock.seconds }
            if now { startTimer(b, clock: clock) } else { b.timer?.cancel(); b.timer = nil }
        }
    }

    func rateChanged(_ rate: Float, player: Player) {
        guard rate > 0, rate != self.rate else { return }
        self.rate = rate
        guard playing else { return }
        for p in periodic.values { startTimer(p, clock: player.timebase) }
    }

    func timeJumped(player: Player) {
        let clock = player.timebase
        for p in periodic.values { fire(p, clock: clock) }
        for b in boundary.values { b.last.withLock { $0 = clock.seconds } }
    }

    private func fire(_ p: Periodic, clock: Timebase) {
        Self.fire(p.block, on: p.queue, clock: clock, unless: p.removed)
    }

    private func startTimer(_ p: Periodic, clock: Timebase) {
        p.timer?.cancel()
        p.timer = Self.periodicTimer(
            queue: p.queue, period: p.interval / Double(max(rate, 0.01)), block: p.block, clock: clock)
    }

    private func startTimer(_ b: Boundary, clock: Timebase) {
        b.timer?.cancel()
        b.timer = Self.boundaryTimer(queue: b.queue, times: b.times, last: b.last, block: b.block, clock: clock)
    }

    // The handlers are made in nonisolated functions: a closure formed on the main actor would be main-actor
    // isolated and trap when its queue is another one.
    private nonisolated static func fire(
        _ block: @escaping @Sendable (MediaTime) -> Void, on queue: DispatchQueue, clock: Timebase,
        unless removed: Locked<Bool>
    ) {
        queue.async { if !removed.current { block(clock.time) } }
    }

    private nonisolated static func periodicTimer(
        queue: DispatchQueue, period: Double, block: @escaping @Sendable (MediaTime) -> Void, clock: Timebase
    ) -> DispatchSourceTimer {
        let t = DispatchSource.makeTimerSource(queue: queue)
        t.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(2))
        t.setEventHandler { block(clock.time) }
        t.resume()
        return t
    }

    private nonisolated static func boundaryTimer(
        queue: DispatchQueue, times: [Double], last: Locked<Double>, block: @escaping @Sendable () -> Void,
        clock: Timebase
    ) -> DispatchSourceTimer {
        let t = DispatchSource.makeTimerSource(queue: queue)
        t.schedule(deadline: .now() + 0.01, repeating: 0.01, leeway: .milliseconds(1))
        t.setEventHandler {
            let now = clock.seconds
            let previous = last.withLock { old -> Double in
                defer { old = now }
                return old
            }
            guard !previous.isNaN, now > previous else { return }
            if times.contains(where: { $0 > previous && $0 <= now }) { block() }
        }
        t.resume()
        return t
    }
}

extension Player {
    /// Calls `block` on `queue` every `interval` of media time while playing, and when playback starts, stops or
    /// jumps, like `AVPlayer.addPeriodicTimeObserver`. The block runs on `queue`; from the main queue use
    /// `MainActor.assumeIsolated` to touch the player.
    public func addPeriodicTimeObserver(
        forInterval interval: MediaTime, queue: DispatchQueue? = nil,
        using block: @escaping @Sendable (MediaTime) -> Void
    ) -> TimeObserverToken {
        observers.addPeriodic(interval: interval.seconds, queue: queue ?? .main, block: block, clock: timebase)
    }

    /// Calls `block` on `queue` when normal playback crosses any of `times`, like `AVPlayer.addBoundaryTimeObserver`.
    public func addBoundaryTimeObserver(
        forTimes times: [MediaTime], queue: DispatchQueue? = nil, using block: @escaping @Sendable () -> Void
    ) -> TimeObserverToken {
        observers.addBoundary(times: times.map(\.seconds), queue: queue ?? .main, block: block, clock: timebase)
    }

    /// Removes a periodic or boundary observer.
    public func removeTimeObserver(_ token: TimeObserverToken) { observers.remove(token) }
}
