import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The session's callbacks for `LoaderCore`: the response (a status, a range ignored, a body too large), each chunk,
/// redirects and the end. On the session's serial delegate queue.
extension LoaderCore {
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
            transfer.finalURL = response.url
            let length = response.expectedContentLength >= 0 ? Int(response.expectedContentLength) : nil
            transfer.expectedBytes = length
            transfer.wholeBytes = length
            if let range = transfer.range, status == 200 {
                // The range was ignored: the whole resource comes, read through and cut to the range when it is
                // within the limit, else refused now.
                transfer.skip = range.offset
                transfer.keep = range.length
                transfer.expectedBytes = range.length
                if failure == nil, length.map({ $0 > transfer.limit }) ?? true {
                    failure = .rangeIgnored(wholeBytes: length)
                }
            }
            if let expected = transfer.expectedBytes, expected > transfer.limit, failure == nil {
                failure = .tooLarge(limit: transfer.limit)
            }
        }
        if let failure {
            let transfer = lock.withLock { transfers[id] }
            finish(id, .failure(failure))
            completionHandler(.cancel)
            // FoundationNetworking lets the body come whatever the disposition: what is refused for its size ends.
            if let transfer { giveUp(transfer) }
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
            transfer.received += data.count
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
            // The range is in: the rest of the whole body is not waited for.
            let done = lock.withLock { result(of: transfer) }
            finish(id, .success(done))
            giveUp(transfer)
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
        case .badURL?, .unsupportedURL?:
            // FoundationNetworking refuses an IPv6 address literal as the host (swift-corelibs-foundation
            // issue 5496, fixed upstream in 2026; this toolchain has it), a redirect to one included.
            let host = (task.currentRequest?.url ?? task.originalRequest?.url)?.host ?? ""
            let reason =
                host.contains(":")
                ? "an IPv6 address as the host is not supported by this system's HTTP client; use a host name"
                : "not a URL this system's HTTP client can fetch"
            finish(id, .failure(.unsupportedURL(reason)))
        default: finish(id, .failure(.transport(error.localizedDescription)))
        }
    }
}
