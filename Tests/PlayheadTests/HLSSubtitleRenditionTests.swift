import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// HLS subtitle renditions (WebVTT segment playlists, issue 14): the cues of the chosen rendition reach the item's
/// legible outputs at the times the `X-TIMESTAMP-MAP` gives them (written 10 s late, so only the map puts them
/// right), in the user's language, beside the sound of the same language; only what is shown is fetched; forced
/// subtitles show when subtitles are off; a broken subtitle segment is a line in the error log, never the item's
/// error.
@MainActor @Suite(.serialized) struct HLSSubtitleRenditionTests {
    /// The second `n` whose cue ("LABEL n") `texts` shows, for rendition label `label`.
    nonisolated static func second(of texts: [String], label: String) -> Int? {
        texts.lazy.compactMap { text -> Int? in
            let words = text.split(separator: " ")
            return words.count == 2 && words[0] == label ? Int(words[1]) : nil
        }.first
    }

    /// The subtitle renditions whose segments `requests` fetched, by folder.
    nonisolated static func fetchedSubtitles(_ requests: [String]) -> Set<String> {
        Set(
            HLSFixtures.subtitleRenditions.map { "s-\($0.label)-\($0.language)" }.filter { folder in
                requests.contains { $0.contains("/\(folder)/seg") }
            })
    }

    @Test func aGermanReaderHearsGermanAndReadsTheGermanCuesAtTheirTimes() async throws {
        let url = try HLSFixtures.url(try HLSFixtures.subtitledRenditionLadder())
        let asset = URLAsset(url: url)
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        #expect(legible.options.map(\.displayName) == ["English", "Deutsch", "English (forced)"], "\(legible)")
        #expect(legible.options.allSatisfy { $0.isPlayable })
        #expect(legible.options[2].hasMediaCharacteristic(.containsOnlyForcedSubtitles))

        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(asset: asset)
        item.trackSelection = AutomaticTrackSelection(languages: ["de"])
        let output = CaptureLegibleOutput(player)
        item.add(output)
        let ended = endedFlag(player)
        let before = try HLSFixtures.requestCount()
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 30) { ended.value }, "\(String(describing: item.error))")
        let selected = item.currentMediaSelection.selectedMediaOption(in: legible)
        #expect(selected?.extendedLanguageTag == "de", "\(String(describing: selected))")
        // The access log names what plays.
        let period = item.accessLog.last
        #expect(period?.audibleOption == "Deutsch" && period?.legibleOption == "Deutsch", "\(item.accessLog)")
        player.close()
        let heard = sink.stopRecording()

        #expect(abs(AudioAnalysis.frequency(heard) - 660) < 4, "\(AudioAnalysis.frequency(heard)) Hz (German: 660)")
        // Every second's cue, each shown within 100 ms of its time by the clock, and cleared before the next.
        let shown = output.all.compactMap { c in Self.second(of: c.texts, label: "de").map { ($0, c.heard) } }
        #expect(shown.map(\.0) == Array(0..<8), "\(output.all.map { ($0.texts, $0.heard) })")
        for (n, at) in shown {
            #expect(abs(at - (Double(n) + 0.1)) < 0.1, "\"de \(n)\" shown at \(at)")
        }
        #expect(output.all.allSatisfy { !$0.texts.contains { $0.hasPrefix("en") || $0.hasPrefix("forced") } })
        let fetched = Self.fetchedSubtitles(try HLSFixtures.requests(since: before))
        #expect(fetched == ["s-de-de"], "subtitles fetched: \(fetched)")
        #expect(item.error == nil && item.errorLog.isEmpty, "\(item.errorLog)")
    }

    @Test func subtitlesTurnedOffShowTheForcedOnesInTheLanguageHeard() async throws {
        let url = try HLSFixtures.url(try HLSFixtures.subtitledRenditionLadder())
        let asset = URLAsset(url: url)
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(asset: asset)
        item.trackSelection = AutomaticTrackSelection(languages: ["en"])
        item.select(nil, in: legible)
        let output = CaptureLegibleOutput(player)
        item.add(output)
        let before = try HLSFixtures.requestCount()
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(
            await eventually(timeout: 20) { player.currentTime().seconds > 3.2 }, "\(String(describing: item.error))")
        player.close()
        let heard = sink.stopRecording()

        #expect(abs(AudioAnalysis.frequency(heard) - 440) < 4, "\(AudioAnalysis.frequency(heard)) Hz (English: 440)")
        let forced = output.all.compactMap { Self.second(of: $0.texts, label: "forced") }
        #expect(Array(forced.prefix(3)) == [0, 1, 2], "\(output.all.map(\.texts))")
        #expect(output.all.allSatisfy { !$0.texts.contains { $0.hasPrefix("en ") || $0.hasPrefix("de ") } })
        let fetched = Self.fetchedSubtitles(try HLSFixtures.requests(since: before))
        #expect(fetched == ["s-forced-en"], "subtitles fetched: \(fetched)")
    }

    /// Choosing English subtitles while German ones show switches in place: the English cue of the next second
    /// shows at its time, nothing of the media is opened or fetched again and the sound goes on without a gap; the
    /// English rendition is fetched from the segment that holds the play head, the German one no more.
    @Test func choosingOtherSubtitlesWhilePlayingSwitchesInPlace() async throws {
        let url = try HLSFixtures.url(try HLSFixtures.subtitledRenditionLadder())
        let asset = URLAsset(url: url)
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        let english = try #require(legible.options.first { $0.displayName == "English" })
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(asset: asset)
        item.trackSelection = AutomaticTrackSelection(languages: ["de"])
        let output = CaptureLegibleOutput(player)
        item.add(output)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(
            await eventually(timeout: 20) { player.currentTime().seconds > 2.3 }, "\(String(describing: item.error))")
        let before = try HLSFixtures.requestCount()
        let opens = PlaybackCounters.mediaOpens
        let landed = sink.samplesSoFar.count
        let switchedAt = player.currentTime().seconds
        item.select(english, in: legible)
        #expect(await eventually(timeout: 5) { item.currentMediaSelection.selectedMediaOption(in: legible) == english })
        #expect(await eventually(timeout: 10) { player.currentTime().seconds > 5.2 })
        player.close()
        let heard = Array(sink.stopRecording().dropFirst(landed))

        let changes = output.all.filter { $0.heard > switchedAt }
        let english1 = changes.compactMap { c in Self.second(of: c.texts, label: "en").map { ($0, c.heard) } }
        // The first whole English second after the switch (its segment fetched first) shows at its time.
        let next = Int(switchedAt.rounded(.up))
        let shown = english1.first { $0.0 == next }
        #expect(shown.map { abs($0.1 - (Double(next) + 0.1)) < 0.15 } == true, "\(english1), switched at \(switchedAt)")
        #expect(!changes.contains { c in c.texts.contains { $0.hasPrefix("de ") } && c.heard > Double(next) })
        #expect(PlaybackCounters.mediaOpens == opens, "the media was opened again")
        #expect(AudioAnalysis.longestGap(heard) < 0.05, gapMessage(heard))
        let requests = try HLSFixtures.requests(since: before)
        #expect(requests.first { $0.contains("/s-en-en/seg") }?.hasSuffix("seg1.vtt") == true, "\(requests)")
        #expect(!requests.contains { $0.contains("/s-de-de/") || $0.contains("/v0/") }, "\(requests)")
    }

    /// A ladder whose German subtitles have a segment that is SubRip, one that is missing (404) and one
    /// without its `X-TIMESTAMP-MAP`: the item plays to its end with the German sound and the cues of the good
    /// segments, and each problem is one line in the error log.
    @Test func brokenSubtitleSegmentsAreLoggedAndPlaybackGoesOn() async throws {
        let path = try HLSFixtures.subtitledRenditionLadder()
        let root = try HLSFixtures.root()
        let broken = root.appendingPathComponent("subtitled-broken-1")
        if !FileManager.default.fileExists(atPath: broken.path) {
            let source = root.appendingPathComponent((path as NSString).deletingLastPathComponent)
            try FileManager.default.copyItem(at: source, to: broken)
            let de = broken.appendingPathComponent("s-de-de")
            // SubRip, not WebVTT.
            try "1\n00:00:12,100 --> 00:00:12,900\nde 2\n".write(
                to: de.appendingPathComponent("seg1.vtt"), atomically: true, encoding: .utf8)
            try FileManager.default.removeItem(at: de.appendingPathComponent("seg2.vtt"))
            let last = de.appendingPathComponent("seg3.vtt")
            let text = try String(contentsOf: last, encoding: .utf8)
            try text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("X-TIMESTAMP") }
                .joined(separator: "\n").write(to: last, atomically: true, encoding: .utf8)
        }
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(url: try HLSFixtures.url("subtitled-broken-1/master.m3u8"))
        item.trackSelection = AutomaticTrackSelection(languages: ["de"])
        let output = CaptureLegibleOutput(player)
        item.add(output)
        let ended = endedFlag(player)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 40) { ended.value }, "\(String(describing: item.error))")
        player.close()
        let heard = sink.stopRecording()

        #expect(item.error == nil, "\(String(describing: item.error))")
        #expect(AudioAnalysis.audibleSeconds(heard) > 7.5, "\(AudioAnalysis.audibleSeconds(heard)) s heard")
        let shown = output.all.compactMap { Self.second(of: $0.texts, label: "de") }
        // Segment 0 shows; 1 and 2 cannot; 3, without its map, is read 10 s late (after the end).
        #expect(shown == [0, 1], "\(output.all.map(\.texts))")
        let log = item.errorLog.map(\.errorComment)
        #expect(log.contains { $0.contains("not WebVTT") }, "\(log)")
        #expect(log.contains { $0.contains("X-TIMESTAMP-MAP") }, "\(log)")
        #expect(
            item.errorLog.contains { $0.uri.hasSuffix("seg2.vtt") && $0.errorComment.hasSuffix("skipped") },
            "\(item.errorLog)")
    }
}
