import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// How a live stream whose origin is gone for good ends.
@MainActor @Suite(.serialized) struct HLSLiveFailureTests {
    /// The origin answers 404 for good while a plain live stream plays: the buffer runs out (a stall), the
    /// playlist's retries run out, and the item fails, without playback resuming in between: reading ended with the
    /// error and nothing left to play, so the stall's end is not announced (it was: "stalled", "resumed", then the
    /// error, and a player showing "playing" for a moment).
    @Test func aStallThatEndsInTheStreamsFailureIsNotAResume() async throws {
        _ = try HLSFixtures.tsLadder("ladder-long", seconds: 48)
        let origin = try TestOrigin(serving: try HLSFixtures.root())
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        defer { player.close() }
        let events = player.events()
        let seen = Task { @MainActor in
            var names: [String] = []
            for await event in events {
                names.append(event.name)
                if case .error = event.kind { break }
            }
            return names
        }
        let url = origin.url("live/ladder-long/v0/index.m3u8")
        // The stream begins with its first request: 8 s later it lists four segments.
        _ = try await Task.detached { try Data(contentsOf: url) }.value
        try await Task.sleep(for: .seconds(8))
        let asset = URLAsset(url: url, options: [.networkTimeout: 2, .hlsRetries: 2])
        let item = PlayerItem(asset: asset)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { player.currentTime().seconds > 1 }, "\(String(describing: item.error))")
        try origin.fail(status: 404)
        #expect(await eventually(timeout: 40) { item.status == .failed }, "did not fail")
        player.finishEventStreams()
        let names = await seen.value
        let stall = try #require(names.lastIndex(of: "stalled"), "no stall before the failure: \(names)")
        #expect(!names[stall...].contains("resumed"), "\(names)")
        #expect(names.last == "error", "\(names)")
    }
}
