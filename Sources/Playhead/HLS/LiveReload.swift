import Foundation
import PlayheadCore
import PlayheadHLS

/// The reloads of one live media playlist, running beside the segment downloads on a thread and a fetcher of their
/// own, each at the time its schedule (`LiveReloadSchedule`, RFC 8216 6.3.4) says, whatever the demux thread is
/// doing: a segment that takes as long as the target duration does not put the next reload off until it has
/// arrived, so the player learns of each new segment a reload's wait after it is listed, not a segment's time
/// later. (hls.js and Media3 reload on a timer beside loading; FFmpeg's HLS demuxer, and so mpv, reload in series
/// before a segment, which on a link that answers after a second costs a second of every segment's time.)
///
/// The chain keeps a copy of the source's schedule and feeds it the same loads, in the same order, as the source
/// does when it takes them (`takeOutcomes`), so both agree on when the next reload is due. It ends after a load
/// that failed (the source schedules the retry, `HLSSource.reloadFailed`), that found the playlist ended or
/// stalled, or when stopped; it waits while `untakenLimit` loads are untaken (nobody reads them: nothing to
/// reload for).
///
/// Threads: made, stopped and read on the owning `HLSSource`'s demux thread; the loads run on the chain's own
/// thread (`playhead.live-reload`), which sleeps between them, ends with the chain (`stop`, or when the chain is
/// released), and whose request in flight ends with its fetcher's (an idle time-out, or the source's
/// cancellation, which the fetcher's `stopping` polls). Each load, and the chain's end, signal `wakeup`, the
/// semaphore a demux thread waiting for a reload sleeps on.
final class LiveReload: @unchecked Sendable {
    /// What one load brought: the playlist or the error, the response's `Retry-After` in seconds, and when the
    /// request was made, on `MonotonicClock` (the reload schedule counts from it).
    struct Outcome: Sendable {
        var result: Result<MediaPlaylist, PlaybackError>
        var retryAfter: Double? = nil
        var started: Double
    }

    /// Loads made and not yet taken after which the chain waits for a take.
    static let untakenLimit = 2

    /// The playlist the chain reloads: what it brings is dropped if the source has moved to another variant's
    /// playlist since.
    let url: URL
    private let core: Core

    /// Starts reloading `url` with `fetch` (the chain's own: nothing else uses it), first at `firstAt` (on
    /// `MonotonicClock`; at once when past), then as `schedule` (the source's, as it stands) says after each load.
    init(url: URL, fetch: HTTPFetch, schedule: LiveReloadSchedule, firstAt: Double, wakeup: DispatchSemaphore) {
        self.url = url
        let core = Core(wakeup: wakeup)
        self.core = core
        PlaybackThreads.start("playhead.live-reload") {
            core.run(url: url, fetch: fetch, schedule: schedule, firstAt: firstAt)
        }
    }

    deinit { core.stop() }

    /// The loads made since the last take, oldest first; the chain may go on (it waits while too many are
    /// untaken). Demux thread.
    func takeOutcomes() -> [Outcome] { core.take() }

    /// Whether a load waits to be taken, or the chain has ended: something for a waiting demux thread to do.
    var hasNews: Bool { core.state.withLock { !$0.outcomes.isEmpty || $0.finished } }

    /// Whether the chain has ended: no load follows those made.
    var finished: Bool { core.state.withLock { $0.finished } }

    /// Ends the chain: no more loads start (one in flight runs to its end). Any thread.
    func stop() { core.stop() }

    /// Blocks the calling thread until a load waits to be taken or the chain has ended (bounded by the schedule
    /// and its fetcher's time limits).
    func waitForNews() {
        while !hasNews { core.news.wait() }
    }

    /// The chain's state, shared by its thread and its owner (the chain's thread holds this, not the chain, so
    /// releasing the chain stops it).
    private final class Core: @unchecked Sendable {
        struct State {
            var outcomes: [Outcome] = []
            var stopped = false
            var finished = false
        }
        let state = Locked(State())
        /// Wakes the chain's thread early: a stop, or a take that leaves room.
        let sleeper = DispatchSemaphore(value: 0)
        /// Signalled at each load and at the end, for `waitForNews`.
        let news = DispatchSemaphore(value: 0)
        let wakeup: DispatchSemaphore

        init(wakeup: DispatchSemaphore) { self.wakeup = wakeup }

        func stop() {
            state.withLock { $0.stopped = true }
            sleeper.signal()
        }

        func take() -> [Outcome] {
            let taken = state.withLock { s -> [Outcome] in
                defer { s.outcomes.removeAll() }
                return s.outcomes
            }
            if !taken.isEmpty { sleeper.signal() }
            return taken
        }

        /// Sleeps until `deadline` (on `MonotonicClock`) and until fewer than `untakenLimit` loads are untaken;
        /// false when stopped meanwhile.
        func sleep(until deadline: Double, stopping: (@Sendable () -> Bool)?) -> Bool {
            while true {
                let (stopped, full) = state.withLock { ($0.stopped, $0.outcomes.count >= LiveReload.untakenLimit) }
                if stopped || stopping?() == true { return false }
                let left = deadline - MonotonicClock.now()
                if !full && left <= 0 { return true }
                // Woken early by a stop or a take; a signal left from one already seen only goes round again.
                if full { sleeper.wait() } else { _ = sleeper.wait(timeout: .now() + left) }
            }
        }

        func run(url: URL, fetch: HTTPFetch, schedule: LiveReloadSchedule, firstAt: Double) {
            var schedule = schedule
            var at = firstAt
            defer {
                state.withLock { $0.finished = true }
                news.signal()
                wakeup.signal()
            }
            while true {
                guard sleep(until: at, stopping: fetch.stopping) else {
                    // Stopped: a reader still waiting (its engine stops) learns it as a reload would, so it does
                    // not start another chain.
                    let cancelled = PlaybackError(.network, source: url.absoluteString, reason: "cancelled")
                    state.withLock { $0.outcomes.append(Outcome(result: .failure(cancelled), started: at)) }
                    return
                }
                let started = MonotonicClock.now()
                let result = Result { () throws(PlaybackError) in try HLSSource.mediaPlaylist(url, fetch) }
                state.withLock {
                    $0.outcomes.append(Outcome(result: result, retryAfter: fetch.lastRetryAfter, started: started))
                }
                news.signal()
                wakeup.signal()
                guard case .success(let playlist) = result,
                    case .reload(let next) = schedule.loaded(playlist, startedAt: started)
                else { break }
                at = next
            }
        }
    }
}
