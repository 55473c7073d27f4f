import Foundation
import Testing

@testable import PlayheadHLS

/// What every peer (hls.js, ExoPlayer, Chromium) recovers from playlists written by others: lenient mode reads the
/// value they read and records a warning with its line; strict mode rejects the same text.
@Suite("Lenient recoveries")
struct LenientRecoveryTests {
    /// Parses `text` leniently, and checks that the strict parse throws `kind` at `line`.
    func lenient(
        _ text: String, line: Int, kind: PlaylistIssueKind, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> Playlist {
        do {
            _ = try PlaylistParser(options: .strict).parse(text, url: baseURL)
            Issue.record("the strict parse succeeded", sourceLocation: sourceLocation)
        } catch {
            #expect(error.line == line && error.kind == kind, "\(error)", sourceLocation: sourceLocation)
        }
        let playlist = try PlaylistParser().parse(text, url: baseURL)
        #expect(
            playlist.warnings.contains { $0.line == line && $0.kind == kind }, "\(playlist.warnings)",
            sourceLocation: sourceLocation)
        return playlist
    }

    /// Checks that writing `playlist` and reading it back gives the same value (the writer keeps what was recovered).
    func expectRoundTrip(_ playlist: Playlist, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let again = try PlaylistParser().parse(PlaylistWriter().write(playlist), url: baseURL)
        #expect(withoutWarnings(again) == withoutWarnings(playlist), sourceLocation: sourceLocation)
    }

    @Test("enumerated values and numbers with stray spaces around them are read trimmed")
    func straySpaces() throws {
        let playlist = try lenient(
            """
            #EXTM3U
            #EXT-X-MEDIA:TYPE= AUDIO ,GROUP-ID="a",NAME="en",DEFAULT= YES,AUTOSELECT=YES ,URI="a.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH= 1000,AUDIO= "a"
            v.m3u8
            """, line: 2, kind: .invalidAttributeList)
        let multivariant = try #require(playlist.multivariant)
        #expect(multivariant.renditions.first?.type == .audio)
        #expect(multivariant.renditions.first?.isDefault == true)
        #expect(multivariant.renditions.first?.autoselect == true)
        #expect(multivariant.variants.first?.bandwidth == 1000)
        #expect(multivariant.variants.first?.audio == "a")
        #expect(Set(playlist.warnings.map(\.kind)) == [.invalidAttributeList])
    }

    @Test("#EXTINF: 11.320, (a space after the colon) is 11.32 s")
    func extinfSpace() throws {
        let playlist = try lenient(
            "#EXTM3U\n#EXT-X-TARGETDURATION:12\n#EXT-X-VERSION:3\n#EXTINF: 11.320,\na.ts\n", line: 4,
            kind: .invalidValue)
        #expect(playlist.media?.segments.map(\.duration) == [11.32])
        #expect(playlist.warnings.count == 1)
    }

    @Test("a decimal BANDWIDTH is read as its integer part, and the variant keeps it")
    func decimalBandwidth() throws {
        let playlist = try lenient(
            "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1280000.5,AVERAGE-BANDWIDTH=1000000.0\nv.m3u8\n", line: 2,
            kind: .invalidValue)
        #expect(playlist.multivariant?.variants.first?.bandwidth == 1_280_000)
        #expect(playlist.multivariant?.variants.first?.averageBandwidth == 1_000_000)
        #expect(Set(playlist.warnings.map(\.kind)) == [.invalidValue], "BANDWIDTH is not missing")
    }

    @Test("a decimal EXT-X-TARGETDURATION is read as its integer part")
    func decimalTargetDuration() throws {
        let playlist = try lenient(
            "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:6.006\n#EXTINF:6.006,\na.ts\n", line: 3,
            kind: .invalidValue)
        #expect(playlist.media?.targetDuration == 6)
        #expect(playlist.warnings.map(\.kind) == [.invalidValue], "the target duration is not missing")
    }

    @Test("an EXT-X-PROGRAM-DATE-TIME after the last segment dates the segments before it")
    func trailingProgramDateTime() throws {
        let playlist = try lenient(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:6
            #EXT-X-VERSION:3
            #EXTINF:6,
            a.ts
            #EXTINF:4.5,
            b.ts
            #EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:10.500Z
            """, line: 8, kind: .misplacedTag)
        let segments = try #require(playlist.media?.segments)
        #expect(
            segments.map(\.programDateTime) == [
                ISO8601.parse("2024-01-01T00:00:00Z"), ISO8601.parse("2024-01-01T00:00:06Z"),
            ])
        #expect(segments.map(\.hasProgramDateTimeTag) == [false, false])
        #expect(playlist.media?.trailingProgramDateTime == ISO8601.parse("2024-01-01T00:00:10.500Z"))
        try expectRoundTrip(playlist)
    }

    @Test("before the parts of the segment in progress, a trailing EXT-X-PROGRAM-DATE-TIME is valid and dates the rest")
    func programDateTimeBeforeTrailingParts() throws {
        let playlist = try media(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-VERSION:6
            #EXT-X-PART-INF:PART-TARGET=1
            #EXT-X-MAP:URI="init.mp4"
            #EXTINF:4,
            a.m4s
            #EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:04Z
            #EXT-X-PART:DURATION=1,URI="p0.m4s",INDEPENDENT=YES
            """, strict: true)
        #expect(playlist.segments.first?.programDateTime == ISO8601.parse("2024-01-01T00:00:00Z"))
        #expect(playlist.warnings.isEmpty)
        try expectRoundTrip(.media(playlist))
    }

    @Test("after an EXT-X-SKIP that is not first, the segments after it are numbered past the skipped ones")
    func misplacedSkip() throws {
        let playlist = try lenient(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-VERSION:9
            #EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=24
            #EXT-X-MEDIA-SEQUENCE:10
            #EXTINF:4,
            a.ts
            #EXTINF:4,
            b.ts
            #EXT-X-SKIP:SKIPPED-SEGMENTS=3
            #EXTINF:4,
            c.ts
            """, line: 10, kind: .misplacedTag)
        #expect(playlist.media?.segments.map(\.mediaSequence) == [10, 11, 15])
        try expectRoundTrip(playlist)
    }

    @Test("{$name} inside an EXT-X-DEFINE VALUE is literal text, in both modes", arguments: [false, true])
    func literalDefineValue(strict: Bool) throws {
        let playlist = try multivariant(
            """
            #EXTM3U
            #EXT-X-VERSION:8
            #EXT-X-DEFINE:NAME="a",VALUE="x"
            #EXT-X-DEFINE:NAME="b",VALUE="{$a}/{$undefined}"
            #EXT-X-STREAM-INF:BANDWIDTH=1
            {$b}.m3u8
            """, strict: strict)
        #expect(playlist.variableValues["b"] == "{$a}/{$undefined}")
        #expect(playlist.variants.first?.uri == "{$a}/{$undefined}.m3u8")
        #expect(playlist.warnings.isEmpty)
    }
}
