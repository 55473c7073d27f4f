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

/// Switching the sound track of a file while it plays: in place, with no gap and nothing reopened.
@MainActor @Suite(.serialized) struct SeamlessAudioSwitchTests {
    /// The bilingual clip plays English (440 Hz); at 2 s the French option is selected: the sink hears 440 then
    /// 880 Hz with no silence between, the position goes on (no restart), and no input is opened again.
    @Test func anotherSoundTrackOfTheFileTakesOverWithoutAGap() async throws {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        let item = PlayerItem(url: try Fixtures.bilingual())
        let audible = try #require(try await item.asset.loadMediaSelectionGroup(for: .audible))
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { player.currentTime().seconds >= 2 }, "not playing")
        let opens = PlaybackCounters.mediaOpens
        let underflows = PlaybackCounters.audioUnderflows
        let before = player.currentTime().seconds
        item.select(audible.options[1], in: audible)
        #expect(
            await eventually { item.currentMediaSelection.selectedMediaOption(in: audible) == audible.options[1] },
            "the French sound is not playing")
        try await Task.sleep(for: .seconds(1.5))
        let after = player.currentTime().seconds
        player.pause()
        let samples = sink.stopRecording()
        #expect(PlaybackCounters.mediaOpens == opens, "the input was opened again")
        #expect(after - before > 1.3, "the position went from \(before) to \(after) s in 1.5 s")
        #expect(AudioAnalysis.toneSequence(samples) == [440, 880], "heard \(AudioAnalysis.toneSequence(samples))")
        let gap = AudioAnalysis.longestGap(samples)
        // Whether the player's writer was held back (the time since its last write at each underflow).
        let since = PlaybackCounters.secondsSinceWriteAtUnderflows.suffix(
            PlaybackCounters.audioUnderflows - underflows)
        #expect(gap < 0.02, "a gap of \(gap) s in the sound; underflows \(since) s after the last write")
    }
}

/// Switching subtitles while playing: in place, the new track's cue that started before the play head shows at
/// once, and none reopens anything.
@MainActor @Suite(.serialized) struct SubtitleSwitchInPlaceTests {
    @Test func theNewTracksCueShowsAtOnceAndOffClearsIt() async throws {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer {
            player.close()
            _ = sink.stopRecording()
        }
        let item = PlayerItem(url: try Fixtures.bilingual())
        let output = CaptureLegibleOutput(player)
        item.add(output)
        let legible = try #require(try await item.asset.loadMediaSelectionGroup(for: .legible))
        item.select(legible.options[0], in: legible)
        player.replaceCurrentItem(with: item)
        player.play()
        #expect(await eventually { output.all.last?.texts == ["Hello"] }, "\(output.all.map(\.texts))")
        #expect(await eventually { player.currentTime().seconds >= 2 })
        let opens = PlaybackCounters.mediaOpens
        // The French cue started at 1 s, before the switch at 2 s: it shows at once.
        item.select(legible.options[1], in: legible)
        #expect(await eventually(timeout: 1) { output.all.last?.texts == ["Bonjour"] }, "\(output.all.map(\.texts))")
        item.select(nil, in: legible)
        #expect(await eventually(timeout: 1) { output.all.last?.texts == [] }, "\(output.all.map(\.texts))")
        #expect(player.currentTime().seconds < 5, "switched too late to see the cues")
        #expect(PlaybackCounters.mediaOpens == opens, "the input was opened again")
        // The selection reads what plays, told by the loop to the main actor after the renderer cleared the cue.
        #expect(await eventually(timeout: 1) { item.currentMediaSelection.selectedMediaOption(in: legible) == nil })
    }
}

/// By default an item chooses from the user's languages (`AutomaticTrackSelection`, the environment's `LANGUAGE`
/// and `LANG`), as AVFoundation's automatic media selection does.
@MainActor @Suite(.serialized) struct AutomaticTrackSelectionTests {
    @Test func theUsersLanguageChoosesTheSoundAndTheSubtitles() async throws {
        let french = try await TrackSelectionTests().play(AutomaticTrackSelection(languages: ["fr_FR"]))
        #expect(abs(french.hertz - 880) < 10, "heard \(french.hertz) Hz")
        #expect(french.texts == [["Bonjour"]], "\(french.texts)")
        // A language the media does not have: its own choice.
        let german = try await TrackSelectionTests().play(AutomaticTrackSelection(languages: ["de"]))
        #expect(abs(german.hertz - 440) < 10, "heard \(german.hertz) Hz")
        #expect(german.texts == [["Hello"]], "\(german.texts)")
        #expect(
            LanguageTrackSelection.environmentLanguages(["LANGUAGE": "fr:de", "LANG": "en_GB.UTF-8"])
                == ["fr", "de", "en_GB"])
        #expect(LanguageTrackSelection.environmentLanguages(["LANG": "C.UTF-8"]).isEmpty)
        #expect(PlayerItem(url: try Fixtures.bilingual()).trackSelection is AutomaticTrackSelection)
    }
}
