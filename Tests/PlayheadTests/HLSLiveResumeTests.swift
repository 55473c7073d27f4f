import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// A live item paused long enough for its play head to leave the window resumes at the live start point of the
/// window as it is at the resume (HOLD-BACK from the edge), not where the window was when the play head left it.
extension HLSLiveTests {
    @Test func aLongPauseResumesAtTheLiveStartPointOfTheWindowNow() async throws {
        let stream = try LiveStreams.stream("live-long-window")
        try stream.waitForSegments(10)
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        let item = PlayerItem(url: try HLSFixtures.url(stream.path))
        item.preferredForwardBufferDuration = 2
        let jumps = Locked([(from: Double, to: Double)]())
        let events = player.events()
        Task { @MainActor in
            for await e in events {
                if case .timeJumped(let from, let to) = e.kind { jumps.withLock { $0.append((from, to)) } }
            }
        }
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .readyToPlay }, "\(String(describing: item.error))")
        try await Task.sleep(for: .seconds(2))
        player.pause()
        // 26 s paused: the window (10 segments, 20 s) leaves the play head behind after about 16 s, and moves on
        // 10 s more.
        try await Task.sleep(for: .seconds(26))
        let window = try #require(item.seekableTimeRanges.first)
        player.play()
        #expect(await eventually(timeout: 20) { !jumps.current.isEmpty }, "no time jump")
        let jump = try #require(jumps.current.first)
        let now = try #require(item.seekableTimeRanges.first)
        // The live start point of the window at the resume (a reload may come between: one segment later at most).
        #expect(
            jump.to >= window.end.seconds - 0.1 && jump.to <= now.end.seconds + 0.1,
            "jumped to \(jump.to); the live start point was \(window.end.seconds), then \(now.end.seconds)")
        #expect(await eventually { player.currentTime().seconds >= jump.to + 1 }, "not playing after the jump")
        #expect(item.error == nil, "\(String(describing: item.error))")
    }
}
