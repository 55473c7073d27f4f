import Foundation

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

/// Downloads segments (or playlists, keys) over one `URLSession`, so connections are reused, and hands over each
/// chunk as it arrives with its throughput sample; it keeps none of the body itself, so memory stays bounded by
/// what the caller keeps (`maximumBytes` also bounds a body's size).
///
/// `load` may be called from any thread or task, several at once. `onChunk` runs on the loader's private serial
/// delegate queue, one chunk at a time, and should return quickly. A download ends with an error when the server
/// answers a non-2xx status, when no byte arrives for `idleTimeout` seconds, when the body passes `maximumBytes`,
/// or when the calling task is cancelled. Thread-safe (`@unchecked Sendable`: its state is behind a lock).
public final class SegmentLoader: @unchecked Sendable {
    /// Seconds without a byte (including before the first one) after which a download fails.
    public let idleTimeout: Double
    /// The largest body accepted, in bytes.
    public let maximumBytes: Int
    private let session: URLSession
    private let core: LoaderCore

    /// The loader's clock: seconds of `DispatchTime` uptime, the clock of `SegmentChunk.arrival`.
    public static var now: Double { monotonicSeconds() }

    /// A loader with its own session; `idleTimeout` in seconds, `maximumBytes` per body (64 MiB by default).
    public init(idleTimeout: Double = 10, maximumBytes: Int = 64 << 20) {
        self.idleTimeout = idleTimeout
        self.maximumBytes = maximumBytes
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = max(idleTimeout * 4, 60)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        // Media is never cached: no cache, and no start-up cost of opening the shared one on disk.
        configuration.urlCache = nil
        configuration.httpAdditionalHeaders = ["User-Agent": "Playhead/0.1"]
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "PlayheadHLS.SegmentLoader"
        core = LoaderCore(idleTimeout: idleTimeout, maximumBytes: maximumBytes)
        session = URLSession(configuration: configuration, delegate: core, delegateQueue: queue)
    }

    deinit {
        // Tasks still running are let finish: a body given up with much of it to come was cancelled then, what runs
        // on is a small rest (`LoaderCore.restLetFinish`), which cancelling could trap in FoundationNetworking.
        session.finishTasksAndInvalidate()
    }

    /// Redirects followed per request before failing with `.tooManyRedirects`.
    public static let maximumRedirects = 10

    /// Downloads `url` (only `byteRange` of it when given), calling `onChunk` for each chunk as it arrives, and
    /// returns once the body is complete. `maximumBytes` lowers the loader's limit for this body (a playlist).
    /// Throws `SegmentLoadError` (`.cancelled` when the calling task is). `onResponse` sees the response headers
    /// (of an error status too, for its `Retry-After`) on the delegate queue.
    public func load(
        _ url: URL, byteRange: ByteRange? = nil, maximumBytes: Int? = nil,
        onResponse: (@Sendable (HTTPURLResponse) -> Void)? = nil,
        onChunk: @escaping @Sendable (SegmentChunk) -> Void
    ) async throws -> SegmentLoadResult {
        var request = URLRequest(url: url)
        if let byteRange {
            request.setValue("bytes=\(byteRange.offset)-\(byteRange.end - 1)", forHTTPHeaderField: "Range")
        }
        let task = session.dataTask(with: request)
        let transfer = Transfer(
            onChunk: onChunk, range: byteRange, limit: min(maximumBytes ?? self.maximumBytes, self.maximumBytes))
        transfer.onResponse = onResponse
        core.register(transfer, for: task)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                core.start(task, transfer: transfer, continuation: continuation)
            }
        } onCancel: {
            core.fail(task, with: .cancelled)
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

/// Collects chunks for `SegmentLoader.data(from:)`; written on the delegate queue, read after completion.
private final class ChunkBuffer: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = Data()

    func append(_ data: Data) { lock.withLock { storage.append(data) } }
    var data: Data { lock.withLock { storage } }
}
