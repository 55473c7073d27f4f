import Foundation
import Testing

@testable import PlayheadHLS

let baseURL = URL(string: "https://cdn.example.com/live/2M/index.m3u8?token=abc")!

func media(_ text: String, strict: Bool = false, url: URL = baseURL) throws -> MediaPlaylist {
    try PlaylistParser(options: PlaylistParserOptions(strict: strict)).parseMediaPlaylist(text, url: url)
}

@Suite("Media playlist tags")
struct MediaPlaylistTests {
    @Test("header tags: version, target duration, sequences, type, end list, I-frames only, independent, start")
    func headerTags() throws {
        let playlist = try media(
            """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:6
            #EXT-X-MEDIA-SEQUENCE:100
            #EXT-X-DISCONTINUITY-SEQUENCE:7
            #EXT-X-PLAYLIST-TYPE:EVENT
            #EXT-X-I-FRAMES-ONLY
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-START:TIME-OFFSET=-12.5,PRECISE=YES
            #EXTINF:6,
            a.ts
            #EXT-X-ENDLIST
            """, strict: true)
        #expect(playlist.version == 7)
        #expect(playlist.targetDuration == 6)
        #expect(playlist.mediaSequence == 100)
        #expect(playlist.discontinuitySequence == 7)
        #expect(playlist.playlistType == .event)
        #expect(playlist.iFramesOnly)
        #expect(playlist.independentSegments)
        #expect(playlist.start == StartPoint(timeOffset: -12.5, precise: true))
        #expect(playlist.hasEndList)
        #expect(!playlist.isLive)
        #expect(playlist.segments[0].mediaSequence == 100)
        #expect(playlist.segments[0].discontinuitySequence == 7)
        #expect(playlist.warnings.isEmpty)
    }

    @Test("EXTINF duration and title; URIs as written and resolved")
    func extinf() throws {
        let playlist = try media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-VERSION:3
            #EXTINF:9.009,Title, with comma
            seg1.ts
            #EXTINF:10,
            ../1M/seg2.ts
            #EXTINF:3
            https://other.example.com/seg3.ts
            """)
        #expect(playlist.segments.map(\.duration) == [9.009, 10, 3])
        #expect(playlist.segments[0].title == "Title, with comma")
        #expect(playlist.segments[1].uri == "../1M/seg2.ts")
        #expect(playlist.segments[0].url?.absoluteString == "https://cdn.example.com/live/2M/seg1.ts")
        #expect(playlist.segments[1].url?.absoluteString == "https://cdn.example.com/live/1M/seg2.ts")
        #expect(playlist.segments[2].url?.absoluteString == "https://other.example.com/seg3.ts")
        #expect(playlist.totalDuration == 9.009 + 10 + 3)
        #expect(playlist.isLive)
        #expect(playlist.warnings.map(\.line) == [8], "EXTINF without comma is accepted with a warning")
    }

    @Test("byte ranges: explicit offsets, implicit continuation of the same resource")
    func byteRanges() throws {
        let playlist = try media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-VERSION:4
            #EXTINF:10,
            #EXT-X-BYTERANGE:1000@500
            main.ts
            #EXTINF:10,
            #EXT-X-BYTERANGE:2000
            main.ts
            #EXTINF:10,
            #EXT-X-BYTERANGE:300
            main.ts
            #EXTINF:10,
            other.ts
            """, strict: true)
        let ranges = playlist.segments.map(\.byteRange)
        #expect(ranges[0] == ByteRange(length: 1000, offset: 500, isOffsetExplicit: true))
        #expect(ranges[1] == ByteRange(length: 2000, offset: 1500, isOffsetExplicit: false))
        #expect(ranges[2] == ByteRange(length: 300, offset: 3500, isOffsetExplicit: false))
        #expect(ranges[3] == nil)
    }

    @Test("an implicit offset after another resource is a warning (lenient) and an error (strict)")
    func byteRangeOtherResource() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-VERSION:4
            #EXTINF:10,
            #EXT-X-BYTERANGE:1000@0
            a.ts
            #EXTINF:10,
            #EXT-X-BYTERANGE:500
            b.ts
            """
        let lenient = try media(text)
        #expect(lenient.segments[1].byteRange?.offset == 1000)
        #expect(lenient.warnings.map(\.kind) == [.invalidByteRange])
        #expect(lenient.warnings.first?.line == 9)
        #expect(
            throws: PlaylistParseError(
                line: 9, kind: .invalidByteRange,
                message: "#EXT-X-BYTERANGE without offset follows a range of another resource")
        ) {
            try media(text, strict: true)
        }
    }

    @Test("keys: methods, IV default is the media sequence number, NONE clears, KEYFORMAT keeps several")
    func keys() throws {
        let playlist = try media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-VERSION:5
            #EXT-X-MEDIA-SEQUENCE:258
            #EXT-X-KEY:METHOD=AES-128,URI="key1.bin"
            #EXTINF:10,
            a.ts
            #EXT-X-KEY:METHOD=AES-128,URI="key2.bin",IV=0x000102030405060708090A0B0C0D0E0F
            #EXTINF:10,
            b.ts
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://k",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
            #EXTINF:10,
            c.ts
            #EXT-X-KEY:METHOD=NONE
            #EXTINF:10,
            d.ts
            #EXT-X-KEY:METHOD=SAMPLE-AES-CTR,URI="data:text/plain;base64,AAAA",KEYFORMAT="urn:uuid:edef8ba9-79d6-4ace-a3c8-27dcd51d21ed"
            #EXTINF:10,
            e.ts
            """, strict: true)
        let s = playlist.segments
        #expect(s[0].key?.method == .aes128)
        #expect(s[0].key?.url?.absoluteString == "https://cdn.example.com/live/2M/key1.bin")
        #expect(s[0].initializationVector(for: s[0].key!) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 2])
        #expect(s[1].key?.iv == Array(0...15))
        #expect(s[1].initializationVector(for: s[1].key!) == Array(0...15))
        #expect(s[2].keys.count == 2, "a key with another KEYFORMAT adds to the identity key")
        #expect(s[2].keys[1].keyFormat == "com.apple.streamingkeydelivery")
        #expect(s[2].keys[1].keyFormatVersions == "1")
        #expect(s[3].keys.isEmpty)
        #expect(s[4].key?.method == .sampleAESCTR)
    }

    @Test("maps: URI, byte range, the keys in effect where the map appears")
    func maps() throws {
        let playlist = try media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-VERSION:6
            #EXT-X-KEY:METHOD=AES-128,URI="k"
            #EXT-X-MAP:URI="init.mp4",BYTERANGE="720@0"
            #EXT-X-KEY:METHOD=NONE
            #EXTINF:10,
            a.m4s
            #EXT-X-MAP:URI="init2.mp4",BYTERANGE="800"
            #EXTINF:10,
            b.m4s
            """, strict: true)
        let first = try #require(playlist.segments[0].map)
        #expect(first.uri == "init.mp4")
        #expect(first.byteRange == ByteRange(length: 720, offset: 0, isOffsetExplicit: true))
        #expect(first.keys.map(\.uri) == ["k"])
        #expect(playlist.segments[0].keys.isEmpty)
        #expect(playlist.segments[1].map?.byteRange == ByteRange(length: 800, offset: 0, isOffsetExplicit: false))
        #expect(playlist.segments[1].map?.url?.absoluteString == "https://cdn.example.com/live/2M/init2.mp4")
    }
}
