import Foundation
import PlayheadSubtitles
import PlayheadTestSupport
import Testing

@testable import Playhead

/// Subtitle files as people have them (found by a QA pass): SubRip in UTF-16 or Windows-1252 is read as text in
/// that encoding (UTF-16 showed nothing), a .vtt file that is not WebVTT is said and left out (it was an empty
/// track, chosen), a FIFO is left out at once (the item never started), and an ASS event's drawing commands or
/// missing fields are no text.
@MainActor @Suite(.serialized) struct SubtitleFileInputTests {
    /// The cues told to a legible output while `files` show beside a 2 s tone, played for a second.
    static func cuesShown(_ files: [URL]) async throws -> (cues: [String], item: PlayerItem) {
        let player = Player()
        player.audioOutputChoice = .null(untimed: false)
        defer { player.close() }
        let asset = URLAsset(url: try Fixtures.tone(seconds: 2, ext: "wav"), options: [.subtitleFiles: files])
        let item = PlayerItem(asset: asset)
        let told = CueCapture()
        item.add(told)
        player.replaceCurrentItem(with: item)
        player.play()
        _ = await eventually(timeout: 5) { player.currentTime().seconds > 1 }
        return (told.cues.map(\.text), item)
    }

    @Test func subRipInUTF16AndWindows1252IsReadInItsEncoding() async throws {
        let folder = Paths.scratch("subtitle-encodings")
        let text = "1\r\n00:00:00,000 --> 00:00:01,500\r\nUne leçon, ça\r\n"
        let utf16 = folder.appendingPathComponent("utf16.srt")
        try Data(
            text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }.reduce(into: [0xFF, 0xFE]) { $0.append($1) }
        )
        .write(to: utf16)
        let latin = folder.appendingPathComponent("cp1252.srt")
        try #require(text.data(using: .windowsCP1252)).write(to: latin)
        for file in [utf16, latin] {
            let (cues, _) = try await Self.cuesShown([file])
            #expect(cues == ["Une leçon, ça"], "\(file.lastPathComponent): \(cues)")
        }
    }

    @Test func aVTTFileThatIsNotWebVTTIsSaidAndLeftOut() async throws {
        let vtt = Paths.scratch("subtitle-inputs").appendingPathComponent("plain.vtt")
        try "hello vtt\n".write(to: vtt, atomically: true, encoding: .utf8)
        let asset = URLAsset(url: try Fixtures.tone(seconds: 1), options: [.subtitleFiles: [vtt]])
        let group = try await asset.loadMediaSelectionGroup(for: .legible)
        #expect(group == nil || group?.options.isEmpty == true, "\(String(describing: group?.options))")
        let (_, item) = try await Self.cuesShown([vtt])
        #expect(
            item.errorLog.contains { $0.uri == vtt.path && $0.errorComment.contains("not a WebVTT file") },
            "\(item.errorLog)")
    }

    @Test func aFIFONamedLikeSubtitlesIsLeftOutAtOnce() async throws {
        let fifo = Paths.scratch("subtitle-fifo").appendingPathComponent("named.srt")
        unlink(fifo.path)
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let (_, item) = try await Self.cuesShown([fifo])
        #expect(item.status == .readyToPlay, "the item did not start: \(item.status)")
        #expect(
            item.errorLog.contains { $0.uri == fifo.path && $0.errorComment.contains("not a regular file") },
            "\(item.errorLog)")
    }

    @Test func assDrawingsAndShortEventsAreNoText() {
        #expect(TextCueReader.assText("1,0,Default,,0,0,0,,five{\\p1}m 0 0 l 9 9{\\p0}six") == "fivesix")
        #expect(TextCueReader.assText("1,0,Default,,0,0,0,,{\\pos(1,2)}Placed") == "Placed")
        #expect(TextCueReader.assText("0,0,Default") == "")
    }
}
