import Foundation
import Playhead
import PlayheadAudio
import PlayheadCore
import PlayheadTestSupport
import Testing

/// The player's commands reach its periods and its sound through its playback loop: the main actor posts and
/// returns, and the loop carries them out in order. An output that keeps every call waiting (as a sound server
/// connection whose lock is held by a long round trip does) never holds the main actor, and what was asked still
/// happens, in the order asked.
@MainActor @Suite(.serialized) struct PlaybackLoopTests {
    /// A real-time null output whose cork, write interruption and close each take `delay` seconds, recording the
    /// calls in order. Any thread.
    final class SlowOutput: AudioOutput, @unchecked Sendable {
        private let inner = NullAudioOutput(untimed: false)
        let delay: Double
        /// The calls that waited, in the order they were made.
        let calls = Locked([String]())
        /// Whether calls wait now (not while the test sets the player up).
        let slow = Locked(false)

        init(delay: Double) { self.delay = delay }

        private func wait(_ call: String) {
            guard slow.current else { return }
            Thread.sleep(forTimeInterval: delay)
            calls.withLock { $0.append(call) }
        }

        var name: String { "slow" }
        var eventHandler: (@Sendable (AudioOutputEvent) -> Void)? {
            get { inner.eventHandler }
            set { inner.eventHandler = newValue }
        }
        func start(format: AudioFormat) throws(PlaybackError) { try inner.start(format: format) }
        func write(_ samples: UnsafeBufferPointer<Float>) throws(PlaybackError) -> Int { try inner.write(samples) }
        func interruptWrite() {
            wait("interrupt")
            inner.interruptWrite()
        }
        func resumeWrites() { inner.resumeWrites() }
        func setPaused(_ paused: Bool) {
            wait(paused ? "cork" : "uncork")
            inner.setPaused(paused)
        }
        func flush() { inner.flush() }
        func drain() -> Bool { inner.drain() }
        func stop() {
            wait("stop")
            inner.stop()
        }
        var playPosition: Int64 { inner.playPosition }
        var writePosition: Int64 { inner.writePosition }
    }

    /// Runs `body` on the main actor and returns how long it held it, in seconds.
    private func held(_ body: () -> Void) -> Double {
        let start = MonotonicClock.now()
        body()
        return MonotonicClock.now() - start
    }

    @Test func anOutputThatKeepsEveryCallWaitingNeverHoldsTheMainActor() async throws {
        let tone = try Fixtures.tone(seconds: 10)
        let output = SlowOutput(delay: 0.25)
        let player = Player()
        player.audioOutputChoice = .custom(output)
        player.replaceCurrentItem(with: PlayerItem(url: tone))
        player.play()
        #expect(await eventually { player.timeControlStatus == .playing })
        try await Task.sleep(for: .milliseconds(300))
        output.slow.withLock { $0 = true }

        // Without the loop each of these waited for the output on the main actor: 250 ms and more.
        let pause = held { player.pause() }
        #expect(pause < 0.1, "pause held the main actor \(Int(pause * 1000)) ms")
        #expect(player.timeControlStatus == .paused)
        #expect(await eventually(timeout: 3) { output.calls.current.contains("cork") }, "the pause never corked")
        let resume = held { player.play() }
        #expect(resume < 0.1, "play held the main actor \(Int(resume * 1000)) ms")
        #expect(await eventually(timeout: 3) { output.calls.current.contains("uncork") }, "play never uncorked")
        let close = held { player.close() }
        #expect(close < 0.1, "close held the main actor \(Int(close * 1000)) ms")
        #expect(await eventually(timeout: 5) { output.calls.current.last == "stop" }, "close never closed the output")
        // Carried out in the order asked: the cork of the pause before the uncork of the play, the close last.
        let calls = output.calls.current
        let cork = try #require(calls.firstIndex(of: "cork"))
        let uncork = try #require(calls.firstIndex(of: "uncork"))
        #expect(cork < uncork, "carried out out of order: \(calls)")
        #expect(await Player.waitForPlaybackThreads(upTo: 5), "the player's threads did not end after close")
    }
}
