import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// Renditions that do not fit their variants: a group the variant names and the playlist does not define, and a
/// sound rendition shorter or longer than the pictures. A clear error-log line where something is missing; the
/// item plays what there is, to its end.
@MainActor @Suite(.serialized) struct HLSRenditionBadInputTests {
    /// Writes `files` (name: text) into `folder` beside the `renditions` ladder (its segments referred to as
    /// `../renditions/...`); returns the URL of `master.m3u8` there.
    static func write(_ folder: String, _ files: [String: [String]]) throws -> URL {
        _ = try HLSFixtures.renditionLadder()
        let dir = try HLSFixtures.root().appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, lines) in files {
            try (lines.joined(separator: "\n") + "\n").write(
                to: dir.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return try HLSFixtures.url("\(folder)/master.m3u8")
    }

    /// A VOD media playlist of the `renditions` ladder's segments `names` in `folder`, each `seconds` long.
    static func media(_ folder: String, _ names: [String], seconds: Double) -> [String] {
        ["#EXTM3U", "#EXT-X-VERSION:3", "#EXT-X-TARGETDURATION:4", "#EXT-X-PLAYLIST-TYPE:VOD"]
            + names.flatMap { ["#EXTINF:\(seconds),", "../renditions/\(folder)/\($0)"] } + ["#EXT-X-ENDLIST"]
    }

    /// Plays `url` to its end (at most `limit` seconds); what was heard, how long it took, and the item.
    func playToEnd(_ url: URL, limit: Double) async throws -> (heard: [Float], seconds: Double, item: PlayerItem) {
        let sink = try TestSink()
        let player = Player.onSink(sink)
        defer { player.close() }
        let ended = endedFlag(player)
        let item = PlayerItem(url: url)
        player.replaceCurrentItem(with: item)
        let start = MonotonicClock.now()
        player.play()
        #expect(await eventually(timeout: limit) { ended.value }, "not ended at \(player.currentTime().seconds) s")
        return (sink.stopRecording(), MonotonicClock.now() - start, item)
    }

    @Test func aGroupThePlaylistDoesNotDefineIsLoggedAndThePicturesPlay() async throws {
        let url = try Self.write(
            "renditions-missing-group",
            [
                "master.m3u8": [
                    "#EXTM3U", "#EXT-X-VERSION:4",
                    "#EXT-X-STREAM-INF:BANDWIDTH=510000,RESOLUTION=640x360,CODECS=\"avc1.64001f,mp4a.40.2\","
                        + "AUDIO=\"surround\"",
                    "../renditions/v0/index.m3u8",
                ]
            ])
        let (heard, seconds, item) = try await playToEnd(url, limit: 15)
        #expect(item.error == nil, "\(String(describing: item.error))")
        let log = item.errorLog.map(\.errorComment)
        #expect(log.contains { $0.contains("AUDIO=\"surround\" names no EXT-X-MEDIA group") }, "\(log)")
        // The pictures played their 8 s on the clock; there was nothing to hear.
        #expect(seconds > 7.5, "ended after \(seconds) s")
        #expect(AudioAnalysis.audibleSeconds(heard) < 0.1)
    }

    @Test(arguments: [(sound: 4.0, pictures: 8.0), (sound: 8.0, pictures: 4.0)])
    func soundAndPicturesOfDifferentLengthsPlayToTheLongerEnd(_ lengths: (sound: Double, pictures: Double))
        async throws
    {
        let folder = "renditions-\(Int(lengths.sound))s-sound-\(Int(lengths.pictures))s-pictures"
        let url = try Self.write(
            folder,
            [
                "master.m3u8": [
                    "#EXTM3U", "#EXT-X-VERSION:4",
                    "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud\",NAME=\"English\",LANGUAGE=\"en\",DEFAULT=YES,"
                        + "AUTOSELECT=YES,URI=\"audio.m3u8\"",
                    "#EXT-X-STREAM-INF:BANDWIDTH=510000,RESOLUTION=640x360,CODECS=\"avc1.64001f,mp4a.40.2\","
                        + "AUDIO=\"aud\"",
                    "video.m3u8",
                ],
                "audio.m3u8": Self.media(
                    "a-en", lengths.sound == 4 ? ["seg00.ts"] : ["seg00.ts", "seg01.ts"], seconds: 4),
                "video.m3u8": Self.media(
                    "v0", (0..<Int(lengths.pictures / 2)).map { String(format: "seg%02d.ts", $0) }, seconds: 2),
            ])
        let longer = max(lengths.sound, lengths.pictures)
        let (heard, seconds, item) = try await playToEnd(url, limit: longer + 6)
        #expect(item.error == nil, "\(String(describing: item.error))")
        #expect(seconds > longer - 0.5 && seconds < longer + 3, "ended after \(seconds) s")
        let audible = AudioAnalysis.audibleSeconds(heard)
        #expect(abs(audible - lengths.sound) < 0.3, "\(audible) s heard of \(lengths.sound)")
        #expect(abs(AudioAnalysis.frequency(heard) - 440) < 5)
    }
}
