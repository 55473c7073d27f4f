import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Seeks asked quickly one after another while a video plays (an arrow key held down): every stall reported has
/// its end, and the player plays on. A QA pass found the player "buffering" for good after eight quick presses: a
/// stall began between two seeks, reported, and the next seek silenced its end.
@MainActor @Suite(.serialized) struct QuickSeekStallTests {
    @Test func quickSeeksLeaveNoStallWithoutItsEnd() async throws {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        let item = PlayerItem(url: try Fixtures.numberedVideo())
        item.add(CaptureVideoOutput.numbered())
        let events = Locked([String]())
        let stream = player.events()
        let listener = Task {
            for await e in stream { events.withLock { $0.append(e.name) } }
        }
        defer { listener.cancel() }
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { player.currentTime().seconds > 0.5 })
        for round in 0..<3 {
            for step in 0..<6 {
                let target = MediaTime(seconds: Double(round * 2 + step) * 0.5 + 1, preferredTimescale: 1000)
                player.seek(to: target, toleranceBefore: .zero, toleranceAfter: .zero) { _ in }
                try await Task.sleep(for: .milliseconds(3 + 4 * step))
            }
            try await Task.sleep(for: .milliseconds(700))
        }
        #expect(await eventually(timeout: 3) { player.timeControlStatus == .playing }, "\(player.timeControlStatus)")
        let names = events.current
        let stalls = names.filter { $0 == "stalled" }.count
        let ends = names.filter { $0 == "resumed" }.count
        let told = names.filter { $0 == "stalled" || $0 == "resumed" }
        #expect(stalls == ends, "\(stalls) stalls, \(ends) ends: \(told)")
    }
}
