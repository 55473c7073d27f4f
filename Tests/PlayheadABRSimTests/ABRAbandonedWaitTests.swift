import PlayheadHLS
import Testing

@testable import PlayheadABRSim

/// What a download given up teaches the simulated player's estimator, as it teaches `HLSSource`'s.
@Suite struct ABRAbandonedWaitTests {
    /// Given up 1.2 s after its request on a link that answers after 1.5 s: the latency learns the 1.2 s it waited (a
    /// lower bound), not nothing; after a rise in latency the downloads given up for it would otherwise teach
    /// nothing, and the next ones be judged by the old wait. Answered before it was given up, its answer's wait.
    @Test func aDownloadGivenUpCountsItsWaitInTheLatency() throws {
        let movie = try flatMovie(kbps: [500, 1000], duration: 2, count: 1)
        let trace = try ABRTrace.constant(kbps: 2000, latencyMs: 1500)
        let context = ABRContext(
            movie: movie, segment: 0, buffer: 10, current: 1, time: 1.2, isPlaying: true, maximumBuffer: 25)
        var controller = PlayheadController()
        var unanswered = ABRTransfer(
            trace: trace, segment: 0, rung: 1, start: 0, firstBit: 1.5, now: 1.2, size: 2e6)
        unanswered.abandoned = true
        controller.didDownload(unanswered, context: context)
        #expect(abs(controller.estimator.latency - 1.2) < 1e-9, "\(controller.estimator.latency)")
        var answered = PlayheadController()
        var late = ABRTransfer(trace: trace, segment: 0, rung: 1, start: 0, firstBit: 1.5, now: 1.8, size: 2e6)
        late.abandoned = true
        answered.didDownload(late, context: context)
        #expect(abs(answered.estimator.latency - 1.5) < 1e-9, "\(answered.estimator.latency)")
    }
}
