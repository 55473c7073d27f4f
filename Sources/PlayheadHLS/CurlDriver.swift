import CCurl
import Foundation
import PlayheadCore
import Synchronization

/// One libcurl multi handle and the thread that drives it, behind one `SegmentLoader`: connections (and cookies
/// and DNS answers) are kept between its transfers, and every transfer's callbacks run on that thread.
///
/// The thread sleeps in `curl_multi_poll` until a socket is ready, a timer of libcurl's or the next idle time-out
/// is due, or `curl_multi_wakeup` brings a command (`start`, `cancel`, `shutdown`, from any thread): an idle loader
/// wakes nobody. It ends at `shutdown` (the loader's `deinit`), failing what is still under way as cancelled.
final class CurlDriver: @unchecked Sendable {
    private struct Commands {
        var starts: [Transfer] = []
        var cancels: [Transfer] = []
        var stopped = false
    }

    /// Seconds without a byte (the connection included) after which a transfer fails.
    let idleTimeout: Double
    private let multi: UnsafeMutableRawPointer
    private let share: UnsafeMutableRawPointer?
    private let commands = Mutex(Commands())
    /// The transfers under way by easy handle; the driver thread's alone.
    private var active: [UnsafeMutableRawPointer: Transfer] = [:]

    private static let initialized: Bool = playhead_curl_global_init() == CURLE_OK

    /// A driver and its thread; nil when libcurl cannot be set up (no memory, or its TLS library failed).
    init?(idleTimeout: Double) {
        guard Self.initialized, let multi = curl_multi_init() else { return nil }
        self.idleTimeout = idleTimeout
        self.multi = multi
        share = curl_share_init()
        if let share {
            _ = playhead_curl_share_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue))
            _ = playhead_curl_share_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
        }
        PlaybackThreads.start("playhead.http") { [self] in run() }
    }

    deinit {
        curl_multi_cleanup(multi)
        if let share { curl_share_cleanup(share) }
    }

    /// Sends `transfer`'s request; its completion runs on the driver thread (at once there when it was cancelled
    /// before it started). Any thread.
    func start(_ transfer: Transfer) {
        commands.withLock { $0.starts.append(transfer) }
        curl_multi_wakeup(multi)
    }

    /// Ends `transfer` as cancelled, unless it ended already. Any thread.
    func cancel(_ transfer: Transfer) {
        transfer.cancelRequested.withLock { $0 = true }
        commands.withLock { $0.cancels.append(transfer) }
        curl_multi_wakeup(multi)
    }

    /// Ends the thread: what is under way fails as cancelled. Any thread; the driver's owner calls it once.
    func shutdown() {
        commands.withLock { $0.stopped = true }
        curl_multi_wakeup(multi)
    }

    private func run() {
        while true {
            let taken = commands.withLock { c in
                defer { c = Commands(stopped: c.stopped) }
                return c
            }
            for transfer in taken.starts { begin(transfer) }
            for transfer in taken.cancels { end(transfer, .failure(.cancelled)) }
            if taken.stopped { break }
            var running: Int32 = 0
            curl_multi_perform(multi, &running)
            collectFinished()
            expireIdle()
            curl_multi_poll(multi, nil, 0, nextWait(), nil)
        }
        for transfer in active.values { end(transfer, .failure(.cancelled)) }
    }

    private func begin(_ transfer: Transfer) {
        guard !transfer.cancelRequested.withLock({ $0 }) else {
            transfer.complete(.failure(.cancelled))
            return
        }
        guard let easy = curl_easy_init() else {
            transfer.complete(.failure(.transport("out of memory")))
            return
        }
        transfer.configure(easy, share: share, connectTimeout: idleTimeout)
        guard curl_multi_add_handle(multi, easy) == CURLM_OK else {
            curl_easy_cleanup(easy)
            transfer.complete(.failure(.transport("the HTTP client could not start the request")))
            return
        }
        transfer.easy = easy
        transfer.begun(at: monotonicSeconds())
        active[easy] = transfer
    }

    /// Ends `transfer` with `outcome` if it is still under way: its handle is let go, its completion called.
    private func end(_ transfer: Transfer, _ outcome: Result<SegmentLoadResult, SegmentLoadError>) {
        guard let easy = transfer.easy, active.removeValue(forKey: easy) != nil else { return }
        curl_multi_remove_handle(multi, easy)
        transfer.easy = nil
        curl_easy_cleanup(easy)
        transfer.complete(outcome)
    }

    private func collectFinished() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            var code = CURLE_OK
            guard let easy = playhead_curl_done(message, &code), let transfer = active[easy] else { continue }
            end(transfer, transfer.outcome(of: code, idleTimeout: idleTimeout))
        }
    }

    private func expireIdle() {
        let now = monotonicSeconds()
        for transfer in active.values where now - transfer.lastActivity > idleTimeout {
            end(transfer, .failure(.timedOut(after: idleTimeout)))
        }
    }

    /// Milliseconds until libcurl's next timer or the next idle time-out, whichever comes first (a day when there
    /// is neither: a command wakes the thread).
    private func nextWait() -> Int32 {
        var wait = 86_400_000
        var curlWait = -1
        if curl_multi_timeout(multi, &curlWait) == CURLM_OK, curlWait >= 0 { wait = min(wait, curlWait) }
        let now = monotonicSeconds()
        for transfer in active.values {
            let due = transfer.lastActivity + idleTimeout - now
            wait = min(wait, max(Int((due * 1000).rounded(.up)) + 1, 0))
        }
        return Int32(wait)
    }
}
