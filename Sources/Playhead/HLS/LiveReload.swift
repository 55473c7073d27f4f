import Foundation
import PlayheadCore
import PlayheadHLS

/// One reload of a live media playlist running beside the segment downloads, on a fetcher of its own, so the
/// request's wait overlaps a segment's instead of adding to it. (hls.js and Media3 reload on a timer beside loading;
/// FFmpeg's HLS demuxer, and so mpv, reload in series before a segment, which on a link that answers after a second
/// costs a second of every segment's time.)
///
/// Threads: made and read on the owning `HLSSource`'s demux thread; the request runs on a global queue and ends
/// with its fetcher's request (an idle time-out, or the source's cancellation, which the fetcher's `stopping` polls).
/// When it ends it signals `wakeup`, the semaphore a demux thread waiting for it sleeps on.
final class LiveReload: @unchecked Sendable {
    /// What the reload brought: the playlist or the error, and the response's `Retry-After` in seconds.
    struct Outcome: Sendable {
        var result: Result<MediaPlaylist, PlaybackError>
        var retryAfter: Double?
    }

    /// The playlist's URL when the reload started: what it brings is dropped if the source has moved to another
    /// variant's playlist since.
    let url: URL
    /// When the request was made, on `MonotonicClock` (the reload schedule counts from it).
    let started: Double
    private let outcome = Locked<Outcome?>(nil)
    private let done = DispatchSemaphore(value: 0)

    /// Starts loading `url` with `fetch` (which nothing else uses meanwhile); `wakeup` is signalled when it ends.
    init(url: URL, fetch: HTTPFetch, wakeup: DispatchSemaphore) {
        self.url = url
        started = MonotonicClock.now()
        DispatchQueue.global().async { [outcome, done] in
            let result = Result { () throws(PlaybackError) in try HLSSource.mediaPlaylist(url, fetch) }
            outcome.withLock { $0 = Outcome(result: result, retryAfter: fetch.lastRetryAfter) }
            done.signal()
            wakeup.signal()
        }
    }

    /// What the reload brought, nil while it runs. Any thread.
    var result: Outcome? { outcome.current }

    /// Blocks the calling thread until the reload has ended (bounded by its fetcher's time limits and
    /// cancellation), and returns what it brought.
    func waitForResult() -> Outcome {
        done.wait()
        done.signal()
        let cancelled = PlaybackError(.network, source: url.absoluteString, reason: "cancelled")
        return outcome.current ?? Outcome(result: .failure(cancelled), retryAfter: nil)
    }
}
