import Foundation
import PlayheadCore

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Blocking HTTP GETs for the engine's demux thread (playlists, segments), with a time-out, an optional byte
/// range, HTTP status errors that name the URL, and cancellation from any thread.
final class HTTPFetch: @unchecked Sendable {
    private let session: URLSession
    private let current = Locked<URLSessionDataTask?>(nil)
    private let cancelled = Locked(false)
    let timeout: Double

    init(timeout: Double) {
        self.timeout = timeout
        let config = URLSessionConfiguration.ephemeral
        config.timeoutIntervalForRequest = timeout
        config.httpMaximumConnectionsPerHost = 2
        config.httpAdditionalHeaders = ["User-Agent": "Playhead/0.1"]
        session = URLSession(configuration: config)
    }

    deinit { session.invalidateAndCancel() }

    /// The body of `url` (bytes `range` when given), and the response's content type.
    func get(_ url: URL, range: ClosedRange<Int>? = nil, limit: Int = 64 << 20) throws(PlaybackError) -> (
        Data, String?
    ) {
        if cancelled.current { throw PlaybackError(.network, source: url.absoluteString, reason: "cancelled") }
        if url.isFileURL {
            guard let data = FileManager.default.contents(atPath: url.path) else {
                throw PlaybackError(.io, source: url.path, reason: "no such file")
            }
            guard let range else { return (data, nil) }
            let upper = min(range.upperBound + 1, data.count)
            return (range.lowerBound < upper ? data.subdata(in: range.lowerBound..<upper) : Data(), nil)
        }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        if let range { request.setValue("bytes=\(range.lowerBound)-\(range.upperBound)", forHTTPHeaderField: "Range") }
        let done = DispatchSemaphore(value: 0)
        let result = Locked<(Data?, URLResponse?, (any Error)?)>((nil, nil, nil))
        let task = session.dataTask(with: request) { data, response, error in
            result.withLock { $0 = (data, response, error) }
            done.signal()
        }
        current.withLock { $0 = task }
        task.resume()
        if done.wait(timeout: .now() + timeout + 1) == .timedOut {
            task.cancel()
            throw PlaybackError(.network, source: url.absoluteString, reason: "timed out")
        }
        current.withLock { $0 = nil }
        let (data, response, error) = result.current
        if let error {
            let reason = cancelled.current ? "cancelled" : error.localizedDescription
            throw PlaybackError(.network, source: url.absoluteString, reason: reason)
        }
        guard let http = response as? HTTPURLResponse else {
            throw PlaybackError(.network, source: url.absoluteString, reason: "no HTTP response")
        }
        guard (200..<300).contains(http.statusCode) else {
            let text = HTTPURLResponse.localizedString(forStatusCode: http.statusCode).capitalized
            throw PlaybackError(
                .network, source: url.absoluteString, reason: "HTTP \(http.statusCode) \(text)",
                code: Int32(http.statusCode))
        }
        let body = data ?? Data()
        if body.count > limit {
            throw PlaybackError(.network, source: url.absoluteString, reason: "response larger than \(limit >> 20) MiB")
        }
        return (body, http.value(forHTTPHeaderField: "Content-Type"))
    }

    /// Cancels the request in flight and every later one.
    func cancel() {
        cancelled.withLock { $0 = true }
        current.current?.cancel()
    }
}
