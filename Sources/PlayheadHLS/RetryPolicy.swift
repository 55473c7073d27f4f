import Foundation

/// When an HLS client tries a failed request again (segments, playlists, keys): a bounded number of retries with
/// exponential backoff and jitter, a server's `Retry-After` honoured within bounds. Which failures are worth a
/// retry: a time-out, a dropped or refused connection, 5xx, 404 (an edge that has not got the file yet), 408 and
/// 429; never 400, 401, 403, 410 or a body that is not what was asked for. A value type, safe anywhere.
public struct RetryPolicy: Sendable, Hashable {
    /// Retries after the first failure (0: none); kept within `retryRange`.
    public var maximumRetries: Int
    /// The wait before the first retry, in seconds; each next one doubles it.
    public var baseDelay: Double
    /// The longest wait between two tries, in seconds (also the most a `Retry-After` is honoured).
    public var maximumDelay: Double
    /// The fraction of each wait that is random (0.25: the wait is 75 %-125 % of the nominal one), so clients
    /// that failed together do not come back together.
    public var jitter: Double

    /// The retries a caller may ask for (`--hls-retries`).
    public static let retryRange = 0...10

    /// A policy; numbers out of range are brought into range (retries 0-10, delays 0-60 s, jitter 0-1).
    public init(maximumRetries: Int = 3, baseDelay: Double = 0.5, maximumDelay: Double = 4, jitter: Double = 0.25) {
        self.maximumRetries = min(max(maximumRetries, Self.retryRange.lowerBound), Self.retryRange.upperBound)
        self.baseDelay = baseDelay.isFinite ? min(max(baseDelay, 0), 60) : 0.5
        self.maximumDelay = maximumDelay.isFinite ? min(max(maximumDelay, self.baseDelay), 60) : 4
        self.jitter = jitter.isFinite ? min(max(jitter, 0), 1) : 0.25
    }

    /// Seconds to wait before retry number `retry` (1 for the first), `random` in 0...1 choosing the jitter; a
    /// `Retry-After` (seconds) replaces the backoff, but never beyond `maximumDelay`.
    public func delay(beforeRetry retry: Int, retryAfter: Double? = nil, random: Double) -> Double {
        if let retryAfter, retryAfter.isFinite, retryAfter >= 0 { return min(retryAfter, maximumDelay) }
        let exponent = Double(min(max(retry - 1, 0), 30))
        let nominal = min(baseDelay * pow(2, exponent), maximumDelay)
        let r = random.isFinite ? min(max(random, 0), 1) : 0.5
        return max(0, nominal * (1 - jitter + 2 * jitter * r))
    }

    /// Whether an HTTP status is worth another try.
    public static func isRetryable(status: Int) -> Bool {
        status >= 500 || status == 404 || status == 408 || status == 429
    }

    /// A `Retry-After` header in seconds: delay-seconds, or an HTTP date (counted from `now`); nil when absent,
    /// malformed, negative or beyond a day.
    public static func retryAfterSeconds(_ header: String?, now: Date = Date()) -> Double? {
        guard let text = header?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let seconds = Int(text) { return (0...86_400).contains(seconds) ? Double(seconds) : nil }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: text) else { return nil }
        let seconds = date.timeIntervalSince(now)
        return seconds <= 86_400 ? max(0, seconds) : nil
    }
}
