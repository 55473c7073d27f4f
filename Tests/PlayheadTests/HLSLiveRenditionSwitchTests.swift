import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// A live stream's sound rendition chosen while playing: switched in place as on VOD.
@MainActor @Suite(.serialized) struct HLSLiveRenditionSwitchTests {
    /// The test origin replays the rendition ladder as a plain live stream (2 s segments). Choosing the other
    /// language 8 s into playback (the window has moved on since the item opened) brings its tone without a gap,
    /// the position going on as the clock does, and each of the new rendition's segments is fetched once. With
    /// `renumbered`, the other rendition numbers its segments from 100 on (RFC 8216 allows it): its time stamps
    /// place it.
    @Test(arguments: [false, true])
    func choosingAnotherRenditionOfALiveStreamSwitchesWithoutAGap(renumbered: Bool) async throws {
        let path = try HLSFixtures.renditionLadder("renditions-ll", seconds: 48, audioSegmentSeconds: 2)
        let root = try HLSFixtures.root()
        var master = "live/\(path)"
        if renumbered {
            let text = try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
            let renamed = path.replacingOccurrences(of: "master.m3u8", with: "master-renumbered.m3u8")
            try text.replacingOccurrences(of: "a-de/index.m3u8", with: "a-de/index.m3u8?msn_offset=100")
                .write(to: root.appendingPathComponent(renamed), atomically: true, encoding: .utf8)
            master = "live/\(renamed)"
        }
        let origin = try TestOrigin(serving: root)
        // The stream starts with its first request: joined 10 s later, the play head is segments into it.
        _ = try Data(contentsOf: origin.url("live/renditions-ll/v0/index.m3u8"))
        try await Task.sleep(for: .seconds(10))
        let asset = URLAsset(url: origin.url(master))
        let group = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        let first = try #require(group.defaultOption)
        let other = try #require(group.options.first { $0 != first })
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        let item = PlayerItem(asset: asset)
        // The pictures decoded and shown, as in a window: the video's reads go on beside the sound's.
        item.add(CaptureVideoOutput { _ in 0 })
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(
            await eventually(timeout: 25) { player.currentTime().seconds > 8 }, "\(String(describing: item.error))")
        let landed = sink.samplesSoFar.count
        let (position, asked) = (player.currentTime().seconds, MonotonicClock.now())
        item.select(other, in: group)
        #expect(await eventually(timeout: 10) { item.currentMediaSelection.selectedMediaOption(in: group) == other })
        #expect(await eventually(timeout: 10) { player.currentTime().seconds > position + 5 })
        let (now, elapsed) = (player.currentTime().seconds, MonotonicClock.now() - asked)
        #expect(abs(now - position - elapsed) < 0.3, "switched at \(position), \(elapsed) s later at \(now)")
        let heard = Array(sink.samplesSoFar.dropFirst(landed))
        let tones = AudioAnalysis.toneSequence(heard)
        #expect(
            tones.last == renditionTone(other)
                && Set(tones).isSubset(of: [renditionTone(first), renditionTone(other)]), "\(tones)")
        #expect(AudioAnalysis.longestGap(heard) < 0.05, gapMessage(heard))
        #expect(item.error == nil, "\(String(describing: item.error))")
        let directory = "/a-\(other.extendedLanguageTag ?? "")/seg"
        let segments = origin.requests.filter { $0.contains(directory) }
        #expect(!segments.isEmpty && Set(segments).count == segments.count, "fetched twice: \(segments)")
    }
}
