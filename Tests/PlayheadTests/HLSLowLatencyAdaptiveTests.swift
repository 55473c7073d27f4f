import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Low-latency HLS with adaptive bitrate: the test origin serves the fMP4 ladder's multivariant playlist with each
/// variant a low-latency live playlist (0.5 s parts at `moof` boundaries, blocking reloads, one clock for the whole
/// ladder) while replaying a bandwidth trace on one shared link.
@MainActor @Suite(.serialized) struct HLSLowLatencyAdaptiveTests {
    @Test func switchesDownAtASegmentBoundaryWhenTheBandwidthDropsWithoutAStall() async throws {
        _ = try HLSFixtures.tsLadder("ladder-ll-fmp4", seconds: 48, fmp4: true, fragmentSeconds: 0.5)
        // 8 Mb/s (room for 1080p, 3.6 Mb/s), then 3 Mb/s (720p, 1.9 Mb/s, fits; 1080p does not).
        let drop = 10.0
        let origin = try TestOrigin(serving: try HLSFixtures.root(), trace: [(drop, 8e6), (600, 3e6)])
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: origin.url("llhls/ladder-ll-fmp4/master.m3u8"))
        let recorder = SwitchRecorder(player)
        let (switches, stalls) = (recorder.switches, recorder.stalls)
        let startDate = Date()
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { item.status == .readyToPlay }, "\(String(describing: item.error))")
        try await Task.sleep(for: .seconds(drop + 12 - Date().timeIntervalSince(startDate)))
        let latency = Date().timeIntervalSince(startDate) - player.currentTime().seconds
        let samples = sink.stopRecording()
        let requests = origin.requests
        let run = switches.current
        #expect(item.error == nil, "\(String(describing: item.error))")
        #expect(latency > 1.5 && latency < 4, "\(latency) s behind the edge (PART-HOLD-BACK: 1.5 s)")

        // Up from the lowest rung while the link is fast, then down soon after the drop, and no stall.
        let rates = run.map(\.bitRate)
        #expect(rates.first == 510_000, "\(run)")
        let top = try #require(run.indices.last { run[$0].time < drop }, "\(run)")
        // The premise: 1080p before the drop (the one rung the slower link cannot carry). When the origin could
        // not deliver the fast link (a starved test origin), the periods' observed throughput says so.
        let before = item.accessLog.filter { $0.playbackStartDate < startDate.addingTimeInterval(drop) }
        #expect(
            rates[top] == 3_610_000,
            "at \(rates[top]) b/s when the link dropped (throughput observed before: \(before.map(\.observedBitrate))): \(run)"
        )
        let down = try #require(
            run.indices.first { $0 > top && run[$0].bitRate < rates[top] && run[$0].time > drop }, "\(run)")
        #expect(run[down].time < drop + 4.5, "switched down \(run[down].time - drop) s after the drop: \(run)")
        #expect(run[down].bitRate >= 1_010_000, "switched further down than the link needs: \(run)")
        #expect(stalls.current == 0, "stalled \(stalls.current) times: \(run)")
        #expect(item.accessLog.allSatisfy { $0.numberOfStalls == 0 })
        // The access log has a period per variant, with the throughput its parts came at.
        let periods = item.accessLog.filter { $0.numberOfBytesTransferred > 0 }
        #expect(periods.count >= 3 && periods.allSatisfy { $0.observedBitrate > 1e6 }, "\(periods)")

        // Each segment's parts come from one variant, each byte range once; every playlist request after the first
        // variant playlist (a new variant's too) is a blocking one.
        let media = requests.filter { $0.contains(".m4s") }
        #expect(Set(media).count == media.count, "bytes fetched twice: \(media.count) requests")
        var variantOf: [String: String] = [:]
        for r in media {
            let path = r.split(separator: " ")[1].split(separator: "/")
            let (variant, segment) = (String(path[path.count - 2]), String(path[path.count - 1]))
            #expect(variantOf[segment, default: variant] == variant, "\(segment) from two variants")
            variantOf[segment] = variant
        }
        // A switch happens at a segment boundary: a variant's first part is the first of its segment.
        for variant in Set(variantOf.values) {
            let first = media.first { $0.contains("/\(variant)/") }?.split(separator: " ").last
            #expect(first == "-" || first?.hasPrefix("bytes=0-") == true, "\(variant) began at \(first ?? "")")
        }
        let playlists = requests.filter { $0.contains("/index.m3u8") }
        #expect(playlists.dropFirst().allSatisfy { $0.contains("_HLS_msn=") && $0.contains("_HLS_part=") })
        let variantsUsed = Set(variantOf.values)
        let variantsAsked = Set(playlists.compactMap { $0.split(separator: "/").dropLast().last.map(String.init) })
        #expect(variantsAsked == variantsUsed, "playlists of \(variantsAsked), parts of \(variantsUsed)")

        // The tones say which variant played: 400 Hz first, a higher one, and a lower one after the drop.
        let tones = AudioAnalysis.toneSequence(samples)
        #expect(tones.allSatisfy { [400, 500, 600, 700].contains($0) }, "\(tones)")
        #expect(tones.first == 400 && (tones.max() ?? 0) > 500 && tones.last ?? 0 < tones.max() ?? 0, "\(tones)")
        #expect(AudioAnalysis.longestGap(samples) < 0.05, gapMessage(samples))
    }
}
