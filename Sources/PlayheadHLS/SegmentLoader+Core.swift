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
    var contentType: String?
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
    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]
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
        let task = lock.withLock { transfers[id]?.task }
        finish(id, .failure(error))
        task?.cancel()
    }

    /// Ends download `id` once: resumes its continuation (or keeps the outcome for `start`).
    private func finish(_ id: Int, _ outcome: Result<SegmentLoadResult, SegmentLoadError>) {
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

    private func result(of transfer: Transfer) -> SegmentLoadResult {
        let now = monotonicSeconds()
        return SegmentLoadResult(
            statusCode: transfer.statusCode, bytes: transfer.delivered, expectedBytes: transfer.expectedBytes,
            timeToFirstByte: (transfer.responseAt ?? now) - transfer.started, elapsed: now - transfer.started,
            contentType: transfer.contentType)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let id = dataTask.taskIdentifier
        let status = (response as? HTTPURLResponse)?.statusCode ?? 200
        var failure: SegmentLoadError? = (200..<300).contains(status) ? nil : .httpStatus(status)
        if let http = response as? HTTPURLResponse, let onResponse = lock.withLock({ transfers[id]?.onResponse }) {
            onResponse(http)
        }
        lock.withLock {
            guard let transfer = transfers[id] else { return }
            let now = monotonicSeconds()
            transfer.responseAt = now
            transfer.lastActivity = now
            transfer.meter.responded(at: now)
            transfer.statusCode = status
            transfer.contentType = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "Content-Type")
            let length = response.expectedContentLength >= 0 ? Int(response.expectedContentLength) : nil
            transfer.expectedBytes = length
            if let range = transfer.range, status == 200 {
                transfer.skip = range.offset
                transfer.keep = range.length
                transfer.expectedBytes = range.length
            }
            if let expected = transfer.expectedBytes, expected > transfer.limit, failure == nil {
                failure = .tooLarge(limit: transfer.limit)
            }
        }
        if let failure {
            finish(id, .failure(failure))
            completionHandler(.cancel)
        } else {
            completionHandler(.allow)
        }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        var failure: SegmentLoadError?
        var complete = false
        let delivery: (Transfer, SegmentChunk)? = lock.withLock {
            guard let transfer = transfers[id], !transfer.done else { return nil }
            var body = data
            if transfer.skip > 0 {
                let dropped = min(transfer.skip, body.count)
                body = body.dropFirst(dropped)
                transfer.skip -= dropped
            }
            if let keep = transfer.keep {
                body = body.prefix(keep)
                transfer.keep = keep - body.count
                complete = transfer.keep == 0
            }
            let now = monotonicSeconds()
            let sample = transfer.meter.chunk(bytes: body.count, at: now)
            transfer.lastActivity = now
            guard !body.isEmpty else { return nil }
            let chunk = SegmentChunk(
                data: Data(body), offset: transfer.delivered, duration: sample.duration, arrival: now)
            transfer.delivered += body.count
            if transfer.delivered > transfer.limit { failure = .tooLarge(limit: transfer.limit) }
            return failure == nil ? (transfer, chunk) : nil
        }
        if let (transfer, chunk) = delivery { transfer.onChunk(chunk) }
        if let failure {
            fail(id, with: failure)
        } else if complete, let transfer = lock.withLock({ transfers[id] }) {
            let done = lock.withLock { result(of: transfer) }
            finish(id, .success(done))
            dataTask.cancel()
        }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let id = task.taskIdentifier
        let count = lock.withLock { () -> Int in
            guard let transfer = transfers[id] else { return 0 }
            transfer.redirects += 1
            transfer.lastActivity = monotonicSeconds()
            return transfer.redirects
        }
        if count > SegmentLoader.maximumRedirects {
            completionHandler(nil)
            fail(id, with: .tooManyRedirects(SegmentLoader.maximumRedirects))
        } else {
            completionHandler(request)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let id = task.taskIdentifier
        guard let transfer = lock.withLock({ transfers[id] }) else { return }
        guard let error else {
            finish(id, .success(lock.withLock { result(of: transfer) }))
            return
        }
        let code = (error as? URLError)?.code
        switch code {
        case .cancelled?: finish(id, .failure(.cancelled))
        case .timedOut?: finish(id, .failure(.timedOut(after: idleTimeout)))
        default: finish(id, .failure(.transport(error.localizedDescription)))
        }
    }
}
