import Dispatch
import Foundation
import PlayheadCore

/// A thread-safe view of the current engine's clock, so time observers on any queue read the same time the
/// player reports. Safe from any thread.
final class ClockSource: @unchecked Sendable {
    private let state = Locked((engine: PlaybackEngine?.none, frozen: 0.0))

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

    var time: MediaTime { MediaTime(seconds: seconds, preferredTimescale: 1_000_000) }
}

/// An opaque token for `Player.removeTimeObserver(_:)`. Safe anywhere.
public struct TimeObserverToken: Hashable, Sendable {
    let id: Int
}

/// The player's periodic and boundary time observers. Main actor: the timers live on the queues the observers
/// gave and only read the `ClockSource`.
@MainActor
final class TimeObserverHub {
    private final class Periodic: @unchecked Sendable {
        let interval: Double
        let queue: DispatchQueue
        let block: @Sendable (MediaTime) -> Void
        var timer: DispatchSourceTimer?
        init(interval: Double, queue: DispatchQueue, block: @escaping @Sendable (MediaTime) -> Void) {
            self.interval = interval
            self.queue = queue
            self.block = block
        }
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
    }

    private var periodic: [Int: Periodic] = [:]
    private var boundary: [Int: Boundary] = [:]
    private var nextID = 1
    private var playing = false
    private var rate: Float = 1

    func addPeriodic(interval: Double, queue: DispatchQueue, block: @escaping @Sendable (MediaTime) -> Void, clock: ClockSource)
        -> TimeObserverToken
    {
        let id = nextID
        nextID += 1
        let p = Periodic(interval: max(interval, 0.001), queue: queue, block: block)
        periodic[id] = p
        if playing { startTimer(p, clock: clock) }
        return TimeObserverToken(id: id)
    }

    func addBoundary(times: [Double], queue: DispatchQueue, block: @escaping @Sendable () -> Void, clock: ClockSource)
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
        periodic.removeValue(forKey: token.id)?.timer?.cancel()
        boundary.removeValue(forKey: token.id)?.timer?.cancel()
    }

    func statusChanged(playing now: Bool, player: Player) {
        guard now != playing else { return }
        playing = now
        let clock = player.clockSource
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
        for p in periodic.values { startTimer(p, clock: player.clockSource) }
    }

    func timeJumped(player: Player) {
        let clock = player.clockSource
        for p in periodic.values { fire(p, clock: clock) }
        for b in boundary.values { b.last.withLock { $0 = clock.seconds } }
    }

    private func fire(_ p: Periodic, clock: ClockSource) {
        let block = p.block
        p.queue.async { block(clock.time) }
    }

    private func startTimer(_ p: Periodic, clock: ClockSource) {
        p.timer?.cancel()
        let t = DispatchSource.makeTimerSource(queue: p.queue)
        let period = p.interval / Double(max(rate, 0.01))
        t.schedule(deadline: .now() + period, repeating: period, leeway: .milliseconds(2))
        let block = p.block
        t.setEventHandler { block(clock.time) }
        t.resume()
        p.timer = t
    }

    private func startTimer(_ b: Boundary, clock: ClockSource) {
        b.timer?.cancel()
        let t = DispatchSource.makeTimerSource(queue: b.queue)
        t.schedule(deadline: .now() + 0.01, repeating: 0.01, leeway: .milliseconds(1))
        let block = b.block
        let times = b.times
        let last = b.last
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
        b.timer = t
    }
}

extension Player {
    /// Calls `block` on `queue` every `interval` of media time while playing, and when playback starts, stops or
    /// jumps, like `AVPlayer.addPeriodicTimeObserver`. The block runs on `queue`; from the main queue use
    /// `MainActor.assumeIsolated` to touch the player.
    public func addPeriodicTimeObserver(
        forInterval interval: MediaTime, queue: DispatchQueue? = nil, using block: @escaping @Sendable (MediaTime) -> Void
    ) -> TimeObserverToken {
        observers.addPeriodic(interval: interval.seconds, queue: queue ?? .main, block: block, clock: clockSource)
    }

    /// Calls `block` on `queue` when normal playback crosses any of `times`, like `AVPlayer.addBoundaryTimeObserver`.
    public func addBoundaryTimeObserver(
        forTimes times: [MediaTime], queue: DispatchQueue? = nil, using block: @escaping @Sendable () -> Void
    ) -> TimeObserverToken {
        observers.addBoundary(times: times.map(\.seconds), queue: queue ?? .main, block: block, clock: clockSource)
    }

    /// Removes a periodic or boundary observer.
    public func removeTimeObserver(_ token: TimeObserverToken) { observers.remove(token) }
}
