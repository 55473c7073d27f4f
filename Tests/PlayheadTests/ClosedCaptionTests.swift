import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// CEA-608 closed captions carried in the video (issue 14): a file whose pictures carry them offers a caption
/// track, an HLS variant its `CLOSED-CAPTIONS` renditions; once chosen, each caption reaches the item's legible
/// outputs when its picture shows and leaves when the screen changes, across seeks; turned off, none shows.
@MainActor @Suite(.serialized) struct ClosedCaptionTests {
    /// When caption `text` showed and when it left again, each time it showed (by the clock: `heard`).
    nonisolated static func spans(of text: String, in changes: [CaptureLegibleOutput.Change]) -> [(Double, Double?)] {
        var spans: [(Double, Double?)] = []
        var shownAt: Double?
        for change in changes {
            let shows = change.texts.contains(text)
            if shows, shownAt == nil { shownAt = change.heard }
            if !shows, let start = shownAt {
                spans.append((start, change.heard))
                shownAt = nil
            }
        }
        if let shownAt { spans.append((shownAt, nil)) }
        return spans
    }

    /// Every caption of the fixture showed once, within `tolerance` of its start and its end.
    nonisolated static func expectCaptionsAtTheirTimes(
        _ changes: [CaptureLegibleOutput.Change], tolerance: Double = 0.15,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        for caption in Fixtures.captions {
            let spans = spans(of: caption.text, in: changes)
            let log = "\(caption.text): \(spans), changes \(changes.map { ($0.texts, $0.heard) })"
            #expect(spans.count == 1, "\(log)", sourceLocation: sourceLocation)
            guard let (start, end) = spans.first else { continue }
            #expect(abs(start - caption.start) < tolerance, "\(log)", sourceLocation: sourceLocation)
            #expect(end.map { abs($0 - caption.end) < tolerance } == true, "\(log)", sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: ["mp4", "ts"]) func aFilesCaptionsShowAtTheirTimesOnceChosen(ext: String) async throws {
        let asset = URLAsset(url: try Fixtures.captionedVideo(ext: ext))
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        let cc = try #require(legible.options.first, "\(legible)")
        #expect(legible.options.count == 1 && cc.displayName == "CC1" && cc.isPlayable, "\(legible)")
        #expect(cc.hasMediaCharacteristic(.transcribesSpokenDialogForAccessibility))
        // Not shown unless asked for.
        #expect(legible.defaultOption == nil, "\(legible)")

        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(asset: asset)
        item.select(cc, in: legible)
        let output = CaptureLegibleOutput(player)
        item.add(output)
        let ended = endedFlag(player)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 25) { ended.value }, "\(String(describing: item.error))")
        #expect(item.currentMediaSelection.selectedMediaOption(in: legible) == cc)
        player.close()
        _ = sink.stopRecording()
        Self.expectCaptionsAtTheirTimes(output.all)
    }

    /// Roll-up captions show as they are sent: each change of the screen (two more characters, a line rolled up)
    /// shows at its picture's time, the rows as lines.
    @Test func rollUpCaptionsShowAsTheyAreSent() async throws {
        let asset = URLAsset(url: try Fixtures.rollUpCaptionedVideo())
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(asset: asset)
        item.select(legible.options.first, in: legible)
        let output = CaptureLegibleOutput(player)
        item.add(output)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(
            await eventually(timeout: 15) { player.currentTime().seconds > 6.5 }, "\(String(describing: item.error))")
        player.close()
        _ = sink.stopRecording()

        let (first, next) = (Fixtures.rollUpCaptions[0], Fixtures.rollUpCaptions[1])
        let changes = output.all
        let log = "\(changes.map { ($0.texts, $0.heard) })"
        let one = Self.spans(of: first.text, in: changes)
        #expect(one.count == 1 && abs(one[0].0 - first.start) < 0.15, "\(log)")
        let both = Self.spans(of: first.text + "\n" + next.text, in: changes)
        #expect(both.count == 1 && abs(both[0].0 - next.start) < 0.15, "\(log)")
        #expect(both.first?.1.map { abs($0 - next.end) < 0.15 } == true, "\(log)")
        // Nothing but the lines as they grow.
        let growing = changes.flatMap(\.texts).allSatisfy { text in
            first.text.hasPrefix(text)
                || text.hasPrefix(first.text + "\n") && next.text.hasPrefix(text.dropFirst(first.text.count + 1))
                || text == first.text + "\n"
        }
        #expect(growing, "\(log)")
        #expect(!changes.contains { $0.heard < 0.8 && !$0.texts.isEmpty }, "\(log)")
    }

    /// Seeking forward into a caption shows it (its pictures from the keyframe before are decoded again); seeking
    /// back shows the earlier one again at its time, once, and nothing stays on screen from before the seek.
    @Test func seekingShowsTheCaptionsOfTheTarget() async throws {
        let asset = URLAsset(url: try Fixtures.captionedVideo())
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(asset: asset)
        item.select(legible.options.first, in: legible)
        let output = CaptureLegibleOutput(player)
        item.add(output)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(
            await eventually(timeout: 15) { player.currentTime().seconds > 1.5 }, "\(String(describing: item.error))")
        let forward = output.all.count
        #expect(await player.seek(to: MediaTime(seconds: 5, preferredTimescale: 600)))
        #expect(await eventually(timeout: 10) { player.currentTime().seconds > 7 })
        let back = output.all.count
        #expect(await player.seek(to: MediaTime(seconds: 0.5, preferredTimescale: 600)))
        #expect(await eventually(timeout: 10) { player.currentTime().seconds > 3.5 })
        player.close()
        _ = sink.stopRecording()

        let all = output.all
        let afterForward = Array(all[forward..<back])
        let afterBack = Array(all[back...])
        let log = "\(all.map { ($0.texts, $0.time, $0.heard) })"
        // At 5 s the second caption shows at once, until the third replaces it at 6.5 s; the first has left.
        let second = afterForward.first { !$0.texts.isEmpty }
        #expect(second?.texts == ["SECOND CAPTION"] && second!.heard < 5.3, "\(log)")
        #expect(!afterForward.contains { $0.heard > 4 && $0.texts.contains("HELLO CAPTIONS") }, "\(log)")
        let third = Self.spans(of: "THIRD CAPTION", in: afterForward)
        #expect(third.count == 1 && abs(third[0].0 - 6.5) < 0.15, "\(log)")
        // Back at 0.5 s: nothing shows until the first caption, from 1 s to 3 s. (Judged by the time each change is
        // for: a change the text thread made for a moment before the seek may reach the output just after it.)
        #expect(!afterBack.contains { $0.time < 0.95 && !$0.texts.isEmpty }, "\(log)")
        let hello = Self.spans(of: "HELLO CAPTIONS", in: afterBack)
        #expect(hello.count == 1, "\(log)")
        if let (start, end) = hello.first {
            #expect(abs(start - 1) < 0.15 && end.map { abs($0 - 3) < 0.15 } == true, "\(log)")
        }
        #expect(afterBack.allSatisfy { $0.texts.count <= 1 }, "\(log)")
    }

    /// Turned on while playing (nothing shown before), the captions show from the next change of the screen on,
    /// in place: nothing is opened again.
    @Test func captionsTurnedOnWhilePlayingShowInPlace() async throws {
        let asset = URLAsset(url: try Fixtures.captionedVideo())
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(asset: asset)
        let output = CaptureLegibleOutput(player)
        item.add(output)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 15) { player.currentTime().seconds > 2 }, "\(String(describing: item.error))")
        let opens = PlaybackCounters.mediaOpens
        item.select(legible.options.first, in: legible)
        #expect(await eventually(timeout: 10) { player.currentTime().seconds > 7 })
        player.close()
        _ = sink.stopRecording()

        let log = "\(output.all.map { ($0.texts, $0.heard) })"
        #expect(!output.all.contains { $0.texts.contains("HELLO CAPTIONS") }, "\(log)")
        let second = Self.spans(of: "SECOND CAPTION", in: output.all)
        #expect(second.count == 1 && abs(second[0].0 - 4.5) < 0.15, "\(log)")
        #expect(second.first?.1.map { abs($0 - 6.5) < 0.15 } == true, "\(log)")
        #expect(PlaybackCounters.mediaOpens == opens, "the media was opened again")
    }

    /// An HLS variant naming a `CLOSED-CAPTIONS` group offers its rendition ("English CC", the `DEFAULT`, shown
    /// unless the item chooses otherwise) and its captions show at their times; a variant with
    /// `CLOSED-CAPTIONS=NONE` offers none, though its pictures carry them; one without the attribute offers what
    /// FFmpeg sees.
    @Test func anHLSCaptionRenditionShowsTheCaptionsOfTheVideo() async throws {
        let url = try HLSFixtures.url(try HLSFixtures.captionedStream())
        let asset = URLAsset(url: url)
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        #expect(legible.options.map(\.displayName) == ["English CC"], "\(legible)")
        let cc = try #require(legible.options.first)
        #expect(cc.isPlayable && cc.extendedLanguageTag == "en" && legible.defaultOption == cc, "\(legible)")

        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(asset: asset)
        let output = CaptureLegibleOutput(player)
        item.add(output)
        let ended = endedFlag(player)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 30) { ended.value }, "\(String(describing: item.error))")
        #expect(item.currentMediaSelection.selectedMediaOption(in: legible) == cc)
        #expect(item.accessLog.last?.legibleOption == "English CC", "\(item.accessLog)")
        player.close()
        _ = sink.stopRecording()
        Self.expectCaptionsAtTheirTimes(output.all)

        let none = URLAsset(url: try HLSFixtures.url("captions/master-none.m3u8"))
        #expect(try await none.loadMediaSelectionGroup(for: .legible) == nil)
        // A variant that says nothing of them: the captions FFmpeg sees in its pictures, as in a file.
        let unsaid = URLAsset(url: try HLSFixtures.url("captions/master-unsaid.m3u8"))
        let seen = try await unsaid.loadMediaSelectionGroup(for: .legible)
        #expect(
            seen?.options.map(\.displayName) == ["CC1"] && seen?.defaultOption == nil, "\(String(describing: seen))")
    }

    @Test func captionsTurnedOffShowNothing() async throws {
        let url = try HLSFixtures.url(try HLSFixtures.captionedStream())
        let asset = URLAsset(url: url)
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let item = PlayerItem(asset: asset)
        item.select(nil, in: legible)
        let output = CaptureLegibleOutput(player)
        item.add(output)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 20) { player.currentTime().seconds > 5 }, "\(String(describing: item.error))")
        #expect(item.currentMediaSelection.selectedMediaOption(in: legible) == nil)
        // Turned on, then off while one shows: it leaves the screen.
        item.select(legible.options.first, in: legible)
        #expect(await eventually(timeout: 10) { output.all.last?.texts == ["THIRD CAPTION"] })
        item.select(nil, in: legible)
        #expect(await eventually(timeout: 5) { output.all.last?.texts == [] })
        let off = player.currentTime().seconds
        #expect(await eventually(timeout: 10) { player.currentTime().seconds > 9 })
        player.close()
        _ = sink.stopRecording()
        let log = "\(output.all.map { ($0.texts, $0.heard) })"
        #expect(!output.all.contains { $0.heard < 5 && !$0.texts.isEmpty }, "\(log)")
        #expect(!output.all.contains { $0.heard > off + 0.1 && !$0.texts.isEmpty }, "\(log)")
    }
}
