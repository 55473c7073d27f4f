import PlayheadCore
import Testing

struct MediaTimeTests {
    @Test func secondsAndTimescales() {
        let t = MediaTime(value: 900, timescale: 600)
        #expect(t.seconds == 1.5)
        #expect(t.isNumeric)
        #expect(MediaTime(seconds: 1.5, preferredTimescale: 600) == t)
        #expect(MediaTime(value: 1, timescale: 2) == MediaTime(value: 300, timescale: 600))
        #expect(MediaTime(value: 1, timescale: 2).hashValue == MediaTime(value: 300, timescale: 600).hashValue)
        #expect(t.convertScale(1000) == MediaTime(value: 1500, timescale: 1000))
        #expect(MediaTime(value: 1, timescale: 3).convertScale(10).value == 3)
    }

    @Test func specialValues() {
        #expect(!MediaTime.invalid.isValid)
        #expect(MediaTime.invalid.seconds.isNaN)
        #expect(MediaTime.indefinite.isIndefinite && !MediaTime.indefinite.isNumeric)
        #expect(MediaTime.positiveInfinity.seconds == .infinity)
        #expect(MediaTime(seconds: .nan, preferredTimescale: 600) == .invalid)
        #expect(MediaTime(seconds: -.infinity, preferredTimescale: 600) == .negativeInfinity)
        #expect(MediaTime.negativeInfinity < .zero && .zero < MediaTime.positiveInfinity)
        #expect(MediaTime.positiveInfinity < MediaTime.indefinite)
    }

    @Test func arithmetic() {
        let a = MediaTime(value: 1, timescale: 3)
        let b = MediaTime(value: 1, timescale: 2)
        #expect(a + b == MediaTime(value: 5, timescale: 6))
        #expect(b - a == MediaTime(value: 1, timescale: 6))
        #expect(-a == MediaTime(value: -1, timescale: 3))
        #expect(a * 3 == MediaTime(value: 1, timescale: 1))
        #expect((a + .invalid) == .invalid)
        #expect((a + .indefinite).isIndefinite)
        #expect((MediaTime.positiveInfinity + a) == .positiveInfinity)
        #expect((MediaTime.positiveInfinity + .negativeInfinity) == .invalid)
        #expect(MediaTime.minimum(a, b) == a && MediaTime.maximum(a, b) == b)
        #expect(MediaTime(value: -3, timescale: 2).magnitude == MediaTime(value: 3, timescale: 2))
        #expect(MediaTime(seconds: 2, preferredTimescale: 600).multiplied(by: 1.5).seconds == 3)
    }

    @Test func comparisonAcrossTimescales() {
        let times = [
            MediaTime(value: 3, timescale: 1), MediaTime(value: 1, timescale: 1000), .zero,
            MediaTime(value: 2999, timescale: 1000), MediaTime(value: -1, timescale: 7),
        ]
        #expect(times.sorted().map(\.seconds) == [-1.0 / 7, 0, 0.001, 2.999, 3])
    }

    @Test func ranges() {
        let r = TimeRange(start: MediaTime(value: 1, timescale: 1), duration: MediaTime(value: 2, timescale: 1))
        #expect(r.end == MediaTime(value: 3, timescale: 1))
        #expect(r.containsTime(MediaTime(value: 2, timescale: 1)))
        #expect(!r.containsTime(MediaTime(value: 3, timescale: 1)))
        #expect(TimeRange(start: .zero, end: MediaTime(value: 5, timescale: 1)).duration.seconds == 5)
    }
}
