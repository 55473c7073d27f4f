import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// `PlayerItem.step(byCount:)` on frame-numbered video (25 fps, keyframes every 50 frames): each step shows the
/// picture it names, whatever the keyframes, and the player stays paused.
@MainActor @Suite(.serialized) struct FrameStepTests {
    func opened(_ url: URL) async throws -> (Player, PlayerItem, CaptureVideoOutput) {
        let capture = CaptureVideoOutput.numbered()
        let player = try await Player.openedPaused(url, showing: capture)
        return (player, try #require(player.currentItem), capture)
    }

    /// Forward one, two at once, back across a keyframe, and past either end: the picture shown is the one named.
    @Test func stepsShowTheNamedPictures() async throws {
        let (player, item, capture) = try await opened(try Fixtures.numberedVideo())
        #expect(item.canStepForward && item.canStepBackward)
        item.step(byCount: 1)
        #expect(await eventually { capture.frames.last?.value == 1 }, "\(capture.frames.suffix(3).map(\.value))")
        // Asked at once, the second step goes on from where the first one lands.
        item.step(byCount: 1)
        item.step(byCount: 1)
        #expect(await eventually { capture.frames.last?.value == 3 }, "\(capture.frames.suffix(3).map(\.value))")
        let frame51 = MediaTime(value: 51, timescale: 25)
        #expect(await player.seek(to: frame51, toleranceBefore: .zero, toleranceAfter: .zero))
        #expect(await eventually { capture.frames.last?.value == 51 })
        // Back over the keyframe at 50: decoded from the keyframe at 0.
        item.step(byCount: -2)
        #expect(await eventually { capture.frames.last?.value == 49 }, "\(capture.frames.suffix(3).map(\.value))")
        #expect(abs(player.currentTime().seconds - 49.0 / 25) < 0.02, "at \(player.currentTime().seconds)")
        item.step(byCount: -100)
        #expect(await eventually { capture.frames.last?.value == 0 }, "\(capture.frames.suffix(3).map(\.value))")
        item.step(byCount: 1000)
        #expect(await eventually { capture.frames.last?.value == 249 }, "\(capture.frames.suffix(3).map(\.value))")
        try await Task.sleep(for: .milliseconds(300))
        #expect(player.rate == 0 && capture.frames.last?.value == 249, "\(capture.frames.suffix(3).map(\.value))")
    }

    /// Trick play: forward at any rate the player takes once ready, never backwards.
    @Test func ratesAnItemPlaysAt() async throws {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: try Fixtures.numberedVideo())
        #expect(!item.canPlayFastForward && !item.canPlaySlowForward, "before it is ready")
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .readyToPlay })
        #expect(item.canPlayFastForward && item.canPlaySlowForward)
        #expect(!item.canPlayReverse && !item.canPlaySlowReverse && !item.canPlayFastReverse)
    }

    /// Sound alone has no pictures to step through: nothing moves.
    @Test func soundAloneCannotStep() async throws {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: try Fixtures.tone(seconds: 2, ext: "wav"))
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .readyToPlay })
        #expect(!item.canStepForward && !item.canStepBackward)
        item.step(byCount: 1)
        try await Task.sleep(for: .milliseconds(200))
        // Paused at the start (the output's first samples may read a few hundredths of a millisecond).
        #expect(player.currentTime().seconds < 0.005, "moved to \(player.currentTime().seconds)")
    }
}
