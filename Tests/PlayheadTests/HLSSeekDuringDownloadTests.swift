import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// A seek while a segment downloads over a slow link: the download is dropped and the target's segment fetched at
/// once, instead of the seek waiting for bytes it will not play.
@MainActor @Suite(.serialized) struct HLSSeekDuringDownloadTests {
    @Test func aSeekDropsTheSegmentDownloadInFlight() async throws {
        let master = try HLSFixtures.tsLadder("ladder-long", seconds: 48)
        // 400 kb/s: a 2 s segment of the 360p variant (510 kb/s) takes about 2.5 s.
        let origin = try TestOrigin(serving: try HLSFixtures.root(), trace: [(seconds: 1000, bitsPerSecond: 400_000)])
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: origin.url(master))
        item.preferredPeakBitRate = 600_000
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .readyToPlay }, "\(String(describing: item.error))")
        // Wait until a new segment download has just begun.
        let count = origin.requests.filter { $0.contains(".ts") }.count
        #expect(await eventually(timeout: 10) { origin.requests.filter { $0.contains(".ts") }.count > count })
        let inFlight = origin.requests.last { $0.contains(".ts") } ?? ""
        let asked = Date()
        let seek = Task { await player.seek(to: MediaTime(value: 30, timescale: 1)) }
        // 30 s lies in seg15: asked for long before the download in flight could have ended.
        #expect(await eventually(timeout: 10) { origin.requests.contains { $0.contains("/v0/seg15.ts") } })
        let waited = Date().timeIntervalSince(asked)
        #expect(waited < 1.0, "the seek waited \(waited) s for the download in flight (\(inFlight))")
        let path = inFlight.split(separator: " ").dropFirst().first.map(String.init) ?? "?"
        #expect(
            await eventually { origin.bodies.contains { $0.contains(path) && $0.hasSuffix("aborted") } },
            "\(origin.bodies.suffix(4))")
        #expect(await seek.value)
        #expect(abs(player.currentTime().seconds - 30) < 2.5, "at \(player.currentTime().seconds) s")
        try await Task.sleep(for: .seconds(2))
        #expect(player.currentTime().seconds > 30, "not playing on from the target")
        #expect(item.error == nil, "\(String(describing: item.error))")
        let samples = sink.stopRecording()
        #expect(abs(AudioAnalysis.frequency(Array(samples.suffix(24_000))) - 400) < 4)
        player.pause()
    }
}
