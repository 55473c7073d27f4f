import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Blocking HTTP GETs for the engine's demux thread (playlists, segments) over one `SegmentLoader`, so connections
/// are reused and each chunk is measured as it arrives: an idle time-out (no byte for `timeout` seconds), an
/// optional overall deadline, a size limit enforced while the body arrives (a huge playlist is never held whole),
/// at most `SegmentLoader.maximumRedirects` redirects, and errors that name the URL.
///
/// Threads: `get` blocks its caller (the demux thread); `cancel` may come from any thread.
final class HTTPFetch: @unchecked Sendable {
    /// A body that arrived whole.
    struct Response {
        var body: Data
        var contentType: String?
        /// Seconds from the request to the last byte.
        var seconds: Double
        /// Seconds from the request to the response (0 for a local file).
        var timeToFirstByte = 0.0
        /// The first bytes as they arrived (before decryption), to recognise an HTML page served in place of an
        /// encrypted segment.
        var head = Data()
        /// The URL that answered, after redirects (the one asked for when not known).
        var url: URL?
    }

    /// How far a download has got, for a caller that watches it while it blocks.
    struct Progress {
        var bytes: Int
        var expectedBytes: Int?
        var elapsed: Double
        /// Seconds from the request to the response, once it has come.
        var timeToFirstByte: Double?
    }

    /// The largest playlist accepted (a longer one is an error, read no further than this).
    static let playlistLimit = 16 << 20

    /// A playlist request's whole time limit, in network time-outs: a playlist that keeps sending a line now and
    /// then (so the idle time-out never fires) fails after `playlistDeadlineFactor * timeout` seconds.
    static let playlistDeadlineFactor = 3.0

    private let loader: SegmentLoader
    private let state = Locked<(download: SegmentLoader.Download?, cancelled: Bool)>((nil, false))
    /// Seconds without a byte after which a request fails.
    let timeout: Double
    /// Whether the last error thrown may go away on a second try (a time-out, a dropped connection, a 5xx, and
    /// the statuses `RetryPolicy.isRetryable` names).
    private(set) var lastErrorWasTransient = false
    /// Whether the last error thrown was the connection's (the host did not resolve, the connection or its TLS
    /// failed): no HTTP answer came.
    private(set) var lastErrorWasConnection = false
    /// Whether the last error thrown was the idle time-out: no data came for `timeout` seconds (not the total
    /// deadline of a request that trickles).
    private(set) var lastErrorWasTimeout = false
    /// The HTTP status of the last error thrown, when it was one.
    private(set) var lastStatus: Int?
    /// Whether the last error thrown was a redirect loop (more redirects than `SegmentLoader.maximumRedirects`).
    private(set) var lastErrorWasRedirectLoop = false
    /// The last response's `Retry-After` in seconds (range-checked by `RetryPolicy.retryAfterSeconds`).
    private(set) var lastRetryAfter: Double?
    /// Polled ten times a second while a request waits (from the waiting thread): true cancels the request, so a
    /// pending request never delays a player that stops (an engine's `isStopping`).
    let stopping: (@Sendable () -> Bool)?

    /// Seconds a playlist request may take in all (`playlistDeadlineFactor` network time-outs).
    var playlistDeadline: Double { timeout * Self.playlistDeadlineFactor }
    /// Whether `file:` URLs are read (a local playlist's segments). Over the network only `http` and `https` are
    /// fetched: a playlist from a server may not read the user's files (as FFmpeg's HLS demuxer refuses), nor reach
    /// other protocols the transfer library speaks (ftp, smb, dict...).
    let localFiles: Bool

    init(timeout: Double, localFiles: Bool, stopping: (@Sendable () -> Bool)? = nil) {
        self.timeout = timeout
        self.localFiles = localFiles
        self.stopping = stopping
        loader = SegmentLoader(idleTimeout: timeout)
    }

    /// The body of `url` (bytes `range` when given), at most `limit` bytes, within `deadline` seconds when given.
    func get(
        _ url: URL, range: ClosedRange<Int>? = nil, limit: Int = 64 << 20, deadline: Double? = nil
    ) throws(PlaybackError) -> Response {
        guard let r = try fetch(url, range: range, limit: limit, deadline: deadline) else {
            throw PlaybackError(.network, source: url.absoluteString, reason: "cancelled")
        }
        return r
    }

    /// Like `get`, and also: `onChunk` sees each chunk on the loader's thread as it arrives; `deadline` bounds the
    /// whole download in seconds; `watch` runs on the calling thread about ten times a second and may return false
    /// to give the download up, in which case the result is nil. With a `decrypter`, the body is decrypted chunk by
    /// chunk as it arrives (the response's body is the plaintext; `finish` is left to the caller).
    func fetch(
        _ url: URL, range: ClosedRange<Int>? = nil, limit: Int = 64 << 20, deadline: Double? = nil,
        onChunk: (@Sendable (SegmentChunk) -> Void)? = nil, watch: ((Progress) -> Bool)? = nil,
        decrypter: AESDecrypter? = nil
    ) throws(PlaybackError) -> Response? {
        let name = url.absoluteString
        lastErrorWasTransient = false
        lastErrorWasConnection = false
        lastErrorWasTimeout = false
        lastErrorWasRedirectLoop = false
        lastStatus = nil
        lastRetryAfter = nil
        if state.current.cancelled { throw PlaybackError(.network, source: name, reason: "cancelled") }
        let scheme = url.scheme?.lowercased() ?? ""
        guard scheme == "http" || scheme == "https" || (scheme == "file" && localFiles) else {
            throw PlaybackError(
                .unsupported, source: name,
                reason: scheme == "file"
                    ? "a playlist from the network may not name a local file" : "not an http or https URL")
        }
        if url.isFileURL {
            var response = try Self.file(url, range: range)
            response.head = response.body.prefix(512)
            if let decrypter { response.body = decrypter.update(response.body) }
            return response
        }
        let body = Locked((data: Data(), expected: Int?.none, head: Data()))
        let retryAfter = Locked(Double?.none)
        let outcome = Locked<Result<SegmentLoadResult, SegmentLoadError>?>(nil)
        let respondedAt = Locked(Double?.none)
        let done = DispatchSemaphore(value: 0)
        let byteRange = range.map { ByteRange(length: $0.count, offset: $0.lowerBound) }
        let started = MonotonicClock.now()
        let download = loader.start(
            url, byteRange: byteRange, maximumBytes: limit,
            onResponse: { response in
                respondedAt.withLock { $0 = $0 ?? MonotonicClock.now() }
                let header = response.value(forHTTPHeaderField: "Retry-After")
                retryAfter.withLock { $0 = RetryPolicy.retryAfterSeconds(header) }
            },
            onChunk: { chunk in
                body.withLock { b in
                    if b.head.count < 512 { b.head.append(chunk.data.prefix(512 - b.head.count)) }
                    b.data.append(decrypter?.update(chunk.data) ?? chunk.data)
                }
                onChunk?(chunk)
            },
            completion: { result in
                outcome.withLock { $0 = result }
                done.signal()
            })
        // A cancel from another thread that came after the check above is kept for the download.
        if state.withLock({ s in
            s.download = download
            return s.cancelled
        }) {
            download.cancel()
        }
        defer { state.withLock { $0.download = nil } }
        while done.wait(timeout: .now() + 0.1) == .timedOut {
            let elapsed = MonotonicClock.now() - started
            if stopping?() == true {
                cancel()
                throw PlaybackError(.network, source: name, reason: "cancelled")
            }
            if let deadline, elapsed > deadline {
                download.cancel()
                lastErrorWasTransient = true
                throw PlaybackError(
                    .network, source: name, reason: "did not finish within \(Self.seconds(deadline)) (timed out)")
            }
            let progress = Progress(
                bytes: body.current.data.count, expectedBytes: nil, elapsed: elapsed,
                timeToFirstByte: respondedAt.current.map { max($0 - started, 0) })
            if let watch, !watch(progress) {
                download.cancel()
                done.wait()
                return nil
            }
        }
        switch outcome.current {
        case .success(let r)?:
            let b = body.current
            return Response(
                body: b.data, contentType: r.contentType, seconds: r.elapsed, timeToFirstByte: r.timeToFirstByte,
                head: b.head, url: r.url ?? url)
        case .failure(let error)?:
            switch error {
            case .timedOut:
                lastErrorWasTransient = true
                lastErrorWasTimeout = true
            case .transport:
                lastErrorWasTransient = true
                lastErrorWasConnection = true
            case .httpStatus(let code):
                lastStatus = code
                lastErrorWasTransient = RetryPolicy.isRetryable(status: code)
                lastRetryAfter = retryAfter.current
            case .tooManyRedirects: lastErrorWasRedirectLoop = true
            default: break
            }
            throw Self.error(error, url: name, cancelled: state.current.cancelled)
        case nil:
            throw PlaybackError(.network, source: name, reason: "no response")
        }
    }

    /// Cancels the request in flight and every later one.
    func cancel() {
        let download = state.withLock { s -> SegmentLoader.Download? in
            s.cancelled = true
            return s.download
        }
        download?.cancel()
    }

    /// A byte count in words: "16 MiB", "64 KiB", "16 bytes" (a key's limit was "0 MiB").
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }

    static func error(_ error: SegmentLoadError, url: String, cancelled: Bool) -> PlaybackError {
        switch error {
        case .httpStatus(let code):
            let text = HTTPURLResponse.localizedString(forStatusCode: code).capitalized
            return PlaybackError(.network, source: url, reason: "HTTP \(code) \(text)", code: Int32(code))
        case .timedOut(let after):
            return PlaybackError(.network, source: url, reason: "no data for \(seconds(after)) (timed out)")
        case .tooLarge(let limit):
            return PlaybackError(.network, source: url, reason: "larger than \(size(limit)); refused")
        case .cancelled:
            return PlaybackError(.network, source: url, reason: cancelled ? "cancelled" : "interrupted")
        case .transport(let text):
            return PlaybackError(.network, source: url, reason: PlaybackError.reason(from: text))
        case .tooManyRedirects, .rangeIgnored:
            return PlaybackError(.network, source: url, reason: error.description)
        case .unsupportedURL(let reason):
            return PlaybackError(.unsupported, source: url, reason: reason)
        }
    }

    private static func seconds(_ s: Double) -> String {
        s == s.rounded() ? "\(Int(s)) s" : String(format: "%.1f s", s)
    }

    private static func file(_ url: URL, range: ClosedRange<Int>?) throws(PlaybackError) -> Response {
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw PlaybackError(.io, source: url.path, reason: "no such file")
        }
        guard let range else { return Response(body: data, contentType: nil, seconds: 0) }
        let upper = min(range.upperBound + 1, data.count)
        let part = range.lowerBound < upper ? data.subdata(in: range.lowerBound..<upper) : Data()
        return Response(body: part, contentType: nil, seconds: 0)
    }
}
