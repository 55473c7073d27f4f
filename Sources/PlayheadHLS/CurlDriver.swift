import CCurl
import Foundation
import PlayheadCore
import Synchronization

/// One libcurl multi handle and the thread that drives it, behind one `SegmentLoader`: connections (and cookies
/// and DNS answers) are kept between its transfers, and every transfer's callbacks run on that thread.
///
/// The thread runs only while a transfer is under way: the first `start` begins it and it ends once nothing is
/// left (connections stay open in the multi handle meanwhile). While it runs it sleeps in `curl_multi_poll` until a
/// socket is ready, a timer of libcurl's or the next idle time-out is due, or `curl_multi_wakeup` brings a command
/// (`start`, `cancel`, `shutdown`, from any thread). So an idle loader has no thread, whoever still holds it, and
/// a program's exit never waits for one (`PlaybackThreads` counts it while it runs).
final class CurlDriver: @unchecked Sendable {
    private struct Commands {
        var starts: [Transfer] = []
        var cancels: [Transfer] = []
        var stopped = false
        /// Every transfer under way is to end as cancelled (`cancelAll`); later starts go on.
        var cancelAll = false
        /// Whether the thread runs (set by the `start` that begins it, cleared by the thread as it ends).
        var running = false
    }

    /// Seconds without a byte (the connection included) after which a transfer fails.
    let idleTimeout: Double
    private let multi: UnsafeMutableRawPointer
    private let share: UnsafeMutableRawPointer?
    private let commands = Mutex(Commands())
    /// The transfers under way by easy handle; the driver thread's alone.
    private var active: [UnsafeMutableRawPointer: Transfer] = [:]

    private static let initialized: Bool = playhead_curl_global_init() == CURLE_OK

    /// A driver (no thread yet); nil when libcurl cannot be set up (no memory, or its TLS library failed).
    init?(idleTimeout: Double) {
        guard Self.initialized, let multi = curl_multi_init() else { return nil }
        self.idleTimeout = idleTimeout
        self.multi = multi
        share = curl_share_init()
        if let share {
            _ = playhead_curl_share_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue))
            _ = playhead_curl_share_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_DNS.rawValue))
        }
        // A program about to exit ends what is under way (an asset's open, on a thread of its own, may wait for it);
        // the driver stays usable.
        PlaybackThreads.beforeExit(ObjectIdentifier(self)) { [weak self] in self?.cancelAll() }
    }

    deinit {
        PlaybackThreads.beforeExit(ObjectIdentifier(self), nil)
        curl_multi_cleanup(multi)
        if let share { curl_share_cleanup(share) }
    }

    /// Sends `transfer`'s request, beginning the thread if it does not run; its completion runs on the driver
    /// thread (at once there when it was cancelled before it started, or the driver was shut down). Any thread.
    func start(_ transfer: Transfer) {
        let begins = commands.withLock { c in
            c.starts.append(transfer)
            defer { c.running = true }
            return !c.running
        }
        if begins {
            PlaybackThreads.start("playhead.http") { [self] in run() }
        } else {
            curl_multi_wakeup(multi)
        }
    }

    /// Ends `transfer` as cancelled, unless it ended already. Any thread.
    func cancel(_ transfer: Transfer) {
        transfer.cancelRequested.withLock { $0 = true }
        // No thread: nothing is under way (a start not yet taken would have begun one), so nothing to end.
        let running = commands.withLock { c in
            if c.running { c.cancels.append(transfer) }
            return c.running
        }
        if running { curl_multi_wakeup(multi) }
    }

    /// Ends what is under way as cancelled; later starts go on. Any thread.
    func cancelAll() {
        let running = commands.withLock { c in
            c.cancelAll = c.running
            return c.running
        }
        if running { curl_multi_wakeup(multi) }
    }

    /// Ends what is under way as cancelled, and any later start at once. Any thread; the driver's owner calls it.
    func shutdown() {
        let running = commands.withLock { c in
            c.stopped = true
            return c.running
        }
        if running { curl_multi_wakeup(multi) }
    }

    private func run() {
        while true {
            let (starts, cancels, stopped, cancelAll) = commands.withLock { c in
                defer { (c.starts, c.cancels, c.cancelAll) = ([], [], false) }
                return (c.starts, c.cancels, c.stopped, c.cancelAll)
            }
            if cancelAll {
                for transfer in active.values { end(transfer, .failure(.cancelled)) }
            }
            for transfer in starts { begin(transfer, stopped: stopped) }
            for transfer in cancels { end(transfer, .failure(.cancelled)) }
            if stopped {
                for transfer in active.values { end(transfer, .failure(.cancelled)) }
            }
            if !active.isEmpty {
                var running: Int32 = 0
                curl_multi_perform(multi, &running)
                collectFinished()
                expireIdle()
            }
            // Nothing under way: the thread ends, unless a command came meanwhile.
            let ends =
                active.isEmpty
                && commands.withLock { c in
                    let idle = c.starts.isEmpty && c.cancels.isEmpty
                    if idle { c.running = false }
                    return idle
                }
            if ends { return }
            if !active.isEmpty { curl_multi_poll(multi, nil, 0, nextWait(), nil) }
        }
    }

    private func begin(_ transfer: Transfer, stopped: Bool) {
        guard !stopped, !transfer.cancelRequested.withLock({ $0 }) else {
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

    /// Milliseconds until libcurl's next timer or the next idle time-out, whichever comes first (a command wakes
    /// the thread before).
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
