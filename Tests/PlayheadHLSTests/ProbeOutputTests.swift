import Foundation
import Testing

@testable import PlayheadHLS

@Suite("Probe report and JSON")
struct ProbeOutputTests {
    func json(_ playlist: Playlist) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: PlaylistJSON.data(for: playlist)) as? [String: Any])
    }

    @Test("media playlist JSON: effective IV, resolved offsets and URIs, carried dates, every key present")
    func mediaJSON() throws {
        let playlist = Playlist.media(
            try media(
                """
                #EXTM3U
                #EXT-X-TARGETDURATION:10
                #EXT-X-MEDIA-SEQUENCE:331
                #EXT-X-KEY:METHOD=AES-128,URI="k.bin"
                #EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:00Z
                #EXTINF:10,
                #EXT-X-BYTERANGE:100@0
                a.ts
                #EXTINF:10,
                #EXT-X-BYTERANGE:50
                a.ts
                """))
        let root = try json(playlist)
        #expect(root["type"] as? String == "media")
        let body = try #require(root["playlist"] as? [String: Any])
        #expect(body["playlistType"] is NSNull)
        #expect(body["live"] as? Bool == true)
        #expect((body["totalDuration"] as? NSNumber)?.doubleValue == 20)
        let segments = try #require(body["segments"] as? [[String: Any]])
        let second = segments[1]
        #expect(second["uri"] as? String == "a.ts")
        #expect(second["resolvedURI"] as? String == "https://cdn.example.com/live/2M/a.ts")
        let range = try #require(second["byteRange"] as? [String: Any])
        #expect((range["offset"] as? NSNumber)?.intValue == 100)
        #expect((range["length"] as? NSNumber)?.intValue == 50)
        let key = try #require(second["key"] as? [String: Any])
        #expect(key["iv"] as? String == "0x0000000000000000000000000000014c")
        #expect(key["ivExplicit"] as? Bool == false)
        #expect(key["resolvedURI"] as? String == "https://cdn.example.com/live/2M/k.bin")
        #expect(second["programDateTime"] as? String == "2024-01-01T00:00:10.000Z")
        for name in ["title", "map", "gap", "bitrate", "parts", "discontinuitySequence", "mediaSequence"] {
            #expect(second[name] != nil, "segment key \(name)")
        }
    }

    @Test("multivariant JSON and report list variants, renditions and warnings")
    func multivariantOutput() throws {
        let playlist = try PlaylistParser().parse(
            MultivariantPlaylistTests.full + "\n#EXT-X-STREAM-INF:BANDWIDTH=1, CODECS=\"x\"\nbad.m3u8\n",
            url: baseURL)
        let root = try json(playlist)
        let body = try #require(root["playlist"] as? [String: Any])
        let variants = try #require(body["variants"] as? [[String: Any]])
        #expect(variants.count == 3)
        #expect((variants[0]["resolution"] as? [String: Any])?["height"] as? Int == 1080)
        #expect(variants[1]["closedCaptions"] as? String == "NONE")
        #expect((variants[0]["otherAttributes"] as? [String: Any])?["PROGRAM-ID"] as? String == "1")
        #expect((root["warnings"] as? [[String: Any]])?.first?["line"] as? Int == 19)

        let report = ProbeReport.text(for: playlist)
        #expect(report.contains("variants: 3"))
        #expect(report.contains("5000 kb/s, avg 4000 kb/s, 1920x1080, 29.97 fps, avc1.640028,mp4a.40.2"))
        #expect(report.contains("audio group \"aac\":"))
        #expect(report.contains("Français [fr] (autoselect, 16/JOC ch)"))
        #expect(report.contains("warnings (1):\n  line 19:"))
    }

    @Test("media report: segment count, duration, live, keys")
    func mediaReport() throws {
        let report = ProbeReport.text(
            for: .media(try media(LowLatencyTests.fullPlaylist(first: 1, count: 3) + "#EXT-X-ENDLIST\n")))
        #expect(report.contains("segments: 3, total duration 0:00:12.000 (12 s)"))
        #expect(report.contains("type: ended (EXT-X-ENDLIST)"))
        #expect(report.contains("AES-128 key: 3 segments"))
        #expect(report.contains("discontinuities: 1"))
    }
}
