import CFFmpeg
import Foundation
import PlayheadCore

/// An internet radio whose connection fails mid-stream (the server restarts, the network drops or stalls past the
/// time-out) is opened again and plays on, as a radio player does: the new connection is a part of the input like
/// a chained source's, its streams mapped onto the first connection's and its time stamps going on from where the
/// last one ended. A server that closes the connection cleanly ends the stream (a body of no announced length
/// ends that way). On the reading thread.
extension MediaInput {
    /// How long a radio is tried again after its connection failed, in all: three network time-outs.
    var radioRetrySeconds: Double { max(openOptions.timeout, 1) * 3 }

    /// Whether the input's HTTP server answered with ICY headers (`icy-name`, `icy-metaint`): an internet radio.
    var sendsICYHeaders: Bool {
        guard bridge == nil, let pb = context?.pointee.pb else { return false }
        var headers: UnsafeMutablePointer<UInt8>?
        guard av_opt_get(pb, "icy_metadata_headers", AV_OPT_SEARCH_CHILDREN, &headers) >= 0, let headers else {
            return false
        }
        defer { av_free(headers) }
        return headers.pointee != 0
    }

    /// Opens the radio again after its connection failed, waiting 0.5, 1, 2, 4... s between attempts, for up to
    /// `radioRetrySeconds`. A connection that fails within 30 s of the last reopening waits on from where those
    /// waits had come to (up to 8 s): a server that drops every connection at once is not asked again and again.
    /// False when it could not be had again in that time, or the input was interrupted (a stop): the failure
    /// stands.
    func reconnectRadio() -> Bool {
        guard let c = context else { return false }
        if chain == nil { chain = ChainState(firstPart: c) }
        let deadline = MonotonicClock.now() + radioRetrySeconds
        var delay = MonotonicClock.now() - radioRetry.last < 30 ? radioRetry.delay : 0
        closeContext()
        while waitUnlessInterrupted(delay), MonotonicClock.now() < deadline {
            if (try? open(url: name, options: openOptions, readingInfo: false)) != nil, mapCurrentPart() {
                timeline.restart()
                radioRetry = (MonotonicClock.now(), min(max(delay * 2, 0.5), 8))
                return true
            }
            closeContext()
            delay = min(max(delay * 2, 0.5), 8)
        }
        return false
    }

    /// Waits `seconds`, in steps of a tenth, unless the input is interrupted first; false when it was.
    private func waitUnlessInterrupted(_ seconds: Double) -> Bool {
        let end = MonotonicClock.now() + seconds
        while MonotonicClock.now() < end {
            if interruptFlag.isInterrupted { return false }
            Thread.sleep(forTimeInterval: min(0.1, max(end - MonotonicClock.now(), 0)))
        }
        return !interruptFlag.isInterrupted
    }
}
