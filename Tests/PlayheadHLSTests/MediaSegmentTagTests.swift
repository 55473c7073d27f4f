import Foundation
import Testing

@testable import PlayheadHLS

@Suite("Media playlist tags: dates, gaps, bitrates, date ranges, unknown tags")
struct MediaSegmentTagTests {
    @Test("program date-time is carried forward and back; discontinuities counted")
    func programDateTime() throws {
        let playlist = try media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-VERSION:3
            #EXT-X-DISCONTINUITY-SEQUENCE:2
            #EXTINF:4,
            a.ts
            #EXT-X-PROGRAM-DATE-TIME:2024-03-01T10:00:00.000+01:00
            #EXTINF:6,
            b.ts
            #EXTINF:5.5,
            c.ts
            #EXT-X-DISCONTINUITY
            #EXT-X-PROGRAM-DATE-TIME:2024-03-01T12:00:00Z
            #EXTINF:2,
            d.ts
            #EXTINF:2,
            e.ts
            """, strict: true)
        let s = playlist.segments
        let base = try #require(ISO8601.parse("2024-03-01T09:00:00Z"))
        #expect(s[1].programDateTime == base)
        #expect(s[1].hasProgramDateTimeTag)
        #expect(s[0].programDateTime == base.addingTimeInterval(-4), "backfilled from the first tag")
        #expect(!s[0].hasProgramDateTimeTag)
        #expect(s[2].programDateTime == base.addingTimeInterval(6))
        #expect(s[3].programDateTime == ISO8601.parse("2024-03-01T12:00:00Z"))
        #expect(s[4].programDateTime == ISO8601.parse("2024-03-01T12:00:02Z"))
        #expect(s.map(\.discontinuitySequence) == [2, 2, 2, 3, 3])
        #expect(s.map(\.discontinuity) == [false, false, false, true, false])
    }

    @Test("gap and bitrate (bitrate skips byte-range segments)")
    func gapAndBitrate() throws {
        let playlist = try media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-VERSION:4
            #EXT-X-BITRATE:1500
            #EXTINF:10,
            a.ts
            #EXT-X-GAP
            #EXTINF:10,
            b.ts
            #EXTINF:10,
            #EXT-X-BYTERANGE:100@0
            c.ts
            #EXT-X-BITRATE:900
            #EXTINF:10,
            d.ts
            """, strict: true)
        #expect(playlist.segments.map(\.gap) == [false, true, false, false])
        #expect(playlist.segments.map(\.bitrate) == [1500, 1500, nil, 900])
    }

    @Test("date ranges: every attribute, client attributes, SCTE-35")
    func dateRanges() throws {
        let playlist = try media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-DATERANGE:ID="ad1",CLASS="com.example.ad",START-DATE="2024-01-01T00:00:00.000Z",CUE="PRE,ONCE",END-DATE="2024-01-01T00:00:30.000Z",DURATION=30,PLANNED-DURATION=30.5,X-AD-ID="42",X-COUNT=3,SCTE35-OUT=0xFC30,SCTE35-IN=0x01,SCTE35-CMD=0x02
            #EXT-X-DATERANGE:ID="chapter",CLASS="chapters",START-DATE="2024-01-01T00:00:30Z",END-ON-NEXT=YES
            #EXTINF:10,
            a.ts
            """, strict: true)
        let ad = playlist.dateRanges[0]
        #expect(ad.id == "ad1")
        #expect(ad.dateRangeClass == "com.example.ad")
        #expect(ad.startDate == ISO8601.parse("2024-01-01T00:00:00Z"))
        #expect(ad.endDate == ISO8601.parse("2024-01-01T00:00:30Z"))
        #expect(ad.cue == ["PRE", "ONCE"])
        #expect(ad.duration == 30)
        #expect(ad.plannedDuration == 30.5)
        #expect(ad.clientAttributes.quotedString("X-AD-ID") == "42")
        #expect(ad.clientAttributes.decimalInteger("X-COUNT") == 3)
        #expect(ad.scte35Out == [0xFC, 0x30])
        #expect(ad.scte35In == [0x01])
        #expect(ad.scte35Command == [0x02])
        #expect(playlist.dateRanges[1].endOnNext)
        #expect(playlist.dateRanges[1].effectiveEndDate == nil)
        #expect(ad.effectiveEndDate == ad.endDate)
    }

    @Test("unknown tags and attributes are kept")
    func unknownTags() throws {
        let playlist = try media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-CUE-OUT:15
            #EXTINF:10,
            a.ts
            #EXT-X-KEY:METHOD=AES-128,URI="k",X-VENDOR="v"
            #EXT-MY-FLAG
            #EXTINF:10,
            b.ts
            #EXT-X-TRAILER:1
            # a comment is not a tag
            """, strict: true)
        #expect(playlist.segments[0].unknownTags == [UnknownTag(name: "EXT-X-CUE-OUT", value: "15")])
        #expect(playlist.segments[1].unknownTags == [UnknownTag(name: "EXT-MY-FLAG", value: nil)])
        #expect(playlist.segments[1].key?.unknownAttributes.quotedString("X-VENDOR") == "v")
        #expect(playlist.unknownTags == [UnknownTag(name: "EXT-X-TRAILER", value: "1")])
    }

    @Test("lenient parse of broken values keeps going with line-numbered warnings")
    func lenientWarnings() throws {
        let playlist = try media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:NaN
            #EXT-X-MEDIA-SEQUENCE:-3
            #EXT-X-PLAYLIST-TYPE:LIVE
            #EXTINF:abc,
            a.ts
            """)
        #expect(playlist.targetDuration == nil)
        #expect(playlist.mediaSequence == -3)
        #expect(playlist.playlistType == nil)
        #expect(playlist.segments[0].duration == 0)
        #expect(playlist.warnings.map(\.line) == [2, 3, 4, 5, 1])
        #expect(playlist.warnings.last?.kind == .missingTargetDuration)
    }

    @Test("Data input, CRLF line endings and a byte-order mark")
    func dataInput() throws {
        let text = "\u{FEFF}#EXTM3U\r\n#EXT-X-TARGETDURATION:4\r\n#EXTINF:4,\r\nx.ts\r\n"
        let playlist = try PlaylistParser(options: .strict).parse(Data(text.utf8), url: baseURL)
        #expect(playlist.media?.segments.map(\.uri) == ["x.ts"])
        #expect(throws: PlaylistParseError.self) {
            try PlaylistParser().parse(Data([0x00, 0xFF, 0xFE, 0x12]), url: nil)
        }
    }
}
