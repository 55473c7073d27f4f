import Foundation
import Playhead
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

extension PlayerctlTests {
    /// The desktop reads which sound and subtitles play (an HLS stream's renditions by their `NAME`), following a
    /// switch, as Now Playing's current language options say.
    @Test func theRenditionsPlayingAreNamedAndFollowASwitch() async throws {
        _ = try freshCenter()
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        defer { player.close() }
        let item = PlayerItem(url: try HLSFixtures.url(try HLSFixtures.subtitledRenditionLadder()))
        item.trackSelection = LanguageTrackSelection(audioLanguages: ["en"], subtitleLanguages: ["en"])
        player.replaceCurrentItem(with: item)
        let session = NowPlayingSession(players: [player])
        defer { session.invalidate() }
        session.automaticallyPublishesNowPlayingInfo = true
        #expect(await session.becomeActiveIfPossible())
        let name = try name(of: session)
        player.play()
        let format =
            "{{playhead:audioTrack}}|{{playhead:audioLanguage}}|{{playhead:subtitleTrack}}|"
            + "{{playhead:subtitleLanguage}}"
        var last = ""
        func read() async throws -> String {
            last = try await playerctl(name, "metadata", "--format", format)
            return last
        }
        #expect(try await eventually { try await read() == "English|en|English|en" }, "\(last)")
        let current = session.nowPlayingInfoCenter.info?.currentLanguageOptions ?? []
        #expect(current.map(\.displayName) == ["English", "English"], "\(current)")
        #expect(current.map(\.languageOptionType) == [.audible, .legible])
        let groups = session.nowPlayingInfoCenter.info?.availableLanguageOptions ?? []
        #expect(
            groups.map { $0.languageOptions.compactMap(\.displayName) } == [
                ["English", "Deutsch"], ["English", "Deutsch", "English (forced)"],
            ])

        let audible = try #require(try await item.asset.loadMediaSelectionGroup(for: .audible))
        let legible = try #require(try await item.asset.loadMediaSelectionGroup(for: .legible))
        item.select(audible.options.first { $0.displayName == "Deutsch" }, in: audible)
        item.select(legible.options.first { $0.displayName == "Deutsch" }, in: legible)
        #expect(try await eventually { try await read() == "Deutsch|de|Deutsch|de" }, "\(last)")
        // Subtitles off: no subtitle named (the forced English ones do not show under German sound).
        item.select(nil, in: legible)
        #expect(try await eventually { try await read() == "Deutsch|de||" }, "\(last)")
    }
}
