import Foundation
import Playhead
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

extension PlayerctlTests {
    /// `OpenUri` of a local M3U playlist (`playerctl open file:///.../list.m3u`): on a queue its entries play in
    /// order from the first (the missing one left out); one that lists nothing playable is the caller's error and
    /// changes nothing. (The playlist itself was opened as media: "nothing in it can be played".)
    @Test func openUriPlaysAPlaylistsEntries() async throws {
        _ = try freshCenter()
        let first = try Fixtures.tone(seconds: 4, frequency: 550)
        let second = try Fixtures.tone(seconds: 4, frequency: 660)
        let folder = Paths.scratch("open-playlist")
        let list = folder.appendingPathComponent("list.m3u")
        try "#EXTM3U\n\(first.path)\nmissing.mp3\n\(second.path)\n".write(to: list, atomically: true, encoding: .utf8)
        let empty = folder.appendingPathComponent("empty.m3u")
        try "#EXTM3U\nmissing.mp3\n".write(to: empty, atomically: true, encoding: .utf8)
        let q = QueuePlayer(items: [PlayerItem(url: try taggedFile())])
        q.audioOutputChoice = .null(untimed: false)
        defer { q.close() }
        let session = NowPlayingSession(players: [q])
        defer { session.invalidate() }
        session.automaticallyPublishesNowPlayingInfo = true
        #expect(await session.becomeActiveIfPossible())
        let bus = try #require(session.nowPlayingInfoCenter.mprisBusName)
        #expect(try await property(bus, "SupportedMimeTypes", interface: "").contains("\"audio/x-mpegurl\""))
        let open = try await dbusSend(bus, "Player.OpenUri", "string:\(list.absoluteString)")
        #expect(open.status == 0, "\(open.stderr)")
        #expect(q.items().map(\.asset.url).prefix(2) == [first, second], "\(q.items().map(\.asset.url))")
        #expect(await eventually { q.timeControlStatus == .playing })
        let refused = try await dbusSend(bus, "Player.OpenUri", "string:\(empty.absoluteString)")
        #expect(refused.status != 0 && refused.stderr.contains("missing.mp3"), "\(refused.stderr)")
        #expect(q.currentItem?.asset.url == first)
    }
}
