import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// `Player.events()` streams and their end: `finishEventStreams()` ends them after the events already in them,
/// and playback goes on.
@MainActor @Suite(.serialized) struct PlayerEventStreamTests {
    @Test func finishingTheStreamsKeepsTheirEventsAndThePlayback() async throws {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        defer { player.close() }
        let stream = player.events()
        let read = Locked<[String]?>(nil)
        let reader = Task {
            var names: [String] = []
            for await e in stream { names.append(e.name) }
            read.withLock { $0 = names }
        }
        defer { reader.cancel() }
        player.replaceCurrentItem(with: PlayerItem(url: try Fixtures.tone(seconds: 6, ext: "wav")))
        player.play()
        #expect(await eventually { player.currentTime().seconds > 0.5 })
        // Three rate changes in one turn of the main actor, then the end: the reader has not seen them yet.
        player.pause()
        player.play()
        player.pause()
        player.finishEventStreams()
        #expect(await eventually(timeout: 5) { read.withLock { $0 != nil } }, "the stream did not end")
        let names = read.withLock { $0 } ?? []
        #expect(names.suffix(3) == ["rate-changed", "rate-changed", "rate-changed"], "\(names)")
        #expect(names.contains("ready"), "\(names)")
        // Playback is the player's as before, and a new stream hears it.
        let later = player.events()
        player.play()
        let heard = Locked(false)
        let listener = Task {
            for await e in later where e.name == "rate-changed" { heard.withLock { $0 = true } }
        }
        defer { listener.cancel() }
        let position = player.currentTime().seconds
        #expect(await eventually { player.currentTime().seconds > position + 0.3 }, "the player stopped")
        player.pause()
        #expect(await eventually(timeout: 5) { heard.withLock { $0 } }, "a new stream heard nothing")
    }
}
