import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Time stamps that jump where recordings were joined.
extension SeekAndSyncTests {
    /// Two MPEG-TS recordings joined end to end, the second's time stamps 86 s before the first's end: the second
    /// plays on after the first in time, its flashes shown on the clock, a second apart as its beeps are heard.
    /// (The clock ran on from the first while the second's pictures were 86 s late: hurried past and dropped, with a
    /// stall.)
    @Test func recordingsJoinedEndToEndPlayOnInStep() async throws {
        let (flashes, beeps) = try await flashesAndBeeps(try Fixtures.flashAndBeepJoinedAtAJump(), until: 11.5)
        // Flashes at 1-5 s of each 6 s recording.
        #expect(
            flashes.map { Int($0.time.rounded()) } == [1, 2, 3, 4, 5, 7, 8, 9, 10, 11],
            "flashes seen at \(flashes.map(\.time))")
        expectShownOnTheClock(flashes, "recordingsJoinedEndToEndPlayOnInStep")
        let shown = zip(flashes.dropFirst(), flashes).map { $0.at - $1.at }
        let expected: [Double] = [1, 1, 1, 1, 2, 1, 1, 1, 1]
        #expect(
            shown.count == 9 && zip(shown, expected).allSatisfy { abs($0 - $1) < 0.1 }, "flashes shown \(shown) s apart"
        )
        // The sound goes on without a gap: each recording's beeps a second apart, and 2 s across the join plus the
        // AAC priming and padding of the two recordings there (37 ms; MPEG-TS does not say how much to trim).
        let heard = zip(beeps.dropFirst(), beeps).map { $0 - $1 }
        #expect(
            heard.count == 9
                && zip(heard, expected).allSatisfy { abs($0 - $1) < 0.02 || ($1 == 2 && abs($0 - 2.037) < 0.01) },
            "beeps heard at \(beeps)")
    }
}
