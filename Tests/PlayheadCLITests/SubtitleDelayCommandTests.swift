import Foundation
import PlayheadTestSupport
import Testing

/// `--sub-delay` and the keys z and x: the subtitles under the status line show later or earlier.
@Suite struct SubtitleDelayCommandTests {
    /// Plays the first `seconds` of the subtitled fixture (cues "One" at 1-2 s, "Two lines" at 2.5-3.5 s) in a
    /// terminal with `arguments` and `keys`; what the terminal showed.
    func terminal(_ arguments: [String], keys: [(Double, String)], seconds: Double) throws -> Run.Result {
        let media = try Fixtures.subtitled(container: "mkv", codec: "srt")
        return try Run.inTerminal(
            [try Paths.playheadBinary(), "--ao=null", "--vo=null", "--no-mpris", "--no-resume"] + arguments
                + ["--length=\(seconds)", media.path],
            keys: keys, tail: seconds + 3, timeout: 40)
    }

    /// 1.8 s of the file: "One" shows without a delay; with 1 s of delay it has not shown yet; x three times says
    /// the new delay.
    @Test func theDelayMovesTheCues() throws {
        let plain = try terminal([], keys: [], seconds: 1.8)
        #expect(plain.status == 0 && plain.stdout.contains("One"), "\(plain.stdout.suffix(300))")
        let late = try terminal(["--sub-delay=1"], keys: [], seconds: 1.8)
        #expect(late.status == 0 && !late.stdout.contains("One"), "\(late.stdout.suffix(300))")
        let keyed = try terminal([], keys: [(0.3, "xxx")], seconds: 1.5)
        #expect(keyed.stdout.contains("subtitle delay: +0.3 s"), "\(keyed.stdout.suffix(300))")
    }

    /// The key v hides the subtitles under the status line too (it did nothing without a window), and shows them
    /// again: hidden at 0.5 s, "One" (1-2 s) never shows; hidden and shown again before 1 s, it does.
    @Test func vHidesTheSubtitlesInTheTerminal() throws {
        let hidden = try terminal([], keys: [(0.5, "v")], seconds: 1.8)
        #expect(hidden.stdout.contains("subtitles hidden"), "\(hidden.stdout.suffix(300))")
        #expect(!hidden.stdout.contains("One"), "\(hidden.stdout.suffix(300))")
        let shown = try terminal([], keys: [(0.3, "v"), (0.6, "v")], seconds: 1.8)
        #expect(shown.stdout.contains("subtitles shown") && shown.stdout.contains("One"), "\(shown.stdout.suffix(300))")
    }

    @Test(arguments: ["abc", "1e9", "nan", ""]) func aWrongDelayIsAUsageError(_ value: String) throws {
        let r = try Run.command(Paths.playheadBinary(), ["--sub-delay=\(value)", "x.mkv"], timeout: 10)
        #expect(r.status == 2 && r.stderr.contains("--sub-delay"), "\(r.status): \(r.stderr)")
    }
}
