import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// `PlayerItem.subtitleDelay` (mpv's `--sub-delay`): the cues show that much later, or earlier, than their time
/// stamps say; a change applies at once, paused too.
@MainActor @Suite(.serialized) struct SubtitleDelayTests {
    /// Every change of the cues comes `delay` after its own time (0.3 s later; 0.2 s earlier), as heard.
    @Test(arguments: [0.3, -0.2]) func cuesShowThatMuchLaterOrEarlier(delay: Double) async throws {
        let media = try Fixtures.subtitled(container: "mkv", codec: "srt", timeScale: 0.5)
        let changes = try await CaptureLegibleOutput.played(media) { $0.subtitleDelay = delay }.all
        let boundaries = Fixtures.subtitleCues(timeScale: 0.5).flatMap { [$0.start + delay, $0.end + delay] }
        #expect(changes.count == boundaries.count, "told \(changes.map(\.texts))")
        for (change, due) in zip(changes, boundaries) {
            #expect(
                change.heard >= due - 0.01 && change.heard <= due + 0.07,
                "\(change.texts) shown when \(change.heard) s was heard, due at \(due) s")
        }
    }

    /// Paused on a cue: a delay that moves it away clears the screen at once, and 0 brings it back.
    @Test func aChangeAppliesAtOnceWhilePaused() async throws {
        let media = try Fixtures.subtitled(container: "mkv", codec: "srt")
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        let item = PlayerItem(url: media)
        let output = CaptureLegibleOutput(player)
        item.add(output)
        player.replaceCurrentItem(with: item)
        #expect(await eventually { item.status == .readyToPlay })
        let at = MediaTime(seconds: 2.8, preferredTimescale: 1000)
        #expect(await player.seek(to: at, toleranceBefore: .zero, toleranceAfter: .zero))
        #expect(await eventually { output.all.last?.texts == ["Two\nlines"] }, "\(output.all.map(\.texts))")
        item.subtitleDelay = 10
        #expect(await eventually { output.all.last?.texts == [] }, "\(output.all.map(\.texts))")
        item.subtitleDelay = .nan
        #expect(item.subtitleDelay == 0)
        #expect(await eventually { output.all.last?.texts == ["Two\nlines"] }, "\(output.all.map(\.texts))")
    }
}
