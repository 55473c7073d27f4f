import Foundation
import Testing

@testable import Playhead

/// `FileFollower` at the end of a local file: a finished file ends, a growing one is read on.
@Suite struct FileFollowerTests {
    /// A file of `bytes` zero bytes in a fresh temporary folder, last modified `age` seconds ago.
    static func file(bytes: Int, age: Double) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("follower-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("clip.mp4").path
        try Data(count: bytes).write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -age)], ofItemAtPath: path)
        return path
    }

    /// A demuxer that ends before the file's last byte (an MP4 whose index follows its media data) in a file
    /// nobody writes: the end is the end, however often it is asked (it once sent the demuxer back to read on,
    /// over and over, until playback ended).
    @Test func aFinishedFileEndsWhereTheDemuxerStopped() throws {
        let path = try Self.file(bytes: 4096, age: 3600)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let follower = try #require(FileFollower(location: path))
        for _ in 0..<3 {
            #expect(!follower.waitForMore(beyond: 1000, idle: 1, cancelled: { false }))
        }
    }

    /// A file that grew since it was opened: the bytes past the demuxer's position are read once; asked again
    /// at the same size, it waits for more (none comes here: it gives up after `idle`).
    @Test func aGrowingFileIsReadOnOncePerSize() throws {
        let path = try Self.file(bytes: 4096, age: 3600)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        let follower = try #require(FileFollower(location: path))
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(count: 4096))
        try handle.close()
        #expect(follower.waitForMore(beyond: 4096, idle: 0.3, cancelled: { false }))
        #expect(!follower.waitForMore(beyond: 6000, idle: 0.3, cancelled: { false }))
        #expect(!follower.waitForMore(beyond: 8192, idle: 0.3, cancelled: { false }))
    }
}
