import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Which tracks an item plays is the item's policy: by default the media's own choice, by language with
/// `LanguageTrackSelection`, or none of a type. What is heard at the sink and what the subtitle output is told
/// follow it.
@MainActor @Suite(.serialized) struct TrackSelectionTests {
    /// Plays the bilingual fixture to 2 s with `selection`: the dominant frequency heard and the texts the
    /// subtitle output was told (its cues start at 1 s).
    func play(_ selection: (any TrackSelectionPolicy)?) async throws -> (hertz: Double, texts: [[String]]) {
        let item = PlayerItem(url: try Fixtures.bilingual())
        if let selection { item.trackSelection = selection }
        return try await play(item)
    }

    /// Plays `item` (the bilingual fixture, set up by the caller) to 2 s: the dominant frequency heard and the
    /// texts the subtitle output was told.
    func play(_ item: PlayerItem) async throws -> (hertz: Double, texts: [[String]]) {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        let output = CaptureLegibleOutput(player)
        item.add(output)
        item.forwardPlaybackEndTime = MediaTime(seconds: 2, preferredTimescale: 1000)
        let ended = endedFlag(player)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually(timeout: 10) { ended.value }, "\(String(describing: item.error))")
        player.close()
        let samples = sink.stopRecording()
        return (AudioAnalysis.frequency(samples), output.all.map(\.texts))
    }

    @Test func theMediaChoosesByDefault() async throws {
        let (hertz, texts) = try await play(nil)
        #expect(abs(hertz - 440) < 10, "heard \(hertz) Hz")
        #expect(texts == [["Hello"]], "\(texts)")
    }

    @Test func aLanguageSelectionPicksTheSoundAndTheSubtitles() async throws {
        // Matroska says "fre": "fr" and "fr-CA" name it as well.
        let (hertz, texts) = try await play(
            LanguageTrackSelection(audioLanguages: ["de", "fr"], subtitleLanguages: ["fr-CA"]))
        #expect(abs(hertz - 880) < 10, "heard \(hertz) Hz")
        #expect(texts == [["Bonjour"]], "\(texts)")
    }

    @Test func subtitlesOnlyInAPreferredLanguageOrNone() async throws {
        let selection = LanguageTrackSelection(subtitleLanguages: ["ja"], subtitlesOnlyInPreferredLanguages: true)
        let (hertz, texts) = try await play(selection)
        #expect(abs(hertz - 440) < 10, "heard \(hertz) Hz")
        #expect(texts.isEmpty, "subtitles shown: \(texts)")
    }

    @Test func languageTagsCompareByLanguage() {
        let french = ["fr", "fra", "fre", "FR-ca", "fr_FR"].map(LanguageTrackSelection.language)
        #expect(Set(french) == ["fr"], "\(french)")
        #expect(LanguageTrackSelection.language("ger") == LanguageTrackSelection.language("de"))
        #expect(LanguageTrackSelection.language("eng") != LanguageTrackSelection.language("fre"))
    }

    /// A file's sound and subtitle tracks as media selection groups; choosing before playing (French sound, no
    /// subtitles) is what plays, and `currentMediaSelection` says so.
    @Test func aFilesTracksAreMediaSelectionGroupsAndAChoiceBeforePlayingIsWhatPlays() async throws {
        let asset = URLAsset(url: try Fixtures.bilingual())
        let audible = try #require(try await asset.loadMediaSelectionGroup(for: .audible))
        #expect(audible.options.map(\.extendedLanguageTag) == ["en", "fr"], "\(audible.options)")
        #expect(audible.options.map(\.displayName) == ["English", "French"], "\(audible.options)")
        #expect(audible.defaultOption == audible.options.first && !audible.allowsEmptySelection)
        let legible = try #require(try await asset.loadMediaSelectionGroup(for: .legible))
        #expect(legible.options.count == 2 && legible.allowsEmptySelection, "\(legible)")
        let item = PlayerItem(asset: asset)
        item.select(audible.options[1], in: audible)
        item.select(nil, in: legible)
        let (hertz, texts) = try await play(item)
        #expect(item.currentMediaSelection.selectedMediaOption(in: audible) == audible.options[1])
        #expect(item.currentMediaSelection.selectedMediaOption(in: legible) == nil)
        #expect(abs(hertz - 880) < 10, "heard \(hertz) Hz")
        #expect(texts.isEmpty, "subtitles shown: \(texts)")
    }
}
