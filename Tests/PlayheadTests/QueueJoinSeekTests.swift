import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// A seek in the last moment of a queue item, after the next item's first samples were already written behind
/// its last one (the output handed over, not yet heard): the next item's sound is taken back, the earlier item
/// plays on from the seek's target, and the queue then goes on as before.
@MainActor @Suite(.serialized) struct QueueJoinSeekTests {
    /// A queue of two 2 s tones (440 Hz, then 660 Hz) on a fresh sink, which does `act` once when the first item
    /// reaches `seconds` (its last sample long written: the output holds 0.3 s, so the second item's first samples
    /// are already in the stream); the observer's token, and whether `act` was done.
    func twoTones(
        acting seconds: Double, _ act: @escaping @MainActor @Sendable (QueuePlayer) -> Void
    ) throws -> (
        sink: TestSink, items: [PlayerItem], player: QueuePlayer, token: TimeObserverToken, acted: Locked<Bool>
    ) {
        let sink = try TestSink()
        let items = try [440, 660].map { PlayerItem(url: try Fixtures.tone(seconds: 2, frequency: $0, ext: "wav")) }
        let player = QueuePlayer()
        player.audioOutputChoice = .pulse(device: sink.name)
        for item in items { player.insert(item, after: nil) }
        let acted = Locked(false)
        let first = items[0]
        let token = player.addBoundaryTimeObserver(forTimes: [MediaTime(seconds: seconds, preferredTimescale: 600)]) {
            [weak player] in
            MainActor.assumeIsolated {
                guard let player, !acted.withLock({ $0 }), player.currentItem === first else { return }
                acted.withLock { $0 = true }
                act(player)
            }
        }
        return (sink, items, player, token, acted)
    }

    @Test func aSeekBackJustBeforeTheJoinTakesTheNextItemBack() async throws {
        // 0.1 s before the join is heard.
        let (sink, items, player, token, seeked) = try twoTones(acting: 1.9) {
            $0.seek(to: MediaTime(seconds: 0.5, preferredTimescale: 600))
        }
        player.play()
        #expect(await eventually(timeout: 5) { seeked.withLock { $0 } }, "the boundary observer never fired")
        #expect(player.currentItem === items[0], "the seek did not keep the first item current")
        #expect(await eventually(timeout: 8) { player.currentItem === items[1] }, "the queue did not go on")
        #expect(await eventually(timeout: 5) { player.currentItem == nil })
        player.removeTimeObserver(token)
        let samples = sink.stopRecording()
        #expect(AudioAnalysis.toneSequence(samples) == [440, 660], "\(AudioAnalysis.toneSequence(samples))")
        // 1.9 s of the first item, then its last 1.5 s again, then the second item.
        let heard = AudioAnalysis.audibleSeconds(samples)
        #expect(abs(heard - 5.4) < 0.15, "heard \(heard) s, not 1.9 + 1.5 + 2 s")
        player.close()
    }

    /// A pause in the last moment of an item, after the output was handed to the next one: nothing more is heard,
    /// so the item does not change while paused (however long) and the loop watching the join sleeps; after play
    /// it changes when the next item's first sample is heard, which starts at its beginning.
    @Test func aPauseJustBeforeTheJoinHoldsTheItemChangeUntilItIsHeard() async throws {
        let (sink, items, player, token, paused) = try twoTones(acting: 1.85) { $0.pause() }
        player.play()
        #expect(await eventually(timeout: 5) { paused.withLock { $0 } }, "the boundary observer never fired")
        try await Task.sleep(for: .seconds(0.2))
        let before = ThreadActivity.sample()
        try await Task.sleep(for: .seconds(1.5))
        // The loop watching the join sleeps while paused: it does not look again and again.
        let loopWakeups =
            ThreadActivity.difference(before, ThreadActivity.sample())
            .filter { $0.thread.hasPrefix("playhead.loop#") }.map(\.wakeups).max() ?? 0
        let stillFirst = player.currentItem === items[0]
        let heldAt = player.currentTime().seconds
        player.play()
        #expect(await eventually(timeout: 2) { player.currentItem === items[1] }, "the queue did not go on")
        let startedAt = player.currentTime().seconds
        #expect(await eventually(timeout: 5) { player.currentItem == nil })
        player.removeTimeObserver(token)
        let samples = sink.stopRecording()
        player.close()
        #expect(stillFirst, "the item changed while paused")
        #expect(loopWakeups <= 3, "the playback loop woke \(loopWakeups) times in 1.5 s paused")
        #expect(heldAt > 1.8 && heldAt < 2.0, "paused at \(heldAt) s of the first item")
        #expect(startedAt < 0.1, "the second item's time was \(startedAt) s when it became current")
        // The pause is silence between the tones (0); the sound of both items is heard whole, once.
        let tones = AudioAnalysis.toneSequence(samples).filter { $0 != 0 }
        let distinct = tones.enumerated().filter { $0.offset == 0 || tones[$0.offset - 1] != $0.element }.map(\.element)
        #expect(distinct == [440, 660], "\(AudioAnalysis.toneSequence(samples))")
        let heard = AudioAnalysis.audibleSeconds(samples)
        #expect(abs(heard - 4) < 0.15, "heard \(heard) s, not 2 + 2 s")
    }
}
