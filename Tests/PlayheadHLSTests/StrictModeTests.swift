import Foundation
import Testing

@testable import PlayheadHLS

/// Each problem RFC 8216bis forbids: strict mode throws it (with its line and kind); lenient mode parses and
/// records the same problem as a warning.
@Suite("Strict mode")
struct StrictModeTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String
        let line: Int?
        let kind: PlaylistIssueKind
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "missing #EXTM3U", text: "#EXT-X-TARGETDURATION:10\n#EXTINF:10,\na.ts\n", line: 1,
            kind: .missingHeader),
        Case(
            name: "#EXTM3U not first", text: "# comment\n#EXTM3U\n#EXT-X-TARGETDURATION:10\n", line: 1,
            kind: .missingHeader),
        Case(
            name: "EXTINF longer than the rounded target duration",
            text: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10.4,\na.ts\n#EXTINF:10.5,\nb.ts\n", line: 5,
            kind: .durationExceedsTarget),
        Case(
            name: "segment URI without EXTINF", text: "#EXTM3U\n#EXT-X-TARGETDURATION:10\na.ts\n", line: 3,
            kind: .missingSegmentDuration),
        Case(
            name: "EXTINF without a URI", text: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\n", line: 3,
            kind: .missingSegmentDuration),
        Case(name: "no target duration", text: "#EXTM3U\n#EXTINF:10,\na.ts\n", line: 1, kind: .missingTargetDuration),
        Case(
            name: "duplicate media sequence",
            text: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:1\n#EXT-X-MEDIA-SEQUENCE:2\n", line: 4,
            kind: .duplicateTag),
        Case(
            name: "media sequence after a segment",
            text: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1,\na.ts\n#EXT-X-MEDIA-SEQUENCE:2\n", line: 5,
            kind: .misplacedTag),
        Case(
            name: "negative media sequence", text: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-MEDIA-SEQUENCE:-1\n",
            line: 3, kind: .invalidValue),
        Case(
            name: "invalid playlist type", text: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-PLAYLIST-TYPE:LIVE\n",
            line: 3, kind: .invalidValue),
        Case(
            name: "whitespace in an attribute list",
            text: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1, CODECS=\"a\"\na.m3u8\n", line: 2,
            kind: .invalidAttributeList),
        Case(
            name: "STREAM-INF without BANDWIDTH", text: "#EXTM3U\n#EXT-X-STREAM-INF:CODECS=\"a\"\na.m3u8\n", line: 2,
            kind: .missingAttribute),
        Case(
            name: "STREAM-INF without a URI", text: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\n", line: 2,
            kind: .missingAttribute),
        Case(
            name: "unquoted CODECS", text: "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=avc1\na.m3u8\n", line: 2,
            kind: .invalidValue),
        Case(
            name: "mixed multivariant and media tags",
            text: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n", line: 2,
            kind: .mixedPlaylist),
        Case(
            name: "key without URI", text: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-KEY:METHOD=AES-128\n", line: 3,
            kind: .missingAttribute),
        Case(
            name: "METHOD=NONE with a URI",
            text: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-KEY:METHOD=NONE,URI=\"k\"\n", line: 3,
            kind: .invalidValue),
        Case(
            name: "IV is not hexadecimal",
            text: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0xZZ\n", line: 3,
            kind: .invalidValue),
        Case(
            name: "implicit byte-range offset with no previous range",
            text: "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:1,\n#EXT-X-BYTERANGE:100\na.ts\n", line: 5,
            kind: .invalidByteRange),
        Case(
            name: "part without PART-INF",
            text: "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PART:DURATION=1,URI=\"p\"\n", line: 3, kind: .misplacedTag),
        Case(
            name: "part longer than the part target",
            text:
                "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-PART:DURATION=1.5,URI=\"p\"\n",
            line: 5, kind: .durationExceedsTarget),
        Case(
            name: "invalid program date-time",
            text: "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PROGRAM-DATE-TIME:yesterday\n", line: 3,
            kind: .invalidValue),
        Case(
            name: "DATERANGE without ID",
            text: "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-DATERANGE:START-DATE=\"2024-01-01T00:00:00Z\"\n", line: 3,
            kind: .missingAttribute),
        Case(
            name: "DEFAULT=YES with AUTOSELECT=NO",
            text: "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"x\",DEFAULT=YES,AUTOSELECT=NO\n", line: 2,
            kind: .invalidValue),
    ]

    @Test("strict mode throws the problem with its line and kind", arguments: cases)
    func strictThrows(_ item: Case) {
        do {
            _ = try PlaylistParser(options: .strict).parse(item.text, url: baseURL)
            Issue.record("\(item.name): strict parse succeeded")
        } catch {
            #expect(error.kind == item.kind, "\(item.name): \(error)")
            #expect(error.line == item.line, "\(item.name): \(error)")
        }
    }

    @Test("lenient mode accepts it and records the same problem as a warning", arguments: cases)
    func lenientWarns(_ item: Case) throws {
        let playlist = try PlaylistParser().parse(item.text, url: baseURL)
        let warning = playlist.warnings.first { $0.kind == item.kind && $0.line == item.line }
        #expect(warning != nil, "\(item.name): \(playlist.warnings)")
    }

    @Test("a file that is not a playlist is an error even in lenient mode")
    func notAPlaylist() {
        #expect(throws: PlaylistParseError.self) { try PlaylistParser().parse("hello\nworld\n", url: nil) }
    }
}

/// Strict mode must not reject valid playlists: these corpus files follow RFC 8216bis.
@Suite("Strict mode accepts valid playlists")
struct StrictModeValidCorpusTests {
    static let valid = [
        "videojs-m3u8-parser/test/fixtures/integration/llhls.m3u8",
        "videojs-m3u8-parser/test/fixtures/integration/fmp4.m3u8",
        "videojs-m3u8-parser/test/fixtures/integration/encrypted.m3u8",
        "videojs-m3u8-parser/test/fixtures/integration/diff-init-key.m3u8",
        "videojs-m3u8-parser/test/fixtures/integration/master-fmp4.m3u8",
        "videojs-m3u8-parser/test/fixtures/integration/iFramePlaylist.m3u8",
        "videojs-m3u8-parser/test/fixtures/integration/disc-sequence.m3u8",
        "videojs-m3u8-parser/test/fixtures/integration/zeroDuration.m3u8",
        "grafov-m3u8/sample-playlists/media-playlist-large.m3u8",
        "grafov-m3u8/sample-playlists/wowza-vod-chunklist.m3u8",
        "grafov-m3u8/sample-playlists/master-with-closed-captions-eq-none.m3u8",
        "grafov-m3u8/sample-playlists/media-playlist-with-program-date-time.m3u8",
        "grafov-m3u8/sample-playlists/media-playlist-with-byterange.m3u8",
        "grafov-m3u8/sample-playlists/widevine-bitrate.m3u8",
    ]

    @Test("valid corpus playlists parse strictly without warnings", arguments: valid)
    func strictAccepts(path: String) throws {
        let url = try #require(Corpus.folder("hls/" + path))
        let playlist = try PlaylistParser(options: .strict).parseFile(url)
        #expect(playlist.warnings.isEmpty)
    }
}
