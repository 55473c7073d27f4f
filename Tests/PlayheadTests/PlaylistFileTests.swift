import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// M3U and PLS parsing and expansion, without playing.
@Suite struct PlaylistFileTests {
    @Test func extendedM3U() {
        let text =
            "#EXTM3U\r\n#EXTINF:123 tvg-id=\"x\",Artist - Title\r\nsong.mp3\r\n\r\n# comment\r\nhttp://h/a.ogg\r\n"
        let entries = PlaylistFile.parseM3U(text)
        #expect(entries == [.init(location: "song.mp3", title: "Artist - Title"), .init(location: "http://h/a.ogg")])
    }

    @Test func plsInTheOrderOfItsNumbers() {
        let text = "[playlist]\nTitle2=Two\nFile2=b.flac\nFile10=c.wav\nFile1=a.wav\nNumberOfEntries=3\n"
        #expect(PlaylistFile.parsePLS(text).map(\.location) == ["a.wav", "b.flac", "c.wav"])
        #expect(PlaylistFile.parsePLS(text)[1].title == "Two")
    }

    @Test func hlsIsAStreamNotAList() throws {
        let folder = Paths.scratch("pl")
        let hls = folder.appendingPathComponent("stream.m3u8")
        try "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\ns0.ts\n".write(to: hls, atomically: true, encoding: .utf8)
        let list = folder.appendingPathComponent("list.m3u8")
        try "#EXTM3U\n#EXTINF:2,A\na.mp3\n".write(to: list, atomically: true, encoding: .utf8)
        #expect(!PlaylistFile.isPlaylist(hls.path))
        #expect(PlaylistFile.isPlaylist(list.path))
        #expect(!PlaylistFile.isPlaylist("http://example.com/list.m3u"))
        let expansion = PlaylistFile.expand([hls.path])
        #expect(expansion.entries == [.init(location: hls.path)] && expansion.problems.isEmpty)
    }

    /// A playlist's entries name files or web addresses: any other protocol FFmpeg speaks (tcp, gopher, ftp) is
    /// skipped with a word (a playlist from elsewhere made connections to hosts and ports the user never named).
    @Test func entriesOfOtherProtocolsAreSkipped() throws {
        let folder = Paths.scratch("schemes")
        defer { try? FileManager.default.removeItem(at: folder) }
        let list = folder.appendingPathComponent("list.m3u")
        let entries = ["tcp://127.0.0.1:9/x", "gopher://h/1", "ftp://h/a.mp3", "http://h/a.mp3", "HTTPS://h/b.mp3"]
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try entries.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        let expansion = PlaylistFile.expand([list.path])
        #expect(expansion.entries.map(\.location) == ["http://h/a.mp3", "HTTPS://h/b.mp3"])
        #expect(
            expansion.problems.count == 3
                && expansion.problems.allSatisfy { $0.contains("not a file or an http(s) URL") })
        // A file URL with no path, or another host's: no file here.
        for bad in ["file://", "file://relative.wav", "file://otherhost/tmp/a.wav"] {
            let e = PlaylistFile.expand([bad])
            #expect(e.entries.isEmpty && e.problems == ["\(bad): not a local file URL (file:///path)"], "\(bad)")
        }
        #expect(PlaylistFile.expand(["file://localhost/tmp/a.wav"]).entries.map(\.location) == ["/tmp/a.wav"])
        // On the command line the user chose: passed on.
        #expect(PlaylistFile.expand(["rtsp://h/live"]).entries.map(\.location) == ["rtsp://h/live"])
    }

    /// RFC 8089's `file:/path` (no authority) and a scheme in capitals name the local file, on the command line
    /// and in a playlist (they were taken for relative names: "no such file").
    @Test func fileURLsWithoutAnAuthorityOrInCapitals() throws {
        let folder = Paths.scratch("file-urls")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let song = folder.appendingPathComponent("song.wav").path
        _ = FileManager.default.createFile(atPath: song, contents: Data())
        let spellings = ["file:\(song)", "FILE://\(song)", "File:\(song)"]
        let direct = PlaylistFile.expand(spellings)
        #expect(direct.entries.map(\.location) == [song, song, song] && direct.problems.isEmpty, "\(direct)")
        let list = folder.appendingPathComponent("list.m3u")
        try spellings.joined(separator: "\n").write(to: list, atomically: true, encoding: .utf8)
        let listed = PlaylistFile.expand([list.path])
        #expect(listed.entries.map(\.location) == [song, song, song] && listed.problems.isEmpty, "\(listed)")
    }

    /// A playlist that includes itself is named as the user and the lists named it (through a link here), and
    /// through the list that closes the loop when that is another one (it was named by its resolved path).
    @Test func aLoopIsNamedAsTheListsNameIt() throws {
        let folder = Paths.scratch("loops")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: folder.appendingPathComponent("a.wav").path, contents: Data())
        try "a.wav\nself.m3u\n".write(to: folder.appendingPathComponent("self.m3u"), atomically: true, encoding: .utf8)
        try "a.wav\ntwo.m3u\n".write(to: folder.appendingPathComponent("one.m3u"), atomically: true, encoding: .utf8)
        try "one.m3u\n".write(to: folder.appendingPathComponent("two.m3u"), atomically: true, encoding: .utf8)
        let link = folder.appendingPathComponent("link").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: folder.path)
        let direct = PlaylistFile.expand(["\(link)/self.m3u"])
        #expect(direct.entries.map(\.location) == ["\(link)/a.wav"])
        #expect(direct.problems == ["\(link)/self.m3u: the playlist includes itself; ignored"])
        let indirect = PlaylistFile.expand(["\(link)/one.m3u"])
        #expect(indirect.entries.map(\.location) == ["\(link)/a.wav"])
        #expect(
            indirect.problems == ["\(link)/one.m3u: the playlist includes itself (through \(link)/two.m3u); ignored"])
    }

    @Test func nestedPlaylistsResolveAgainstTheirOwnFolder() throws {
        let folder = Paths.scratch("nest")
        let sub = folder.appendingPathComponent("sub")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        for name in ["top.wav", "sub/inner.wav"] {
            _ = FileManager.default.createFile(atPath: folder.appendingPathComponent(name).path, contents: Data())
        }
        try "inner.wav\n".write(to: sub.appendingPathComponent("inner.m3u"), atomically: true, encoding: .utf8)
        try "top.wav\nsub/inner.m3u\nsub/inner.m3u\n".write(
            to: folder.appendingPathComponent("top.m3u"), atomically: true, encoding: .utf8)
        let expansion = PlaylistFile.expand([folder.appendingPathComponent("top.m3u").path])
        #expect(
            expansion.entries.map(\.location)
                == [
                    folder.appendingPathComponent("top.wav").path, sub.appendingPathComponent("inner.wav").path,
                    sub.appendingPathComponent("inner.wav").path,
                ])
        #expect(expansion.problems.isEmpty, "a playlist named twice is not a cycle: \(expansion.problems)")
    }
}
