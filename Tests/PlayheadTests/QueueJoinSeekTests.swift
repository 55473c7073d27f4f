import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// A seek in the last moment of a queue item, after the next item's first samples were already written behind
/// its last one (the output handed over, not yet heard): the next item's sound is taken back, the earlier item
/// plays on from the seek's target, and the queue then goes on as before.
@MainActor @Suite(.serialized) struct QueueJoinSeekTests {
    @Test func aSeekBackJustBeforeTheJoinTakesTheNextItemBack() async throws {
        let sink = try TestSink()
        let items = try [440, 660].map { PlayerItem(url: try Fixtures.tone(seconds: 2, frequency: $0, ext: "wav")) }
        let player = QueuePlayer()
        player.audioOutputChoice = .pulse(device: sink.name)
        for item in items { player.insert(item, after: nil) }
        // 0.1 s before the join is heard: the first item's last sample has long been written (the output holds
        // 0.3 s), so the second item's first samples are already in the stream.
        let seeked = Locked(false)
        let token = player.addBoundaryTimeObserver(forTimes: [MediaTime(seconds: 1.9, preferredTimescale: 600)]) {
            MainActor.assumeIsolated {
                guard !seeked.withLock({ $0 }), player.currentItem === items[0] else { return }
                seeked.withLock { $0 = true }
                player.seek(to: MediaTime(seconds: 0.5, preferredTimescale: 600))
            }
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
}
