import Foundation
import Playhead
import PlayheadAudio
import PlayheadCore
import PlayheadTestSupport
import Testing

/// A sound output that fails mid-item (the sound server went away for good): the item fails and its time stops
/// there (it ran on as if playing).
@MainActor @Suite(.serialized) struct OutputFailureTests {
    /// A real-time null output whose writes fail once `failing` is set.
    final class BreakingOutput: AudioOutput, @unchecked Sendable {
        let inner = NullAudioOutput()
        let failing = Locked(false)
        var name: String { "breaking" }
        var eventHandler: (@Sendable (AudioOutputEvent) -> Void)? {
            get { inner.eventHandler }
            set { inner.eventHandler = newValue }
        }
        func start(format: AudioFormat) throws(PlaybackError) { try inner.start(format: format) }
        func write(_ samples: UnsafeBufferPointer<Float>) throws(PlaybackError) -> Int {
            if failing.current { throw PlaybackError(.audioOutput, source: "breaking", reason: "the device went away") }
            return try inner.write(samples)
        }
        func interruptWrite() { inner.interruptWrite() }
        func resumeWrites() { inner.resumeWrites() }
        func setPaused(_ paused: Bool) { inner.setPaused(paused) }
        func flush() { inner.flush() }
        func drain() -> Bool { inner.drain() }
        func stop() { inner.stop() }
        var playPosition: Int64 { inner.playPosition }
        var writePosition: Int64 { inner.writePosition }
    }

    @Test func theTimeStopsWhereTheOutputFailed() async throws {
        let output = BreakingOutput()
        let player = Player()
        player.audioOutputChoice = .custom(output)
        defer { player.close() }
        let item = PlayerItem(url: try Fixtures.barsWithTone())
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { player.currentTime().seconds > 1 })
        output.failing.withLock { $0 = true }
        #expect(await eventually { item.status == .failed }, "the item did not fail")
        let failedAt = player.currentTime().seconds
        try await Task.sleep(for: .seconds(1))
        let later = player.currentTime().seconds
        #expect(later - failedAt < 0.05, "the time ran on from \(failedAt) to \(later) s")
        #expect(player.timeControlStatus != .playing, "\(player.timeControlStatus)")
    }
}
