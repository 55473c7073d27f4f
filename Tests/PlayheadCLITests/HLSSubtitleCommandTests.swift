import Foundation
import PlayheadTestSupport
import Testing

/// `playhead` in a terminal, without a window, on a ladder with subtitle renditions (issue 14): the cues of the
/// chosen rendition show on the line under the status line, at their times; `j` moves to the next rendition.
@Suite(.serialized) struct HLSSubtitleCommandTests {
    @Test func theSubtitlesShowUnderTheStatusLineAndJChangesThem() throws {
        let url = try HLSFixtures.url(try HLSFixtures.subtitledRenditionLadder())
        let home = Paths.scratch("subtitles-terminal")
        let sink = try TestSink()
        let r = try Run.inTerminal(
            [
                try Paths.playheadBinary(), "--no-mpris", "--vo=null", "--ao=pulse", "--audio-device=\(sink.name)",
                "--slang=de", url.absoluteString,
            ], keys: [(4.6, "j")], tail: 8,
            environment: ["HOME": home.path, "XDG_STATE_HOME": home.path, "LANG": "C", "LANGUAGE": ""], timeout: 40)
        _ = sink.stopRecording()
        #expect(r.status == 0, "exit \(r.status): \(r.stdout.suffix(400))")
        // Each subtitle line is written after a line break and before the cursor goes back up (the terminal
        // writes "\r\n" for a line break, one Character in Swift).
        let lines = r.stdout.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n").map {
            $0.components(separatedBy: "\u{1B}[1A").first ?? ""
        }
        let shown = Set(lines.filter { $0.hasPrefix("de ") || $0.hasPrefix("forced ") || $0.hasPrefix("en ") })
        #expect(shown.isSuperset(of: ["de 1", "de 2", "de 3"]), "\(shown.sorted()) \(r.stdout.suffix(600))")
        #expect(r.stdout.contains("subtitles: English (forced)"), "\(r.stdout.suffix(400))")
        #expect(shown.contains("forced 6"), "after j: \(shown.sorted())")
        #expect(!shown.contains { $0.hasPrefix("en ") }, "\(shown.sorted())")
    }
}
