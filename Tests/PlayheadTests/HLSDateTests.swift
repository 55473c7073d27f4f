import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// `PlayerItem.currentDate()` and `seek(to: Date)` on an HLS stream dated by `EXT-X-PROGRAM-DATE-TIME`, whose
/// dates jump two hours at a discontinuity (`HLSFixtures.datedStream`: 10:00:00 for 4 s, then 12:00:00).
@MainActor @Suite(.serialized) struct HLSDateTests {
    static func date(_ time: String) -> Date { ISO8601DateFormatter().date(from: "2026-01-01T\(time)Z")! }

    func seconds(_ date: Date?, after time: String) -> Double { date?.timeIntervalSince(Self.date(time)) ?? .nan }

    @Test func datesFollowTheTagsAndASeekToADateLandsThere() async throws {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: try HLSFixtures.url(try HLSFixtures.datedStream()))
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .readyToPlay }, "\(String(describing: item.error))")
        #expect(await eventually { item.currentDate() != nil }, "no date")
        #expect(
            abs(seconds(item.currentDate(), after: "10:00:00")) < 0.05, "\(String(describing: item.currentDate()))")
        let at = MediaTime(seconds: 1.5, preferredTimescale: 1000)
        #expect(await player.seek(to: at, toleranceBefore: .zero, toleranceAfter: .zero))
        let later = seconds(item.currentDate(), after: "10:00:00")
        #expect(abs(later - 1.5) < 0.05, "\(later) s after 10:00:00")

        // Past the discontinuity: the second recording's dates, 4 s into the item.
        let done = Locked<Bool?>(nil)
        #expect(item.seek(to: Self.date("12:00:01")) { finished in done.withLock { $0 = finished } })
        #expect(await eventually { done.current != nil })
        #expect(done.current == true)
        #expect(abs(player.currentTime().seconds - 5) < 0.05, "landed at \(player.currentTime().seconds)")
        #expect(
            abs(seconds(item.currentDate(), after: "12:00:01")) < 0.05, "\(String(describing: item.currentDate()))")

        // Dates the stream does not hold: nothing moves.
        for missing in ["11:00:00", "09:59:00", "12:00:30"] {
            #expect(!item.seek(to: Self.date(missing)), "\(missing)")
        }
        try await Task.sleep(for: .milliseconds(200))
        #expect(abs(player.currentTime().seconds - 5) < 0.05, "moved to \(player.currentTime().seconds)")
    }

    /// A file has no dates: none, and a seek to a date is refused.
    @Test func aFileHasNoDates() async throws {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: try Fixtures.tone(seconds: 2, ext: "wav"))
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .readyToPlay })
        #expect(item.currentDate() == nil)
        #expect(!item.seek(to: Date()))
    }
}
