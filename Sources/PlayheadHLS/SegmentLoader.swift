import Foundation
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Why a download failed. A value type, safe anywhere.
public enum SegmentLoadError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered with this status (not 2xx), e.g. 404 or 500.
    case httpStatus(Int)
    /// No byte arrived for the loader's idle time-out, in seconds (a stalled or silent server).
    case timedOut(after: Double)
    /// The body is larger than the loader's `maximumBytes`.
    case tooLarge(limit: Int)
    /// The caller cancelled the download (its task was cancelled).
    case cancelled
    /// The connection failed (refused, reset, DNS...), with the system's description.
    case transport(String)
    /// The system's HTTP client refuses the URL itself, for the reason given: asking again cannot help.
    case unsupportedURL(String)
    /// The server redirected more than this many times (a redirect loop).
    case tooManyRedirects(Int)
    /// A byte range was asked for and the server answered with the whole resource (200, not 206), of this many
    /// bytes (nil: not said), more than the loader takes for it.
    case rangeIgnored(wholeBytes: Int?)

    /// One line for logs and error messages.
    public var description: String {
        switch self {
        case .httpStatus(let code): "HTTP status \(code)"
        case .timedOut(let seconds): "no data for \(seconds) s"
        case .tooLarge(let limit): "larger than \(limit) bytes"
        case .cancelled: "cancelled"
        case .transport(let text), .unsupportedURL(let text): text
        case .tooManyRedirects(let count): "more than \(count) redirects (a redirect loop)"
        case .rangeIgnored(let whole):
            "the server ignores byte ranges: it sends the whole resource" + (whole.map { " (\($0) bytes)" } ?? "")
        }
    }
}

/// Bytes that arrived together, with the throughput sample they make. A value type, safe anywhere.
public struct SegmentChunk: Sendable {
    /// The bytes.
    public var data: Data
    /// Where they start in the requested body (0 for the first chunk).
    public var offset: Int
    /// Seconds since the previous chunk arrived (since the response headers, for the first chunk): with
    /// `data.count` and `arrival`, a sample for `BandwidthEstimator.addSample(bytes:duration:at:)`.
    public var duration: Double
    /// When it arrived, in seconds on the monotonic clock (`DispatchTime` uptime; `SegmentLoader.now`).
    public var arrival: Double
}

/// The outcome of a download that completed. A value type, safe anywhere.
public struct SegmentLoadResult: Sendable, Hashable {
    /// The HTTP status (200, or 206 for a byte range).
    public var statusCode: Int
    /// Body bytes delivered.
    public var bytes: Int
    /// `Content-Length` when the server sent one.
    public var expectedBytes: Int?
    /// Seconds from sending the request to the response headers.
    public var timeToFirstByte: Double
    /// Seconds from sending the request to the last byte.
    public var elapsed: Double
    /// The response's `Content-Type` when the server sent one.
    public var contentType: String?
    /// The URL that answered, after any redirects (a playlist's relative URIs are resolved against it); nil when
    /// not known.
    public var url: URL? = nil
}

/// Downloads segments (or playlists, keys) over libcurl (`CurlDriver`: connections kept between downloads, and a
/// thread of the loader's own only while downloads are under way), and hands over each chunk as it arrives with its throughput sample; it keeps none of
/// the body itself, so memory stays bounded by what the caller keeps (`maximumBytes` also bounds a body's size).
/// Only `http` and `https` are fetched, redirects included.
///
/// `start` and `load` may be called from any thread or task, several at once. `onResponse`, `onChunk` and
/// `completion` run on the loader's thread, one download's one at a time, and should return quickly. A download
/// ends with an error when the server answers a non-2xx status, when no byte arrives for `idleTimeout` seconds
/// (the connection included), when the body passes `maximumBytes`, or when it is cancelled. Thread-safe.
public final class SegmentLoader: @unchecked Sendable {
    /// A download under way, to cancel it. Any thread.
    public struct Download: Sendable {
        fileprivate let transfer: Transfer
        fileprivate let driver: CurlDriver?

        /// Ends the download as `.cancelled` unless it ended already (its completion says which).
        public func cancel() { driver?.cancel(transfer) }
    }

    /// Seconds without a byte (including before the first one) after which a download fails.
    public let idleTimeout: Double
    /// The largest body accepted, in bytes.
    public let maximumBytes: Int
    private let driver: CurlDriver?

    /// The loader's clock: seconds of `DispatchTime` uptime, the clock of `SegmentChunk.arrival`.
    public static var now: Double { monotonicSeconds() }

    /// A loader with its own connections (no thread until a download starts); `idleTimeout` in seconds,
    /// `maximumBytes` per body (64 MiB by default).
    public init(idleTimeout: Double = 10, maximumBytes: Int = 64 << 20) {
        self.idleTimeout = idleTimeout
        self.maximumBytes = maximumBytes
        driver = CurlDriver(idleTimeout: idleTimeout)
    }

    deinit { driver?.shutdown() }

    /// Redirects followed per request before failing with `.tooManyRedirects`.
    public static let maximumRedirects = 10

    /// Starts downloading `url` (only `byteRange` of it when given); `onResponse` sees the final response's
    /// header (of an error status too, for its `Retry-After`), `onChunk` each chunk of the body as it arrives, and
    /// `completion` how the download ended, all on the loader's thread. `maximumBytes` lowers the loader's limit for
    /// this body (a playlist).
    @discardableResult
    public func start(
        _ url: URL, byteRange: ByteRange? = nil, maximumBytes: Int? = nil,
        onResponse: (@Sendable (HTTPURLResponse) -> Void)? = nil,
        onChunk: @escaping @Sendable (SegmentChunk) -> Void,
        completion: @escaping @Sendable (Result<SegmentLoadResult, SegmentLoadError>) -> Void
    ) -> Download {
        let transfer = Transfer(
            url: url, range: byteRange, limit: min(maximumBytes ?? self.maximumBytes, self.maximumBytes),
            onResponse: onResponse, onChunk: onChunk, completion: completion)
        if let driver {
            driver.start(transfer)
        } else {
            completion(.failure(.transport("the HTTP client library (libcurl) could not be set up")))
        }
        return Download(transfer: transfer, driver: driver)
    }

    /// Downloads `url` (only `byteRange` of it when given), calling `onChunk` for each chunk as it arrives, and
    /// returns once the body is complete. `maximumBytes` lowers the loader's limit for this body (a playlist).
    /// Throws `SegmentLoadError` (`.cancelled` when the calling task is). `onResponse` sees the response headers
    /// (of an error status too, for its `Retry-After`) on the loader's thread.
    public func load(
        _ url: URL, byteRange: ByteRange? = nil, maximumBytes: Int? = nil,
        onResponse: (@Sendable (HTTPURLResponse) -> Void)? = nil,
        onChunk: @escaping @Sendable (SegmentChunk) -> Void
    ) async throws -> SegmentLoadResult {
        // A cancel that comes before the download started is kept for it.
        let state = Mutex<(download: Download?, cancelled: Bool)>((nil, false))
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let download = start(
                    url, byteRange: byteRange, maximumBytes: maximumBytes, onResponse: onResponse,
                    onChunk: onChunk
                ) { outcome in
                    continuation.resume(with: outcome.mapError { $0 as any Error })
                }
                let cancelled = state.withLock { s in
                    s.download = download
                    return s.cancelled
                }
                if cancelled { download.cancel() }
            }
        } onCancel: {
            state.withLock { s in
                s.cancelled = true
                return s.download
            }?.cancel()
        }
    }

    /// Downloads `url` (or `byteRange` of it) whole into memory, at most `maximumBytes`: for playlists and keys.
    public func data(from url: URL, byteRange: ByteRange? = nil, maximumBytes: Int? = nil) async throws -> (
        Data, SegmentLoadResult
    ) {
        let buffer = ChunkBuffer()
        let result = try await load(url, byteRange: byteRange, maximumBytes: maximumBytes) { buffer.append($0.data) }
        return (buffer.data, result)
    }
}

/// Collects chunks for `SegmentLoader.data(from:)`; written on the loader's thread, read after completion.
private final class ChunkBuffer: @unchecked Sendable {
    private let storage = Mutex(Data())

    func append(_ data: Data) { storage.withLock { $0.append(data) } }
    var data: Data { storage.withLock { $0 } }
}
