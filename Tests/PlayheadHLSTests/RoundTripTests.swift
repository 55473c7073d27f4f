import Foundation
import Testing

@testable import PlayheadHLS

func withoutWarnings(_ playlist: Playlist) -> Playlist {
    switch playlist {
    case .media(var media):
        media.warnings = []
        return .media(media)
    case .multivariant(var multivariant):
        multivariant.warnings = []
        return .multivariant(multivariant)
    }
}

@Suite("Writer round trip and the grafov corpus")
struct RoundTripTests {
    static var corpusFiles: [String] {
        (Corpus.files(in: "hls/videojs-m3u8-parser/test/fixtures/integration", withExtension: "m3u8")
            + Corpus.files(in: "hls/grafov-m3u8/sample-playlists", withExtension: "m3u8")).map(\.path)
    }

    @Test("parse → write → parse gives an equal value, for every corpus playlist", arguments: corpusFiles)
    func corpusRoundTrip(path: String) throws {
        let url = URL(fileURLWithPath: path)
        let first = try PlaylistParser().parseFile(url)
        let text = PlaylistWriter().write(first)
        let second = try PlaylistParser().parse(text, url: url)
        #expect(withoutWarnings(second) == withoutWarnings(first), "\(url.lastPathComponent):\n\(text)")
        // The writer reproduces what the model holds, including values the RFC forbids (a negative media
        // sequence, a missing BANDWIDTH), but it never adds problems of its own.
        #expect(second.warnings.count <= first.warnings.count, "\(first.warnings) → \(second.warnings)")
    }

    @Test("round trip of every tag the unit tests use")
    func everyTagRoundTrip() throws {
        let texts = [
            MultivariantPlaylistTests.full, LowLatencyTests.fullPlaylist(first: 7, count: 3),
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:10
            #EXT-X-DEFINE:NAME="d",VALUE="x"
            #EXT-X-DATERANGE:ID="ad1",CLASS="c",START-DATE="2024-01-01T00:00:00.000Z",CUE="PRE",DURATION=30,X-A="1",SCTE35-OUT=0xFC30,END-ON-NEXT=YES
            #EXT-X-KEY:METHOD=AES-128,URI="k1",IV=0x0102
            #EXT-X-KEY:METHOD=SAMPLE-AES,URI="k2",KEYFORMAT="f",KEYFORMATVERSIONS="1/2"
            #EXT-X-MAP:URI="init.mp4",BYTERANGE="10@0"
            #EXT-X-KEY:METHOD=NONE
            #EXT-X-BITRATE:100
            #EXT-X-CUE-OUT:10
            #EXTINF:9.5,t
            #EXT-X-BYTERANGE:100@5
            {$d}.ts
            #EXT-X-GAP
            #EXT-X-DISCONTINUITY
            #EXT-X-PROGRAM-DATE-TIME:2024-01-01T00:00:00.123Z
            #EXTINF:10,
            #EXT-X-BYTERANGE:100
            x.ts
            #EXT-X-KEY:METHOD=AES-128,URI="k3"
            #EXTINF:0.000001,
            y.ts
            #EXT-X-ENDLIST
            """,
        ]
        for text in texts {
            let first = try PlaylistParser().parse(text, url: baseURL)
            let written = PlaylistWriter().write(first)
            let second = try PlaylistParser().parse(written, url: baseURL)
            #expect(withoutWarnings(second) == withoutWarnings(first), "\(written)")
        }
    }

    @Test("the 1.19 MB stress playlist parses")
    func stressPlaylist() throws {
        let url = try #require(Corpus.folder("hls/grafov-m3u8/sample-playlists/media-playlist-large.m3u8"))
        let playlist = try #require(try PlaylistParser().parseFile(url).media)
        #expect(playlist.segments.count > 10_000)
        #expect(playlist.segments.first?.uri == "movie0.ts")
        #expect(playlist.warnings.isEmpty)
    }

    @Test("every grafov sample gives a value or an error, in both modes")
    func grafovSamples() throws {
        let files = Corpus.files(in: "hls/grafov-m3u8/sample-playlists", withExtension: "m3u8")
        #expect(files.count == 26)
        for file in files {
            #expect(throws: Never.self) { _ = try PlaylistParser().parseFile(file) }
            do {
                _ = try PlaylistParser(options: .strict).parseFile(file)
            } catch let error as PlaylistParseError {
                #expect(error.line != nil || error.kind == .notAPlaylist, "\(file.lastPathComponent): \(error)")
            }
        }
    }
}
