import Foundation
import Playhead
import PlayheadTestSupport
import Testing

/// A folder given to play (`playhead ~/Music/Album`) is its media files, as a file manager lists them.
@Suite struct PlaylistFolderTests {
    /// An album folder: tracks in natural order (2 before 10, case ignored), a disc subfolder where its name falls,
    /// the cover, notes, cue sheet, a playlist and hidden files left out, a link back to the folder not followed.
    @Test func aFolderIsItsMediaFilesInNaturalOrder() throws {
        let folder = Paths.scratch("album-folder")
        try? FileManager.default.removeItem(at: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = [
            "10 Ten.flac", "2 Two.MP3", "01 One.ogg", "cover.jpg", "notes.txt", "album.cue", "list.m3u",
            ".hidden.mp3", "Disc 2/1 Eleven.opus", "Disc 2/.DS_Store", "b-side.m4a",
        ]
        for name in files {
            let url = folder.appendingPathComponent(name)
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data([0]).write(to: url)
        }
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("Disc 2/back"), withDestinationURL: folder)
        let expansion = PlaylistFile.expand([folder.path])
        #expect(expansion.problems.isEmpty, "\(expansion.problems)")
        let names = expansion.entries.map { String($0.location.dropFirst(folder.path.count + 1)) }
        #expect(names == ["01 One.ogg", "2 Two.MP3", "10 Ten.flac", "b-side.m4a", "Disc 2/1 Eleven.opus"], "\(names)")
    }

    /// A folder without media files is reported (one line naming it) and plays nothing.
    @Test func aFolderWithoutMediaIsReported() throws {
        let folder = Paths.scratch("no-media-folder")
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data([0]).write(to: folder.appendingPathComponent("cover.jpg"))
        let expansion = PlaylistFile.expand([folder.path])
        #expect(expansion.entries.isEmpty)
        #expect(expansion.problems == ["\(folder.path): no media files in the folder"], "\(expansion.problems)")
    }
}
