import Foundation
import PlayheadHLS
import Testing

@Suite("Retry policy") struct RetryPolicyTests {
    @Test("backoff doubles from the base, is capped, and jitter stays within its fraction")
    func backoff() {
        let p = RetryPolicy(maximumRetries: 5, baseDelay: 0.5, maximumDelay: 4, jitter: 0.25)
        #expect(p.delay(beforeRetry: 1, random: 0.5) == 0.5)
        #expect(p.delay(beforeRetry: 2, random: 0.5) == 1)
        #expect(p.delay(beforeRetry: 3, random: 0.5) == 2)
        #expect(p.delay(beforeRetry: 9, random: 0.5) == 4)
        #expect(p.delay(beforeRetry: 1, random: 0) == 0.375)
        #expect(p.delay(beforeRetry: 1, random: 1) == 0.625)
        #expect(p.delay(beforeRetry: Int.max, random: 1) == 5)
    }

    @Test("Retry-After replaces the backoff but never passes the longest wait")
    func retryAfter() {
        let p = RetryPolicy()
        #expect(p.delay(beforeRetry: 1, retryAfter: 2, random: 0) == 2)
        #expect(p.delay(beforeRetry: 1, retryAfter: 3600, random: 0) == 4)
        #expect(RetryPolicy.retryAfterSeconds("120") == 120)
        #expect(RetryPolicy.retryAfterSeconds("-1") == nil)
        #expect(RetryPolicy.retryAfterSeconds("999999999") == nil)
        #expect(RetryPolicy.retryAfterSeconds("soon") == nil)
        let now = Date(timeIntervalSince1970: 1_445_412_480)  // Wed, 21 Oct 2015 07:28:00 GMT
        #expect(RetryPolicy.retryAfterSeconds("Wed, 21 Oct 2015 07:28:30 GMT", now: now) == 30)
    }

    @Test("numbers from outside are brought into range")
    func ranges() {
        #expect(RetryPolicy(maximumRetries: 1_000).maximumRetries == 10)
        #expect(RetryPolicy(maximumRetries: -3).maximumRetries == 0)
        let odd = RetryPolicy(baseDelay: .nan, maximumDelay: .infinity, jitter: 7)
        #expect(odd.baseDelay == 0.5 && odd.maximumDelay == 4 && odd.jitter == 1)
    }

    @Test("which statuses are worth another try")
    func statuses() {
        #expect([404, 408, 429, 500, 503].allSatisfy(RetryPolicy.isRetryable(status:)))
        #expect(![400, 401, 403, 410].contains(where: RetryPolicy.isRetryable(status:)))
    }
}
