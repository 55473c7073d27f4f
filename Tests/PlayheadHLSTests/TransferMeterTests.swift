import Foundation
import PlayheadTestSupport
import Testing

@testable import PlayheadHLS

/// How a download is measured for the estimate (`TransferMeter`), by hand and through `SegmentLoader`.
@Suite("Transfer meter: what the estimator is given", .serialized)
struct TransferMeterTests {
    /// Request at 10 s, response at 10.5 s, chunks at 10.75, 10.875 (empty) and 11 s: the wait is left out; it is
    /// the time to first byte. Without a response noted, the first chunk is measured from the request.
    @Test("chunks are measured from the response, then from each other; the wait is the time to first byte")
    func byHand() {
        var meter = TransferMeter(requestedAt: 10)
        #expect(meter.timeToFirstByte == nil)
        meter.responded(at: 10.5)
        meter.responded(at: 10.7)
        #expect(meter.timeToFirstByte == 0.5)
        #expect(meter.chunk(bytes: 1000, at: 10.75) == .init(bytes: 1000, duration: 0.25, arrival: 10.75))
        // A body's skipped prefix: no bytes, but its time is not counted again.
        #expect(meter.chunk(bytes: 0, at: 10.875).duration == 0.125)
        #expect(meter.chunk(bytes: 1000, at: 11).duration == 0.125)
        var unanswered = TransferMeter(requestedAt: 10)
        #expect(unanswered.chunk(bytes: 1000, at: 10.75).duration == 0.75)
    }

    /// A 150 KB body on a link of 1.2 Mbit/s (150 KB/s) that answers each request after 1 s: the transfer takes
    /// about 1 s and the request about 2 s; the samples add up to the transfer alone, so the estimate is the link's
    /// rate (measured from the request it would be about half).
    @Test("the loader's samples leave out the wait for the response")
    func loaderLeavesOutTheWait() async throws {
        let folder = Paths.scratch("meter")
        try Data(repeating: 7, count: 150_000).write(to: folder.appendingPathComponent("segment.bin"))
        let origin = try TestOrigin(
            serving: folder, latencyTrace: [(seconds: 600, bitsPerSecond: 1_200_000, latency: 1)])
        let received = Received()
        let result = try await SegmentLoader().load(origin.url("segment.bin")) { received.add($0) }
        #expect(result.timeToFirstByte >= 0.95, "\(result)")
        let measured = received.all.reduce(0) { $0 + $1.duration }
        #expect(measured > 0.8 && measured < 1.5, "samples add up to \(measured) s of \(result.elapsed) s")
        var estimator = BandwidthEstimator(persistedEstimate: 100_000_000)
        for chunk in received.all {
            estimator.addSample(bytes: chunk.data.count, duration: chunk.duration, at: chunk.arrival)
        }
        #expect(estimator.estimate > 0.8 * 1_200_000 && estimator.estimate < 1.5 * 1_200_000, "\(estimator.estimate)")
    }
}
