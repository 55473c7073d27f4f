import Foundation
import Testing

@testable import PlayheadHLS

@Suite("Edge cases")
struct EdgeCaseTests {
    @Test("invalid UTF-8 after #EXTM3U is repaired with a warning when lenient, rejected when strict")
    func invalidUTF8() throws {
        var bytes = Array("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,caf".utf8)
        bytes += [0xE9, 0x0A] + Array("a.ts\n".utf8)
        let playlist = try PlaylistParser().parse(Data(bytes), url: nil)
        #expect(playlist.warnings.first?.kind == .notAPlaylist)
        #expect(playlist.media?.segments.first?.title == "caf\u{FFFD}")
        #expect(throws: PlaylistParseError.self) { try PlaylistParser(options: .strict).parse(Data(bytes), url: nil) }
    }

    @Test("a byte range of no bytes, or past the largest offset, is dropped with a warning (the player trapped on it)")
    func unusableByteRanges() throws {
        for range in ["0@100", "0", "9223372036854775807@9223372036854775807", "2@9223372036854775806"] {
            let text =
                "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n#EXT-X-BYTERANGE:\(range)\na.ts\n"
            let playlist = try PlaylistParser().parse(text, url: nil)
            #expect(playlist.media?.segments.first?.byteRange == nil, "\(range)")
            #expect(playlist.warnings.map(\.kind) == [.invalidByteRange], "\(range)")
            #expect(throws: PlaylistParseError.self) { try PlaylistParser(options: .strict).parse(text, url: nil) }
        }
        // The last byte there is.
        let last =
            "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n#EXT-X-BYTERANGE:1@9223372036854775806\na.ts\n"
        #expect(try PlaylistParser().parse(last, url: nil).media?.segments.first?.byteRange?.offset == Int.max - 1)
    }

    /// A negative `BANDWIDTH` or `#EXTINF` is said to be negative (not "not a number"), and the bandwidth is not
    /// kept (the probe showed "-0 kb/s").
    @Test func negativeNumbersAreSaidSo() throws {
        let media = try PlaylistParser().parse("#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:-2,\na.ts\n", url: nil)
        #expect(media.warnings.map(\.message) == [#"#EXTINF duration "-2" is negative"#], "\(media.warnings)")
        let multivariant = try PlaylistParser().parse("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=-5\nv.m3u8\n", url: nil)
        #expect(multivariant.multivariant?.variants.first?.stream.bandwidth == nil)
        #expect(
            multivariant.warnings.map(\.message).first == "#EXT-X-STREAM-INF: BANDWIDTH=-5 is negative",
            "\(multivariant.warnings)")
    }

    @Test("a STREAM-INF without URI does not turn a media playlist multivariant")
    func danglingStreamInf() throws {
        let playlist = try PlaylistParser().parse(
            "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\na.ts\n#EXT-X-STREAM-INF:BANDWIDTH=1\n", url: nil)
        #expect(playlist.media?.segments.count == 1)
        #expect(Set(playlist.warnings.map(\.kind)) == [.missingAttribute, .mixedPlaylist])
    }

    @Test("values that cannot be written back are rejected, with a warning")
    func unrepresentableValues() throws {
        let playlist = try multivariant(
            """
            #EXTM3U
            #EXT-X-MEDIA:TYPE="AUDIO, X",GROUP-ID=a"b,NAME="n"
            #EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO=x"y
            v.m3u8
            """)
        #expect(playlist.renditions[0].type.rawValue == "")
        #expect(playlist.renditions[0].groupID == "")
        #expect(playlist.variants[0].audio == nil)
        #expect(playlist.warnings.count >= 3)
    }

    @Test("session data needs exactly one of VALUE and URI; closed captions have no URI")
    func multivariantRules() throws {
        let text = """
            #EXTM3U
            #EXT-X-SESSION-DATA:DATA-ID="a",VALUE="1",URI="u"
            #EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID="cc",NAME="c",INSTREAM-ID="CC1",URI="x"
            #EXT-X-STREAM-INF:BANDWIDTH=1
            v.m3u8
            """
        let playlist = try multivariant(text)
        #expect(playlist.warnings.map(\.line) == [2, 3])
        #expect(throws: PlaylistParseError.self) { try multivariant(text, strict: true) }
    }

    @Test("variables in hexadecimal-sequence values")
    func variablesEverywhere() throws {
        let playlist = try media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-DEFINE:NAME="iv",VALUE="0x0F"
            #EXT-X-KEY:METHOD=AES-128,URI="k",IV={$iv}
            #EXTINF:4,
            a.ts
            """)
        #expect(playlist.segments[0].key?.iv == [0x0F])
        #expect(playlist.segments[0].initializationVector(for: playlist.segments[0].key!).last == 0x0F)
    }

    @Test("absurd numbers neither crash nor overflow")
    func absurdNumbers() throws {
        let playlist = try media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-MEDIA-SEQUENCE:9223372036854775807
            #EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:00Z
            #EXTINF:\(String(repeating: "9", count: 300)),
            a.ts
            #EXTINF:1,
            b.ts
            """)
        #expect(playlist.segments[1].mediaSequence == Int.min, "wraps instead of trapping")
        #expect(playlist.segments[0].duration == 1e300)
        #expect(!ProbeReport.text(for: .media(playlist)).isEmpty)
        #expect(!PlaylistJSON.data(for: .media(playlist)).isEmpty)
    }
}
