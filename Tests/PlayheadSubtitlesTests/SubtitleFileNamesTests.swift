import PlayheadSubtitles
import Testing

/// Which files are a video's subtitles by name, and the language a name gives.
struct SubtitleFileNamesTests {
    @Test func aNameGivesALanguageOnlyWhenThePartIsOne() {
        #expect(SubtitleFileNames.language(of: "Film.en.srt") == "en")
        #expect(SubtitleFileNames.language(of: "Film.fre.ass") == "fre")
        #expect(SubtitleFileNames.language(of: "Film.pt-BR.vtt") == "pt-BR")
        #expect(SubtitleFileNames.language(of: "Film.srt") == nil)
        #expect(SubtitleFileNames.language(of: "Alien.Day.srt") == nil)
        #expect(SubtitleFileNames.language(of: "Film.2019.srt") == nil)
        #expect(SubtitleFileNames.language(of: "en.srt") == nil)
    }

    @Test func companionsAreTheNameThenALanguage() {
        let names = [
            "Film.mkv", "Film.srt", "Film.en.srt", "Film.FR.ASS", "Film.Day.srt", "Filmic.srt", "Film.en.txt",
            "Film.part2.srt", "Other.srt", "Film.mkv.srt",
        ]
        #expect(
            SubtitleFileNames.companions(of: "Film.mkv", among: names) == ["Film.FR.ASS", "Film.en.srt", "Film.srt"])
        #expect(SubtitleFileNames.companions(of: "Film.srt", among: names) == ["Film.FR.ASS", "Film.en.srt"])
        #expect(SubtitleFileNames.companions(of: ".mkv", among: names).isEmpty)
    }
}
