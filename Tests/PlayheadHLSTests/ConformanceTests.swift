import Foundation
import Testing

@testable import PlayheadHLS

/// The RFC 8216bis rules found missing by playing streams written by others (issue 14): strict mode throws each
/// with its line, its kind and the RFC section in the message; lenient mode records the same problem as a warning.
@Suite("Strict conformance: renditions, groups, date ranges, protocol versions")
struct ConformanceTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String
        let line: Int
        let kind: PlaylistIssueKind
        var url = baseURL
        var testDescription: String { name }
    }

    static let variant = "#EXT-X-STREAM-INF:BANDWIDTH=1"
    static let media = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n"

    static let renditionCases: [Case] = [
        Case(
            name: "SUBTITLES rendition without URI (4.4.6.1)",
            text:
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"en\"\n\(variant),SUBTITLES=\"s\"\nv.m3u8\n",
            line: 2, kind: .missingAttribute),
        Case(
            name: "CLOSED-CAPTIONS without INSTREAM-ID (4.4.6.1)",
            text:
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"c\",NAME=\"en\"\n\(variant),CLOSED-CAPTIONS=\"c\"\n"
                + "v.m3u8\n", line: 2, kind: .missingAttribute),
        Case(
            name: "variant naming an undefined AUDIO group (4.4.6.2.1)",
            text: "#EXTM3U\n\(variant)\nv0.m3u8\n\(variant),AUDIO=\"aac\"\nv1.m3u8\n", line: 4,
            kind: .protocolViolation),
        Case(
            name: "variant naming an undefined VIDEO group (4.4.6.2.1)",
            text: "#EXTM3U\n\(variant),VIDEO=\"cam\"\nv.m3u8\n", line: 2, kind: .protocolViolation),
        Case(
            name: "variant naming an undefined SUBTITLES group (4.4.6.2.1)",
            text: "#EXTM3U\n\(variant),SUBTITLES=\"subs\"\nv.m3u8\n", line: 2, kind: .protocolViolation),
        Case(
            name: "variant naming an AUDIO group that only a SUBTITLES rendition defines (4.4.6.2.1)",
            text:
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"g\",NAME=\"en\",URI=\"s.m3u8\"\n"
                + "\(variant),AUDIO=\"g\"\nv.m3u8\n", line: 3, kind: .protocolViolation),
        Case(
            name: "I-frame variant naming an undefined VIDEO group (4.4.6.2.1)",
            text: "#EXTM3U\n#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1,URI=\"i.m3u8\",VIDEO=\"cam\"\n", line: 2,
            kind: .protocolViolation),
        Case(
            name: "two DEFAULT=YES in one group (4.4.6.1.1)",
            text:
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"en\",DEFAULT=YES,URI=\"en.m3u8\"\n"
                + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"de\",DEFAULT=YES,URI=\"de.m3u8\"\n"
                + "\(variant),AUDIO=\"a\"\nv.m3u8\n", line: 3, kind: .protocolViolation),
        Case(
            name: "two equal NAMEs in one group (4.4.6.1.1)",
            text:
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"English\",LANGUAGE=\"en\",URI=\"1.m3u8\"\n"
                + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"English\",LANGUAGE=\"en\",URI=\"2.m3u8\"\n"
                + "\(variant),AUDIO=\"a\"\nv.m3u8\n", line: 3, kind: .protocolViolation),
        Case(
            name: "two EXT-X-DATERANGEs with one ID and different attributes (4.4.5.1)",
            text:
                media + "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2024-01-01T00:00:00Z\",DURATION=10\n"
                + "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2024-01-01T00:00:00Z\",DURATION=20\n", line: 4,
            kind: .protocolViolation),
    ]

    static let attributeListCases: [Case] = [
        Case(
            name: "attribute list with a trailing comma (4.2)", text: "#EXTM3U\n\(variant),\nv.m3u8\n", line: 2,
            kind: .invalidAttributeList),
        Case(
            name: "whitespace after an enumerated value (4.2)",
            text:
                "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO ,GROUP-ID=\"a\",NAME=\"en\",URI=\"a.m3u8\"\n\(variant),AUDIO=\"a\"\n"
                + "v.m3u8\n", line: 2, kind: .invalidAttributeList),
        Case(
            name: "whitespace before an enumerated value (4.2)",
            text: media + "#EXT-X-KEY:METHOD= AES-128,URI=\"k\"\n#EXTINF:4,\na.ts\n", line: 3,
            kind: .invalidAttributeList),
        Case(
            name: "whitespace inside an enumerated value (4.2)",
            text: media + "#EXT-X-KEY:METHOD=AES 128,URI=\"k\"\n#EXTINF:4,\na.ts\n", line: 3, kind: .invalidValue),
    ]

    static let versionCases: [Case] = [
        Case(
            name: "IV without EXT-X-VERSION (needs 2)",
            text: media + "#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x01\n#EXTINF:4,\na.ts\n", line: 3,
            kind: .incompatibleVersion),
        Case(
            name: "decimal EXTINF at version 2 (needs 3)",
            text: media + "#EXT-X-VERSION:2\n#EXTINF:4,\na.ts\n#EXTINF:3.5,\nb.ts\n", line: 6,
            kind: .incompatibleVersion),
        Case(
            name: "EXT-X-BYTERANGE at version 3 (needs 4)",
            text: media + "#EXT-X-VERSION:3\n#EXTINF:4,\n#EXT-X-BYTERANGE:100@0\na.ts\n", line: 5,
            kind: .incompatibleVersion),
        Case(
            name: "EXT-X-I-FRAMES-ONLY at version 3 (needs 4)",
            text: media + "#EXT-X-VERSION:3\n#EXT-X-I-FRAMES-ONLY\n#EXTINF:4,\n#EXT-X-BYTERANGE:100@0\na.ts\n",
            line: 4, kind: .incompatibleVersion),
        Case(
            name: "KEYFORMAT at version 4 (needs 5)",
            text: media + "#EXT-X-VERSION:4\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",KEYFORMAT=\"identity\"\n", line: 4,
            kind: .incompatibleVersion),
        Case(
            name: "KEYFORMATVERSIONS at version 4 (needs 5)",
            text: media + "#EXT-X-VERSION:4\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",KEYFORMATVERSIONS=\"1\"\n", line: 4,
            kind: .incompatibleVersion),
        Case(
            name: "METHOD=SAMPLE-AES at version 4 (needs 5)",
            text: media + "#EXT-X-VERSION:4\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k\"\n", line: 4,
            kind: .incompatibleVersion),
        Case(
            name: "EXT-X-MAP in an I-frame playlist at version 4 (needs 5)",
            text: media + "#EXT-X-VERSION:4\n#EXT-X-I-FRAMES-ONLY\n#EXT-X-MAP:URI=\"i.mp4\"\n", line: 5,
            kind: .incompatibleVersion),
        Case(
            name: "EXT-X-MAP at version 5 (needs 6)",
            text: media + "#EXT-X-VERSION:5\n#EXT-X-MAP:URI=\"i.mp4\"\n#EXTINF:4,\na.m4s\n", line: 4,
            kind: .incompatibleVersion),
        Case(
            name: "INSTREAM-ID=SERVICEn at version 6 (needs 7)",
            text:
                "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"c\",NAME=\"en\","
                + "INSTREAM-ID=\"SERVICE1\"\n\(variant),CLOSED-CAPTIONS=\"c\"\nv.m3u8\n", line: 3,
            kind: .incompatibleVersion),
        Case(
            name: "EXT-X-DEFINE at version 7 (needs 8)",
            text: "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-DEFINE:NAME=\"x\",VALUE=\"1\"\n\(variant)\nv{$x}.m3u8\n", line: 3,
            kind: .incompatibleVersion),
        Case(
            name: "EXT-X-SKIP at version 8 (needs 9)",
            text:
                media + "#EXT-X-VERSION:8\n#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24\n#EXT-X-SKIP:SKIPPED-SEGMENTS=2\n"
                + "#EXTINF:4,\na.ts\n", line: 5, kind: .incompatibleVersion),
        Case(
            name: "EXT-X-SKIP replacing date ranges at version 9 (needs 10)",
            text:
                media + "#EXT-X-VERSION:9\n#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24,CAN-SKIP-DATERANGES=YES\n"
                + "#EXT-X-SKIP:SKIPPED-SEGMENTS=2,RECENTLY-REMOVED-DATERANGES=\"\"\n#EXTINF:4,\na.ts\n", line: 5,
            kind: .incompatibleVersion),
        Case(
            name: "EXT-X-DEFINE:QUERYPARAM at version 10 (needs 11)",
            text: "#EXTM3U\n#EXT-X-VERSION:10\n#EXT-X-DEFINE:QUERYPARAM=\"t\"\n\(variant)\nv.m3u8?t={$t}\n", line: 3,
            kind: .incompatibleVersion, url: URL(string: "https://example.com/main.m3u8?t=1")!),
        Case(
            name: "REQ-VIDEO-LAYOUT at version 11 (needs 12)",
            text: "#EXTM3U\n#EXT-X-VERSION:11\n\(variant),REQ-VIDEO-LAYOUT=\"CH-STEREO\"\nv.m3u8\n", line: 3,
            kind: .incompatibleVersion),
    ]

    static let cases = renditionCases + attributeListCases + versionCases

    @Test(
        "strict mode throws the problem with its line, kind and RFC section", arguments: cases)
    func strictThrows(_ item: Case) {
        do {
            _ = try PlaylistParser(options: .strict).parse(item.text, url: item.url)
            Issue.record("\(item.name): strict parse succeeded")
        } catch {
            #expect(error.kind == item.kind, "\(item.name): \(error)")
            #expect(error.line == item.line, "\(item.name): \(error)")
            #expect(error.message.contains("RFC 8216bis"), "\(item.name): \(error)")
        }
    }

    @Test("lenient mode parses it and records the same problem as a warning", arguments: cases)
    func lenientWarns(_ item: Case) throws {
        let playlist = try PlaylistParser().parse(item.text, url: item.url)
        let warning = playlist.warnings.first { $0.kind == item.kind && $0.line == item.line }
        #expect(warning != nil, "\(item.name): \(playlist.warnings)")
    }

    struct Valid: CustomTestStringConvertible, Sendable {
        let name: String
        let text: String
        var testDescription: String { name }
        init(_ name: String, _ text: String) {
            self.name = name
            self.text = text
        }
    }

    static let accepted: [Valid] = [
        Valid("CLOSED-CAPTIONS=NONE names no group", "#EXTM3U\n\(variant),CLOSED-CAPTIONS=NONE\nv.m3u8\n"),
        Valid(
            "a DATERANGE repeated with its ID adds END-DATE and keeps the shared attributes",
            media + "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2024-01-01T00:00:00Z\"\n"
                + "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2024-01-01T00:00:00Z\",END-DATE=\"2024-01-01T00:00:30Z\"\n"
        ),
        Valid(
            "one DEFAULT=YES per group, equal NAMEs in different groups",
            "#EXTM3U\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"lo\",NAME=\"en\",DEFAULT=YES,URI=\"lo.m3u8\"\n"
                + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"hi\",NAME=\"en\",DEFAULT=YES,URI=\"hi.m3u8\"\n"
                + "#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"lo\",NAME=\"en\",URI=\"s.m3u8\"\n"
                + "\(variant),AUDIO=\"lo\",SUBTITLES=\"lo\"\nlo.m3u8\n\(variant),AUDIO=\"hi\"\nhi.m3u8\n"
        ),
        Valid(
            "EXT-X-MAP in an I-frame playlist at version 5",
            media + "#EXT-X-VERSION:5\n#EXT-X-I-FRAMES-ONLY\n#EXT-X-MAP:URI=\"i.mp4\"\n#EXTINF:4,\n"
                + "#EXT-X-BYTERANGE:100@0\na.m4s\n"
        ),
        Valid(
            "each feature at the version that introduced it",
            media + "#EXT-X-VERSION:6\n#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k\",IV=0x01,KEYFORMAT=\"identity\"\n"
                + "#EXT-X-MAP:URI=\"i.mp4\"\n#EXTINF:3.5,\n#EXT-X-BYTERANGE:100@0\na.m4s\n"
        ),
    ]

    @Test("what the RFC allows stays accepted strictly, without warnings", arguments: accepted)
    func strictAccepts(_ item: Valid) throws {
        let playlist = try PlaylistParser(options: .strict).parse(item.text, url: baseURL)
        #expect(playlist.warnings.isEmpty)
    }
}
