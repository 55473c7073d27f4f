import Foundation
import PlayheadTestSupport
import Testing

/// `playhead probe` on media: the duration, tags and every track as the player reads them, as a report and as JSON.
@Suite struct MediaProbeTests {
    /// 2 s of 320x240 video at 25 fps, a stereo AAC track in French named "Commentaire", and a title with a
    /// terminal escape and line breaks in it (a hostile tag must neither reach the terminal nor forge a line).
    static func tagged() throws -> URL {
        try Fixtures.make(
            "probe-tagged-2.mkv",
            [
                "-f", "lavfi", "-i", "testsrc=s=320x240:r=25:d=2", "-f", "lavfi", "-i",
                "sine=frequency=440:duration=2:sample_rate=48000", "-c:v", "libx264", "-pix_fmt", "yuv420p", "-c:a",
                "aac", "-ac", "2", "-metadata", "title=Probe \u{1B}[2J\n  track 9: forged\nTitle", "-metadata:s:a:0",
                "language=fre",
                "-metadata:s:a:0", "title=Commentaire",
            ])
    }

    @Test func aMediaFileIsDescribed() throws {
        let media = try Self.tagged()
        let r = try Run.command(Paths.playheadBinary(), ["probe", media.path], timeout: 20)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        let lines = r.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "media: \(media.path)", "\(r.stdout)")
        #expect(lines.contains { $0.hasPrefix("  duration: 2.0") }, "\(r.stdout)")
        #expect(lines.contains("  track 0: video, h264, 320x240, 25 fps"), "\(r.stdout)")
        #expect(
            lines.contains {
                $0.hasPrefix("  track 1: audio, aac, 48000 Hz, 2 channels, ")
                    && $0.hasSuffix(", language fre, \"Commentaire\"")
            },
            "\(r.stdout)")
        #expect(lines.contains { $0.hasPrefix("    title: Probe ") && $0.hasSuffix("Title") }, "\(r.stdout)")
        #expect(!r.stdout.contains("\u{1B}"), "an escape reached the terminal: \(r.stdout.debugDescription)")
        #expect(!lines.contains { $0.hasPrefix("  track 9") }, "a tag forged a line: \(r.stdout)")
    }

    @Test func itsJSONHasEveryKey() throws {
        let media = try Self.tagged()
        let r = try Run.command(Paths.playheadBinary(), ["probe", "--json", media.path], timeout: 20)
        #expect(r.status == 0, "exit \(r.status): \(r.stderr)")
        let object = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        #expect(object["type"] as? String == "asset" && object["url"] as? String == media.absoluteString, "\(object)")
        #expect(abs((object["duration"] as? Double ?? 0) - 2) < 0.1, "\(object)")
        #expect(
            (object["tags"] as? [String: String])?["title"] == "Probe \u{1B}[2J\n  track 9: forged\nTitle", "\(object)")
        let tracks = object["tracks"] as? [[String: Any]] ?? []
        #expect(tracks.count == 2, "\(tracks)")
        let keys: Set = [
            "id", "kind", "codec", "playable", "width", "height", "frameRate", "bitRate", "sampleRate", "channels",
            "language", "name", "duration",
        ]
        for track in tracks { #expect(Set(track.keys) == keys, "\(track.keys)") }
        let video = tracks.first { $0["kind"] as? String == "video" } ?? [:]
        #expect(video["width"] as? Int == 320 && video["height"] as? Int == 240 && video["frameRate"] as? Double == 25)
        #expect(video["sampleRate"] is NSNull && video["playable"] as? Bool == true, "\(video)")
        let audio = tracks.first { $0["kind"] as? String == "audio" } ?? [:]
        #expect(audio["sampleRate"] as? Int == 48000 && audio["channels"] as? Int == 2, "\(audio)")
        #expect(audio["language"] as? String == "fre" && audio["name"] as? String == "Commentaire", "\(audio)")
    }

    @Test func whatIsNotMediaIsOneLine() throws {
        let text = Fixtures.file("probe-notes.txt", bytes: Array("just some notes\n".utf8))
        let r = try Run.command(Paths.playheadBinary(), ["probe", text.path], timeout: 20)
        #expect(r.status == 1 && r.stdout.isEmpty, "exit \(r.status): \(r.stdout)")
        #expect(r.stderr.hasPrefix("playhead: \(text.path): not a media file"), "\(r.stderr)")
        #expect(r.stderr.split(separator: "\n").count == 1, "\(r.stderr)")
    }
}
