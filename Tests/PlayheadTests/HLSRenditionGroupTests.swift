import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// An ABR switch to a variant naming another audio group (stereo AAC to AC-3 5.1): the sound moves to that
/// group's equivalent rendition in place, with no gap, and the choice offered stays one option. The test origin
/// paces every body to a 16 Mb/s link, so the throughput is measured and allows the 720p variant.
@MainActor @Suite(.serialized) struct HLSRenditionGroupTests {
    @Test func aVariantSwitchAcrossAudioGroupsIsGapless() async throws {
        let origin = try TestOrigin(serving: try HLSFixtures.root(), trace: [(seconds: 1000, bitsPerSecond: 16e6)])
        let asset = URLAsset(url: origin.url(try HLSFixtures.groupedRenditionLadder()))
        func requests(since: Int) -> [String] {
            origin.requests.dropFirst(since).compactMap { $0.split(separator: " ").dropFirst().first.map(String.init) }
        }
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        // One "English" in two groups is one choice.
        #expect(group.options.map(\.displayName) == ["English"], "\(group.options)")
        let english = try #require(group.options.first)

        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        let item = PlayerItem(asset: asset)
        // The 360p variant (group "stereo") first.
        item.preferredMaximumResolution = Size(width: 640, height: 360)
        // A short buffer, so that segments remain to be fetched when the cap goes.
        item.preferredForwardBufferDuration = 4
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(
            await eventually(timeout: 20) { player.currentTime().seconds > 2 }, "\(String(describing: item.error))")
        #expect(item.currentMediaSelection.selectedMediaOption(in: group) == english)
        let before = origin.requests.count
        let landed = sink.samplesSoFar.count
        // The cap goes: the 720p variant, whose sound is the "surround" group's.
        item.preferredMaximumResolution = .zero
        #expect(
            await eventually(timeout: 10) {
                requests(since: before).contains { $0.contains("/a-surround/seg") }
            }, "\(requests(since: before))")
        #expect(await eventually(timeout: 10) { player.currentTime().seconds > 9 })
        player.pause()
        let heard = Array(sink.samplesSoFar.dropFirst(landed))
        let tones = AudioAnalysis.toneSequence(heard)
        #expect(tones == [440, 660], "heard \(tones)")
        let gap = AudioAnalysis.longestGap(heard)
        #expect(gap < 0.02, "a gap of \(gap) s (underflows: \(PlaybackCounters.audioUnderflows))")
        // Still the one English choice, now played by the other group's rendition.
        #expect(item.currentMediaSelection.selectedMediaOption(in: group) == english)
        #expect(item.error == nil, "\(String(describing: item.error))")
        let asked = requests(since: before)
        #expect(asked.contains { $0.contains("/grouped-renditions/v1/seg") }, "\(asked)")
    }
}
