import Foundation
import PlayheadTestSupport
import Testing

/// `playhead` in a terminal, without a window, on a file whose video carries CEA-608 captions (issue 14):
/// `--sid=1` chooses them, and each caption shows on the line under the status line.
@Suite(.serialized) struct ClosedCaptionCommandTests {
    @Test func theCaptionsChosenWithSidShowUnderTheStatusLine() throws {
        let media = try Fixtures.captionedVideo()
        let home = Paths.scratch("captions-terminal")
        let sink = try TestSink()
        let r = try Run.inTerminal(
            [
                try Paths.playheadBinary(), "--no-mpris", "--vo=null", "--ao=pulse", "--audio-device=\(sink.name)",
                "--sid=1", media.path,
            ], keys: [], tail: 8,
            environment: ["HOME": home.path, "XDG_STATE_HOME": home.path, "LANG": "C", "LANGUAGE": ""], timeout: 40)
        _ = sink.stopRecording()
        #expect(r.status == 0, "exit \(r.status): \(r.stdout.suffix(400))")
        // Each subtitle line is written after a line break and before the cursor goes back up.
        let lines = r.stdout.replacingOccurrences(of: "\r\n", with: "\n").components(separatedBy: "\n").map {
            $0.components(separatedBy: "\u{1B}[1A").first ?? ""
        }
        let shown = Set(lines.filter { $0.hasSuffix(" CAPTION") || $0.hasSuffix(" CAPTIONS") })
        #expect(shown == ["HELLO CAPTIONS", "SECOND CAPTION", "THIRD CAPTION"], "\(r.stdout.suffix(600))")
    }
}
