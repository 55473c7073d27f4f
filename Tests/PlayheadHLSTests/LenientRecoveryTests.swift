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
}
