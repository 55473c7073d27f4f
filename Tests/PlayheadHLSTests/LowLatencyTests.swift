import Foundation
import Testing

@testable import PlayheadHLS

@Suite("Low-latency HLS and delta updates")
struct LowLatencyTests {
    static func fullPlaylist(first: Int, count: Int) -> String {
        var text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-VERSION:9
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=12,CAN-SKIP-DATERANGES=YES,HOLD-BACK=12,PART-HOLD-BACK=1.0
            #EXT-X-PART-INF:PART-TARGET=1.0
            #EXT-X-MEDIA-SEQUENCE:\(first)
            #EXT-X-DISCONTINUITY-SEQUENCE:1
            #EXT-X-KEY:METHOD=AES-128,URI="key"
            #EXT-X-MAP:URI="init.mp4"
            #EXT-X-DATERANGE:ID="old",START-DATE="2024-01-01T00:00:00Z"
            #EXT-X-DATERANGE:ID="keep",START-DATE="2024-01-01T00:00:01Z"
            #EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:\(String(format: "%02d", (first - 100) * 4))Z

            """
        for sequence in first..<(first + count) {
            if sequence == first + 1 { text += "#EXT-X-DISCONTINUITY\n" }
            text += "#EXTINF:4,\nseg\(sequence).m4s\n"
        }
        return text
    }

    @Test("server control, part info, parts, preload hints, rendition reports")
    func lowLatencyTags() throws {
        let playlist = try media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=24,HOLD-BACK=12.5,PART-HOLD-BACK=3.1
            #EXT-X-PART-INF:PART-TARGET=1.004
            #EXT-X-PART:DURATION=1.0,URI="p1.m4s",INDEPENDENT=YES,BYTERANGE="1000@0"
            #EXT-X-PART:DURATION=1.0,URI="p1.m4s",BYTERANGE="500"
            #EXTINF:2,
            s1.m4s
            #EXT-X-PART:DURATION=1.004,URI="p2.m4s",GAP=YES
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="p3.m4s",BYTERANGE-START=10,BYTERANGE-LENGTH=20
            #EXT-X-PRELOAD-HINT:TYPE=MAP,URI="init.mp4"
            #EXT-X-RENDITION-REPORT:URI="../1M/index.m3u8",LAST-MSN=10,LAST-PART=3
            """, strict: true)
        let control = try #require(playlist.serverControl)
        #expect(control.canBlockReload && !control.canSkipDateRanges)
        #expect(control.canSkipUntil == 24 && control.holdBack == 12.5 && control.partHoldBack == 3.1)
        #expect(playlist.partInformation?.partTarget == 1.004)
        let parts = playlist.segments[0].parts
        #expect(parts.count == 2)
        #expect(parts[0].independent && parts[0].byteRange == ByteRange(length: 1000, offset: 0))
        #expect(parts[1].byteRange == ByteRange(length: 500, offset: 1000, isOffsetExplicit: false))
        #expect(playlist.trailingParts.map(\.gap) == [true])
        #expect(
            playlist.preloadHints[0]
                == PreloadHint(type: "PART", uri: "p3.m4s", baseURL: baseURL, byteRangeStart: 10, byteRangeLength: 20))
        #expect(playlist.preloadHints[1].byteRangeStart == nil)
        #expect(playlist.renditionReports[0].lastMediaSequence == 10)
        #expect(playlist.renditionReports[0].lastPart == 3)
        #expect(playlist.renditionReports[0].url?.absoluteString == "https://cdn.example.com/live/1M/index.m3u8")
    }

    @Test("a delta update merged onto the previous playlist equals the full playlist")
    func deltaMerge() throws {
        let previous = try media(Self.fullPlaylist(first: 100, count: 6), strict: true)
        let full = try media(Self.fullPlaylist(first: 102, count: 6), strict: true)
        let delta = try media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-VERSION:10
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=12,CAN-SKIP-DATERANGES=YES,HOLD-BACK=12,PART-HOLD-BACK=1.0
            #EXT-X-PART-INF:PART-TARGET=1.0
            #EXT-X-MEDIA-SEQUENCE:102
            #EXT-X-DISCONTINUITY-SEQUENCE:1
            #EXT-X-SKIP:SKIPPED-SEGMENTS=4,RECENTLY-REMOVED-DATERANGES="old"
            #EXTINF:4,
            seg106.m4s
            #EXTINF:4,
            seg107.m4s
            """, strict: true)
        #expect(delta.isDeltaUpdate)
        #expect(delta.segments.map(\.mediaSequence) == [106, 107])
        var merged = try delta.applyingDeltaUpdate(to: previous)
        #expect(!merged.isDeltaUpdate)
        #expect(merged.segments.map(\.uri) == (102..<108).map { "seg\($0).m4s" })
        #expect(merged.segments.map(\.mediaSequence) == Array(102..<108))
        #expect(merged.dateRanges.map(\.id) == ["keep"])
        // Against the full playlist for the same moment: segments agree on everything but the discontinuity
        // (the full playlist at 102 has its own first discontinuity at 103).
        var expected = full.segments
        for index in expected.indices { expected[index].discontinuity = false }
        for index in merged.segments.indices { merged.segments[index].discontinuity = false }
        for index in expected.indices {
            expected[index].discontinuitySequence = 2
            merged.segments[index].discontinuitySequence = 2
            expected[index].hasProgramDateTimeTag = false
            merged.segments[index].hasProgramDateTimeTag = false
        }
        #expect(merged.segments.map(\.keys) == expected.map(\.keys))
        #expect(merged.segments.map(\.map) == expected.map(\.map))
        #expect(merged.segments.map(\.programDateTime) == expected.map(\.programDateTime))
        #expect(merged.segments == expected)
        #expect(merged.trailingMap == full.trailingMap && merged.trailingMap?.uri == "init.mp4")
    }

    @Test("the init section of the parts after the last segment is known before any segment is listed")
    func trailingMap() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:2
            #EXT-X-VERSION:9
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.5
            #EXT-X-PART-INF:PART-TARGET=0.5
            #EXT-X-MAP:URI="init.mp4"
            #EXT-X-PART:DURATION=0.5,URI="seg00.m4s",BYTERANGE="1000@0",INDEPENDENT=YES

            """
        let playlist = try media(text, strict: true)
        #expect(playlist.segments.isEmpty && playlist.trailingParts.count == 1)
        #expect(playlist.trailingMap?.uri == "init.mp4")
        let written = PlaylistWriter().write(playlist)
        #expect(written.contains("#EXT-X-MAP:URI=\"init.mp4\""), "\(written)")
        #expect(try media(written, strict: true).trailingMap == playlist.trailingMap)
        let listed = try media(text + "#EXTINF:2,\nseg00.m4s\n#EXT-X-MAP:URI=\"init2.mp4\"\n", strict: true)
        #expect(listed.segments[0].map?.uri == "init.mp4" && listed.trailingMap?.uri == "init2.mp4")
    }

    @Test("discontinuity sequence is recounted over skipped segments")
    func deltaDiscontinuities() throws {
        let previous = try media(Self.fullPlaylist(first: 100, count: 4), strict: true)
        #expect(previous.segments.map(\.discontinuitySequence) == [1, 2, 2, 2])
        let delta = try media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-MEDIA-SEQUENCE:100
            #EXT-X-DISCONTINUITY-SEQUENCE:1
            #EXT-X-SKIP:SKIPPED-SEGMENTS=4
            #EXT-X-DISCONTINUITY
            #EXTINF:4,
            seg104.m4s
            """)
        let merged = try delta.applyingDeltaUpdate(to: previous)
        #expect(merged.segments.map(\.discontinuitySequence) == [1, 2, 2, 2, 3])
    }

    @Test("a delta that skips segments the previous playlist does not have is an error")
    func deltaGap() throws {
        let previous = try media(Self.fullPlaylist(first: 100, count: 3))
        let delta = try media(
            "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:101\n#EXT-X-SKIP:SKIPPED-SEGMENTS=5\n")
        #expect(throws: PlaylistParseError.self) { try delta.applyingDeltaUpdate(to: previous) }
        let notDelta = try media(Self.fullPlaylist(first: 101, count: 1))
        #expect(try notDelta.applyingDeltaUpdate(to: previous) == notDelta)
    }
}
