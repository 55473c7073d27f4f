import Foundation
import PlayheadTestSupport
import Testing

/// `playhead`'s subtitle options, seen in its window: which track's text is drawn where.
@Suite(.serialized) struct SubtitleCommandTests {
    /// Where text shows in the window of `playhead ARGS FILE` at 2 s: in the top quarter, in the bottom quarter;
    /// and its standard error, once it played to its end (`toTheEnd`; otherwise it is ended after the look, and
    /// `stderr` is empty).
    static func textAt2s(
        _ arguments: [String], _ file: URL, toTheEnd: Bool = true
    ) throws -> (top: Int, bottom: Int, stderr: String) {
        let (p, err) = try WindowCommandTests.launch(
            ["--ao=null", "--no-mpris", "--length=4"] + arguments + [file.path], display: try TestDisplay.name())
        defer { Run.kill(p) }
        let title = "\(file.lastPathComponent) - playhead"
        let g = try #require(try TestDisplay.waitForWindow(titled: title), "no window")
        Thread.sleep(forTimeInterval: 2)
        let shot = try TestDisplay.grab(g)
        let top = shot.brightPixels(inRows: 0..<(shot.height / 4)).count
        let bottom = shot.brightPixels(inRows: (shot.height * 3 / 4)..<shot.height).count
        guard toTheEnd else { return (top, bottom, "") }
        _ = WindowCommandTests.waitForExit(p, seconds: 10)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return (top, bottom, stderr)
    }

    @Test func sidSlangAndNoSubChooseTheTrackDrawn() throws {
        let file = try Fixtures.twoSubtitleTracks()
        let first = try Self.textAt2s([], file, toTheEnd: false)
        #expect(first.bottom > 100 && first.top == 0, "default: \(first)")
        let second = try Self.textAt2s(["--sid=2"], file, toTheEnd: false)
        #expect(second.top > 100 && second.bottom == 0, "--sid=2: \(second)")
        let french = try Self.textAt2s(["--slang=fr"], file, toTheEnd: false)
        #expect(french.top > 100 && french.bottom == 0, "--slang=fr: \(french)")
        for none in [["--no-sub"], ["--sid=no"]] {
            let r = try Self.textAt2s(none, file, toTheEnd: false)
            #expect(r.top == 0 && r.bottom == 0, "\(none): \(r)")
        }
    }

    @Test func aSubtitleFileIsShownAndOneThatIsNotIsSaid() throws {
        // Its own track says "Hello world" at the bottom; the file, chosen instead, "Bonjour" at the top.
        let video = try Fixtures.subtitledVideo()
        let srt = Paths.fixtures.appendingPathComponent("two-fr.srt")
        _ = try Fixtures.twoSubtitleTracks()
        let shown = try Self.textAt2s(["--sub-file=\(srt.path)"], video)
        #expect(shown.top > 100 && shown.bottom == 0, "the subtitle file's text is not drawn: \(shown)")
        let notSubtitles = try Fixtures.tone(seconds: 1)
        let r = try Self.textAt2s(["--sub-file=\(notSubtitles.path)"], video)
        let lines = r.stderr.split(separator: "\n")
        #expect(lines.count == 1 && r.stderr.contains("not a subtitle file"), "\(r.stderr)")
    }

    /// Subtitle files named after the input are shown with it (mpv's `--sub-auto=exact`): `Film.en.srt` (bottom)
    /// and `Film.fr.srt` (top) beside `Film.mp4`; the last is chosen, `--slang` chooses by the name's language,
    /// `--sub-auto=no` leaves them out, and `--sub-file` comes after them (chosen).
    @Test func subtitleFilesNamedAfterTheInputAreShown() throws {
        let folder = Paths.fixtures.appendingPathComponent("auto-subtitles")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let video = folder.appendingPathComponent("Film.mp4")
        try FileManager.default.copyItem(at: try Fixtures.positionedCues().video, to: video)
        try "1\n00:00:00,500 --> 00:00:05,500\nHello world\n".write(
            to: folder.appendingPathComponent("Film.en.srt"), atomically: true, encoding: .utf8)
        try "1\n00:00:00,500 --> 00:00:05,500\n{\\an8}Bonjour\n".write(
            to: folder.appendingPathComponent("Film.fr.srt"), atomically: true, encoding: .utf8)
        // Not this film's: another name, and a part after the name that is no language.
        try "1\n00:00:00,500 --> 00:00:05,500\n{\\an8}Other\n".write(
            to: folder.appendingPathComponent("Film.Day.srt"), atomically: true, encoding: .utf8)
        try "1\n00:00:00,500 --> 00:00:05,500\n{\\an8}Other\n".write(
            to: folder.appendingPathComponent("Filmic.srt"), atomically: true, encoding: .utf8)

        let last = try Self.textAt2s([], video, toTheEnd: false)
        #expect(last.top > 100 && last.bottom == 0, "default (Film.fr.srt, the last): \(last)")
        let english = try Self.textAt2s(["--slang=en"], video, toTheEnd: false)
        #expect(english.bottom > 100 && english.top == 0, "--slang=en (Film.en.srt): \(english)")
        let off = try Self.textAt2s(["--sub-auto=no"], video, toTheEnd: false)
        #expect(off.top == 0 && off.bottom == 0, "--sub-auto=no: \(off)")
        let given = try Self.textAt2s(
            ["--sub-file=\(folder.appendingPathComponent("Film.en.srt").path)"], video, toTheEnd: false)
        #expect(given.bottom > 100 && given.top == 0, "--sub-file=Film.en.srt: \(given)")

        // One that is no subtitle file is said once; the film plays on.
        let broken = folder.appendingPathComponent("Broken.mp4")
        try FileManager.default.copyItem(at: video, to: broken)
        try FileManager.default.copyItem(
            at: try Fixtures.tone(seconds: 1), to: folder.appendingPathComponent("Broken.srt"))
        let said = try Self.textAt2s([], broken)
        let lines = said.stderr.split(separator: "\n")
        #expect(
            lines.count == 1 && lines[0].contains(folder.appendingPathComponent("Broken.srt").path)
                && said.stderr.contains("not a subtitle file"), "\(said.stderr)")
    }

    /// A FIFO named like the input's subtitles is passed over, and one given with --sub-file that no one writes to
    /// is said in one line after the network time-out: the input plays (it waited for the FIFO's writer for good,
    /// even ignoring SIGINT).
    @Test func aFIFONamedLikeSubtitlesDoesNotStopPlayback() throws {
        let folder = Paths.fixtures.appendingPathComponent("fifo-subtitles")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let video = folder.appendingPathComponent("Film.mp4")
        try FileManager.default.copyItem(at: try Fixtures.positionedCues().video, to: video)
        let fifo = folder.appendingPathComponent("Film.srt")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let binary = try Paths.playheadBinary()
        let auto = try Run.command(
            binary, ["--ao=null", "--vo=null", "--no-mpris", "--length=1", video.path], timeout: 15)
        #expect(auto.status == 0 && auto.stderr.isEmpty, "exit \(auto.status) after \(auto.seconds) s: \(auto.stderr)")
        let given = try Run.command(
            binary,
            [
                "--ao=null", "--vo=null", "--no-mpris", "--length=1", "--sub-auto=no", "--sub-file=\(fifo.path)",
                "--network-timeout=2", video.path,
            ],
            timeout: 15)
        let lines = given.stderr.split(separator: "\n")
        #expect(
            given.status == 0 && lines.count == 1
                && lines[0].contains("\(fifo.path): nothing came through the pipe within 2 s; playing without it"),
            "exit \(given.status) after \(given.seconds) s: \(given.stderr)")
    }

    /// A pipe given with --sub-file (`--sub-file=<(cat Film.srt)`, here a FIFO a thread writes to as `cat`
    /// would) is read once and shown, as mpv shows it (it was refused as "not a regular file").
    @Test func aPipeGivenWithSubFileIsShown() throws {
        let folder = Paths.fixtures.appendingPathComponent("piped-subtitles")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let fifo = folder.appendingPathComponent("63")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let text = Array("1\n00:00:00,500 --> 00:00:05,500\n{\\an8}Bonjour\n".utf8)
        // The writer: it opens once a reader has (as the shell's `cat` does), writes, and closes.
        let writer = Thread {
            let deadline = Date().addingTimeInterval(10)
            var fd: Int32 = -1
            while fd < 0 && Date() < deadline {
                fd = open(fifo.path, O_WRONLY | O_NONBLOCK)
                if fd < 0 { Thread.sleep(forTimeInterval: 0.01) }
            }
            guard fd >= 0 else { return }
            _ = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            close(fd)
        }
        writer.start()
        let shown = try Self.textAt2s(
            ["--sub-auto=no", "--sub-file=\(fifo.path)"], try Fixtures.positionedCues().video)
        #expect(shown.top > 100 && shown.bottom == 0, "the piped subtitles are not drawn: \(shown)")
        #expect(shown.stderr.isEmpty, "\(shown.stderr)")
    }
}
