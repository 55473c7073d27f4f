import Foundation
import PlayheadTestSupport
import Testing

/// A broken entry in the middle of a queue played on the sound server: it is said in one line and the queue goes
/// on (found by a QA pass: a web page saved as `.flac`, which FFmpeg reads as a FLAC stream of no channels, was
/// handed the output gaplessly, wrote nothing, and the song before it never ended: the player stood at its end for
/// good, the stream open, MPRIS saying Playing).
@Suite(.serialized) struct BrokenQueueEntryCommandTests {
    @Test func aWebPageNamedFLACBetweenTwoSongsIsSaidAndTheNextPlays() throws {
        try PulseServer.require()
        let sink = try TestSink()
        let dir = Paths.scratch("broken-entry")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let page = dir.appendingPathComponent("page.flac")
        try Data("<html><body>404 Not Found</body></html>\n".utf8).write(to: page)
        let first = try Fixtures.tone(seconds: 1, frequency: 440, ext: "wav")
        let last = try Fixtures.tone(seconds: 1, frequency: 880, ext: "wav")
        let r = try Run.command(
            Paths.playheadBinary(),
            ["--ao=pulse", "--vo=null", "--no-mpris", "--audio-device=\(sink.name)", first.path, page.path, last.path],
            timeout: 20)
        let samples = sink.stopRecording()
        #expect(r.status == 1, "exit \(r.status): \(r.stderr)")
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.contains("page.flac") == true, "\(r.stderr)")
        let heard = AudioAnalysis.audibleSeconds(samples)
        #expect(abs(heard - 2) < 0.2, "heard \(heard) s of the two 1 s songs")
        // The last half second of sound (the recording goes on in silence after it): the last song's.
        let end = (samples.lastIndex { abs($0) > 0.01 } ?? 0) + 1
        let tail = Array(samples[max(0, end - 48_000)..<max(0, end - 24_000)])
        #expect(abs(AudioAnalysis.frequency(tail) - 880) < 10, "the last song: \(AudioAnalysis.frequency(tail)) Hz")
    }
}
