import Foundation
import Testing

@testable import PlayheadHLS

@Suite("EXT-X-DEFINE and variable substitution")
struct VariableTests {
    @Test("NAME/VALUE substituted in URI lines and quoted strings, not in enumerated strings")
    func valueDefinitions() throws {
        let playlist = try multivariant(
            """
            #EXTM3U
            #EXT-X-VERSION:8
            #EXT-X-DEFINE:NAME="host",VALUE="https://media.example.com"
            #EXT-X-DEFINE:NAME="v_1-x",VALUE="hd"
            #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="a-{$v_1-x}",NAME="Main",URI="{$host}/audio.m3u8"
            #EXT-X-STREAM-INF:BANDWIDTH=1,AUDIO="a-{$v_1-x}"
            {$host}/{$v_1-x}/index.m3u8
            """, strict: true)
        #expect(playlist.variants[0].uri == "https://media.example.com/hd/index.m3u8")
        #expect(playlist.variants[0].audio == "a-hd")
        #expect(playlist.renditions[0].uri == "https://media.example.com/audio.m3u8")
        #expect(playlist.variables.map(\.name) == ["host", "v_1-x"])
        #expect(playlist.variableValues["v_1-x"] == "hd")
    }

    @Test("IMPORT from the multivariant playlist and QUERYPARAM from the playlist URL")
    func importAndQuery() throws {
        let url = URL(string: "https://example.com/live/media.m3u8?token=s3cr3t&x=1")!
        let options = PlaylistParserOptions(strict: true, importedVariables: ["host": "https://cdn.example.com"])
        let playlist = try PlaylistParser(options: options).parseMediaPlaylist(
            """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-VERSION:11
            #EXT-X-DEFINE:IMPORT="host"
            #EXT-X-DEFINE:QUERYPARAM="token"
            #EXT-X-MAP:URI="{$host}/init.mp4?t={$token}"
            #EXTINF:4,
            {$host}/seg1.m4s?t={$token}
            """, url: url)
        #expect(playlist.segments[0].uri == "https://cdn.example.com/seg1.m4s?t=s3cr3t")
        #expect(playlist.segments[0].map?.uri == "https://cdn.example.com/init.mp4?t=s3cr3t")
        #expect(playlist.variables.map(\.source) == [.import, .queryParameter])
    }

    @Test("an undefined variable fails the parse in every mode", arguments: [false, true])
    func undefined(strict: Bool) {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXTINF:4,
            {$missing}/a.ts
            """
        #expect(throws: PlaylistParseError(line: 4, kind: .undefinedVariable, message: "undefined variable {$missing}"))
        {
            try media(text, strict: strict)
        }
    }

    @Test("failing definitions: missing import, missing query parameter, IMPORT in a multivariant playlist")
    func failingDefinitions() {
        #expect(throws: PlaylistParseError.self) {
            try media("#EXTM3U\n#EXT-X-DEFINE:IMPORT=\"nope\"\n")
        }
        #expect(throws: PlaylistParseError.self) {
            try media("#EXTM3U\n#EXT-X-DEFINE:QUERYPARAM=\"nope\"\n")
        }
        #expect(throws: PlaylistParseError.self) {
            try multivariant("#EXTM3U\n#EXT-X-DEFINE:IMPORT=\"a\"\n#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n")
        }
        #expect(throws: PlaylistParseError.self) {
            try media("#EXTM3U\n#EXT-X-DEFINE:NAME=\"a b\",VALUE=\"x\"\n")
        }
    }

    @Test("a duplicate definition is an error in strict mode and the later value wins otherwise")
    func duplicates() throws {
        let text = """
            #EXTM3U
            #EXT-X-TARGETDURATION:4
            #EXT-X-DEFINE:NAME="a",VALUE="1"
            #EXT-X-DEFINE:NAME="a",VALUE="2"
            #EXTINF:4,
            {$a}.ts
            """
        #expect(try media(text).segments[0].uri == "2.ts")
        #expect(throws: PlaylistParseError.self) { try media(text, strict: true) }
    }
}
