import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// One download's state; every field is guarded by `LoaderCore.lock`.
final class Transfer: @unchecked Sendable {
    let onChunk: @Sendable (SegmentChunk) -> Void
    var onResponse: (@Sendable (HTTPURLResponse) -> Void)?
    let range: ByteRange?
    /// The largest body accepted for this download.
    let limit: Int
    var task: URLSessionTask?
    var continuation: CheckedContinuation<SegmentLoadResult, any Error>?
    var outcome: Result<SegmentLoadResult, SegmentLoadError>?
    var done = false
    var started = 0.0
    var lastActivity = 0.0
    /// Measures the chunks for the throughput estimate (from the response; see `TransferMeter`).
    var meter = TransferMeter(requestedAt: 0)
    var responseAt: Double?
    var statusCode = 0
    var expectedBytes: Int?
    var delivered = 0
    /// The response's whole body (its `Content-Length`), and the body bytes received so far, dropped ones included.
    var wholeBytes: Int?
    var received = 0
    var contentType: String?
    /// The URL that answered, after redirects.
    var finalURL: URL?
    var redirects = 0
    /// When a server ignored the Range header (200 with the whole file): bytes still to drop, then to keep.
    var skip = 0
    var keep: Int?
    var watchdog: (any DispatchSourceTimer)?

    init(onChunk: @escaping @Sendable (SegmentChunk) -> Void, range: ByteRange?, limit: Int) {
        self.onChunk = onChunk
        self.range = range
        self.limit = limit
    }
}

/// The session delegate behind `SegmentLoader`: callbacks run on the session's serial delegate queue, the
/// watchdog on its own queue, `start` and `fail` on the caller's; shared state is behind `lock`.
final class LoaderCore: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    let idleTimeout: Double
    let maximumBytes: Int
    let lock = NSLock()
    var transfers: [Int: Transfer] = [:]
    private let watchdogQueue = DispatchQueue(label: "PlayheadHLS.SegmentLoader.watchdog")

    init(idleTimeout: Double, maximumBytes: Int) {
        self.idleTimeout = idleTimeout
        self.maximumBytes = maximumBytes
    }

    func register(_ transfer: Transfer, for task: URLSessionTask) {
        lock.withLock {
            transfer.task = task
            transfers[task.taskIdentifier] = transfer
        }
    }

    /// Installs the continuation and sends the request, unless the download already ended (cancelled early).
    func start(
        _ task: URLSessionTask, transfer: Transfer, continuation: CheckedContinuation<SegmentLoadResult, any Error>
    ) {
        let early: Result<SegmentLoadResult, SegmentLoadError>? = lock.withLock {
            if let outcome = transfer.outcome { return outcome }
            transfer.continuation = continuation
            transfer.started = monotonicSeconds()
            transfer.lastActivity = transfer.started
            transfer.meter = TransferMeter(requestedAt: transfer.started)
            return nil
        }
        if let early {
            continuation.resume(with: early.mapError { $0 as any Error })
            return
        }
        startWatchdog(for: task.taskIdentifier, transfer: transfer)
        task.resume()
    }

    private func startWatchdog(for id: Int, transfer: Transfer) {
        let timer = DispatchSource.makeTimerSource(queue: watchdogQueue)
        let interval = max(min(idleTimeout / 4, 1), 0.02)
        timer.schedule(deadline: .now() + interval, repeating: interval)
        let limit = idleTimeout
        timer.setEventHandler { [weak self, weak transfer] in
            guard let self, let transfer else { return }
            let idle = self.lock.withLock { monotonicSeconds() - transfer.lastActivity }
            if idle > limit { self.fail(id, with: .timedOut(after: limit)) }
        }
        lock.withLock { transfer.watchdog = timer }
        timer.resume()
    }

    func fail(_ task: URLSessionTask, with error: SegmentLoadError) { fail(task.taskIdentifier, with: error) }

    func fail(_ id: Int, with error: SegmentLoadError) {
        let transfer = lock.withLock { transfers[id] }
        finish(id, .failure(error))
        // A stalled body has nothing coming: it is cancelled whatever is left of it.
        if let transfer { giveUp(transfer, stalled: error == .timedOut(after: idleTimeout)) }
    }

    /// A body given up is let arrive (and dropped) rather than cancelled when its rest would take at most this many
    /// seconds at the rate it has come so far, or, before any of it came, when it is at most `restLetFinish` bytes:
    /// cancelling a task whose body has already arrived whole (a small rest, a fast link), its completion queued,
    /// traps in FoundationNetworking ("a task that in not in the registry"), as `playhead` did about once in 25
    /// opens of a file on an origin that ignores ranges. On a slow link the rest is cancelled: it would hold up the
    /// next request (a seek's segment).
    static let restLetFinishSeconds = 0.25
    static let restLetFinish = 512 << 10

    /// Ends the task of a body nobody waits for any more: let finish when its rest is known to be near (see
    /// `restLetFinishSeconds`) and it has not stalled, else cancelled. Any thread.
    func giveUp(_ transfer: Transfer, stalled: Bool = false) {
        let (task, letFinish) = lock.withLock { () -> (URLSessionTask?, Bool) in
            guard !stalled, let whole = transfer.wholeBytes else { return (transfer.task, false) }
            let rest = Double(whole - transfer.received)
            guard transfer.received > 0, let since = transfer.responseAt else {
                return (transfer.task, rest <= Double(Self.restLetFinish))
            }
            let rate = Double(transfer.received) / max(monotonicSeconds() - since, 0.001)
            return (transfer.task, rest <= rate * Self.restLetFinishSeconds)
        }
        if !letFinish { task?.cancel() }
    }

    /// Ends download `id` once: resumes its continuation (or keeps the outcome for `start`).
    func finish(_ id: Int, _ outcome: Result<SegmentLoadResult, SegmentLoadError>) {
        let continuation: CheckedContinuation<SegmentLoadResult, any Error>? = lock.withLock {
            guard let transfer = transfers.removeValue(forKey: id), !transfer.done else { return nil }
            transfer.done = true
            transfer.outcome = outcome
            transfer.watchdog?.cancel()
            transfer.watchdog = nil
            defer { transfer.continuation = nil }
            return transfer.continuation
        }
        continuation?.resume(with: outcome.mapError { $0 as any Error })
    }

    func result(of transfer: Transfer) -> SegmentLoadResult {
        let now = monotonicSeconds()
        return SegmentLoadResult(
            statusCode: transfer.statusCode, bytes: transfer.delivered, expectedBytes: transfer.expectedBytes,
            timeToFirstByte: (transfer.responseAt ?? now) - transfer.started, elapsed: now - transfer.started,
            contentType: transfer.contentType, url: transfer.finalURL)
    }
}
