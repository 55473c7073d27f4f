import CCurl
import Dispatch
import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Seconds on the monotonic clock.
func monotonicSeconds() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

/// One download: its request, and what its callbacks learn of the response and the body. Made on the caller's
/// thread; from `CurlDriver.start` on, every field but `cancelRequested` is the driver thread's alone.
final class Transfer: @unchecked Sendable {
    let url: URL
    let onChunk: @Sendable (SegmentChunk) -> Void
    let onResponse: (@Sendable (HTTPURLResponse) -> Void)?
    let completion: @Sendable (Result<SegmentLoadResult, SegmentLoadError>) -> Void
    let range: ByteRange?
    /// The largest body accepted for this download.
    let limit: Int
    /// Set by `CurlDriver.cancel` from any thread, so a cancel that overtakes the start is not lost.
    let cancelRequested = Mutex(false)
    var easy: UnsafeMutableRawPointer?
    /// What a callback decided (an error status, a body too large, a range complete): it stopped the transfer.
    var decided: Result<SegmentLoadResult, SegmentLoadError>?
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
    /// The current response's header fields, names in lower case.
    var headers: [String: String] = [:]
    /// When a server ignored the Range header (200 with the whole file): bytes still to drop, then to keep.
    var skip = 0
    var keep: Int?
    /// libcurl's words for a failure (`CURLOPT_ERRORBUFFER`).
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(
        url: URL, range: ByteRange?, limit: Int, onResponse: (@Sendable (HTTPURLResponse) -> Void)?,
        onChunk: @escaping @Sendable (SegmentChunk) -> Void,
        completion: @escaping @Sendable (Result<SegmentLoadResult, SegmentLoadError>) -> Void
    ) {
        self.url = url
        self.range = range
        self.limit = limit
        self.onResponse = onResponse
        self.onChunk = onChunk
        self.completion = completion
        errorText.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit { errorText.deallocate() }

    /// Sets up `easy` for this request (driver thread).
    func configure(_ easy: UnsafeMutableRawPointer, share: UnsafeMutableRawPointer?, connectTimeout: Double) {
        _ = playhead_curl_set_string(easy, CURLOPT_URL, url.absoluteString)
        _ = playhead_curl_http_only(easy)
        _ = playhead_curl_set_long(easy, CURLOPT_FOLLOWLOCATION, 1)
        _ = playhead_curl_set_long(easy, CURLOPT_MAXREDIRS, SegmentLoader.maximumRedirects)
        _ = playhead_curl_set_long(easy, CURLOPT_NOSIGNAL, 1)
        // Through a proxy (`https_proxy`), the tunnel's CONNECT answer is not the response (its status would be).
        _ = playhead_curl_set_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1)
        _ = playhead_curl_set_long(easy, CURLOPT_CONNECTTIMEOUT_MS, max(Int(connectTimeout * 1000), 1))
        _ = playhead_curl_set_string(easy, CURLOPT_USERAGENT, "Playhead/0.1")
        // Compressed bodies (a playlist) are asked for and inflated, as the system's HTTP client did.
        _ = playhead_curl_set_string(easy, CURLOPT_ACCEPT_ENCODING, "")
        _ = playhead_curl_set_long(easy, CURLOPT_BUFFERSIZE, 128 << 10)
        // The cookie engine, its jar in memory and shared by the loader's transfers.
        _ = playhead_curl_set_string(easy, CURLOPT_COOKIEFILE, "")
        if let share { _ = playhead_curl_set_share(easy, share) }
        if let range { _ = playhead_curl_set_string(easy, CURLOPT_RANGE, "\(range.offset)-\(range.end - 1)") }
        _ = playhead_curl_set_pointer(easy, CURLOPT_ERRORBUFFER, errorText)
        let context = Unmanaged.passUnretained(self).toOpaque()
        _ = playhead_curl_set_data_fn(easy, CURLOPT_HEADERFUNCTION, transferHeaderLine)
        _ = playhead_curl_set_pointer(easy, CURLOPT_HEADERDATA, context)
        _ = playhead_curl_set_data_fn(easy, CURLOPT_WRITEFUNCTION, transferBody)
        _ = playhead_curl_set_pointer(easy, CURLOPT_WRITEDATA, context)
    }

    func begun(at time: Double) {
        started = time
        lastActivity = time
        meter = TransferMeter(requestedAt: time)
    }

    /// Calls the completion; the transfer's handle is gone.
    func complete(_ outcome: Result<SegmentLoadResult, SegmentLoadError>) { completion(outcome) }

    func result() -> SegmentLoadResult {
        let now = monotonicSeconds()
        return SegmentLoadResult(
            statusCode: statusCode, bytes: delivered, expectedBytes: expectedBytes,
            timeToFirstByte: (responseAt ?? now) - started, elapsed: now - started, contentType: contentType,
            url: finalURL)
    }

    /// How the transfer ended, from libcurl's result `code` (driver thread).
    func outcome(of code: CURLcode, idleTimeout: Double) -> Result<SegmentLoadResult, SegmentLoadError> {
        if let decided { return decided }
        switch code {
        case CURLE_OK: return .success(result())
        case CURLE_OPERATION_TIMEDOUT: return .failure(.timedOut(after: idleTimeout))
        case CURLE_TOO_MANY_REDIRECTS: return .failure(.tooManyRedirects(SegmentLoader.maximumRedirects))
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            var redirects = 0
            if let easy { _ = playhead_curl_get_long(easy, CURLINFO_REDIRECT_COUNT, &redirects) }
            return .failure(
                .unsupportedURL(
                    redirects > 0 ? "redirected to a URL that is not http or https" : "not an http or https URL"))
        case CURLE_COULDNT_CONNECT:
            var osError = 0
            if let easy, playhead_curl_get_long(easy, CURLINFO_OS_ERRNO, &osError) == CURLE_OK, osError != 0 {
                return .failure(.transport(String(cString: strerror(Int32(osError)))))
            }
            return .failure(.transport(failureText(code)))
        default: return .failure(.transport(failureText(code)))
        }
    }

    private func failureText(_ code: CURLcode) -> String {
        let text = String(cString: errorText)
        return text.isEmpty ? String(cString: curl_easy_strerror(code)) : text
    }
}
