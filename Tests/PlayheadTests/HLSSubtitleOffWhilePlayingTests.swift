import Foundation
import Playhead
import PlayheadTestSupport
import Testing

extension HLSSubtitleRenditionTests {
    /// Subtitles turned off while English ones show: the forced ones in the language heard show from then on, as
    /// when they are off from the start (none showed), and the selection says none (a cycle through the choices,
    /// `playhead`'s key j, goes on from none to the first).
    @Test func subtitlesTurnedOffWhilePlayingShowTheForcedOnes() async throws {
        let url = try HLSFixtures.url(try HLSFixtures.subtitledRenditionLadder())
        let asset = URLAsset(url: url)
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(asset: asset)
        item.trackSelection = AutomaticTrackSelection(languages: ["en"])
        let output = CaptureLegibleOutput(player)
        item.add(output)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(
            await eventually(timeout: 20) { player.currentTime().seconds > 1.3 }, "\(String(describing: item.error))")
        let switchedAt = player.currentTime().seconds
        item.select(nil, in: legible)
        #expect(await eventually(timeout: 10) { player.currentTime().seconds > 5.2 })
        #expect(item.currentMediaSelection.selectedMediaOption(in: legible) == nil)
        player.close()
        _ = sink.stopRecording()
        let changes = output.all.filter { $0.heard > switchedAt + 1 }
        let forced = changes.compactMap { Self.second(of: $0.texts, label: "forced") }
        #expect(!forced.isEmpty, "\(output.all.map { ($0.heard, $0.texts) })")
        #expect(!changes.contains { c in c.texts.contains { $0.hasPrefix("en ") } }, "\(changes.map(\.texts))")
    }
}
