import Foundation
import Playhead
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

/// A live HLS stream on the test nginx: the 8 s packed-audio stream's playlist without `EXT-X-ENDLIST`.
func liveStream() throws -> URL {
    let vod = try HLSFixtures.stream("nowplaying-live", tone: 550, audioOnly: true, ["-hls_segment_type", "mpegts"])
    let dir = try HLSFixtures.root().appendingPathComponent(vod).deletingLastPathComponent()
    let live = dir.appendingPathComponent("live.m3u8")
    let text = try String(contentsOf: dir.appendingPathComponent("index.m3u8"), encoding: .utf8)
        .split(separator: "\n").filter { !$0.hasPrefix("#EXT-X-ENDLIST") && !$0.hasPrefix("#EXT-X-PLAYLIST-TYPE") }
    try (text.joined(separator: "\n") + "\n").write(to: live, atomically: true, encoding: .utf8)
    return try HLSFixtures.url("nowplaying-live/live.m3u8")
}

/// A player with silent real-time output and `item`, and an active session publishing it automatically.
@MainActor
func activeSession(_ item: PlayerItem) async throws -> (Player, NowPlayingSession, name: String) {
    let player = Player()
    player.audioOutputChoice = .null(untimed: false)
    player.replaceCurrentItem(with: item)
    #expect(await eventually { item.status == .readyToPlay }, "\(item.asset.url) did not load")
    let session = NowPlayingSession(players: [player])
    session.automaticallyPublishesNowPlayingInfo = true
    #expect(await session.becomeActiveIfPossible())
    let bus = try #require(session.nowPlayingInfoCenter.mprisBusName, "the session is not on the bus")
    return (player, session, String(bus.dropFirst("org.mpris.MediaPlayer2.".count)))
}

extension PlayerctlTests {
    /// Without app code the desktop sees the file's tags and cover; `PlayerItem.nowPlayingInfo` goes over them.
    @Test func sessionShowsTheTagsThenTheItemsNowPlayingInfo() async throws {
        _ = try freshCenter()
        let file = try taggedFile()
        let tags = try await info(from: file)
        let cover = try #require(tags.artwork?.data, "the tagged file has no cover")
        let item = PlayerItem(url: file)
        let (player, session, name) = try await activeSession(item)
        defer {
            session.invalidate()
            player.close()
        }
        let format = "{{title}}|{{artist}}|{{album}}|{{mpris:length}}|{{mpris:artUrl}}"
        func fields() async throws -> [String] {
            try await playerctl(name, "metadata", "--format", format).components(separatedBy: "|")
        }
        func art(_ url: String) throws -> [UInt8] {
            let art = try #require(URL(string: url), "mpris:artUrl \(url)")
            #expect(art.isFileURL)
            if let cache = ProcessInfo.processInfo.environment["XDG_CACHE_HOME"] {
                #expect(art.path.hasPrefix(cache), "\(art.path) is not under \(cache)")
            }
            return Array(try Data(contentsOf: art))
        }
        var shown = try await fields()
        try #require(shown.count == 5, "playerctl printed \(shown)")
        #expect(Array(shown[0...2]) == ["Now Title", "Now Artist", "Now Album"])
        #expect(abs((Double(shown[3]) ?? 0) / 1e6 - item.duration.seconds) < 0.001, "length \(shown[3])")
        #expect(try art(shown[4]) == cover, "the cover is the file's embedded picture")

        let appCover = try Fixtures.make(
            "nowplaying-app-cover.png", ["-f", "lavfi", "-i", "color=c=red:s=32x32:d=1", "-frames:v", "1"])
        let appBytes = Array(try Data(contentsOf: appCover))
        item.nowPlayingInfo = [
            NowPlayingInfoKey.title.rawValue: "App Title",
            NowPlayingInfoKey.artwork.rawValue: NowPlayingArtwork(data: appBytes),
            NowPlayingInfoKey.adTimeRanges.rawValue: [ad(0, 5)],
        ]
        #expect(try await eventually { try await fields().first == "App Title" })
        shown = try await fields()
        #expect(shown[1] == "Now Artist", "the tags the app did not replace stay")
        #expect(abs((Double(shown[3]) ?? 0) / 1e6 - (item.duration.seconds - 5)) < 0.001, "length without the ad")
        #expect(try art(shown[4]) == appBytes, "the app's artwork")
    }

    /// A live item: no length, no seeking or skipping, whatever the remote asks; the player still answers.
    @Test func aLiveItemCannotSeekOrSkip() async throws {
        _ = try freshCenter()
        let (player, session, name) = try await activeSession(PlayerItem(url: try taggedFile()))
        defer {
            session.invalidate()
            player.close()
        }
        let bus = "org.mpris.MediaPlayer2.\(name)"
        #expect(try await property(bus, "CanSeek") == "b true")
        var targets: [Double] = []
        let events = player.events()
        let recorder = Task {
            for await e in events { if case .seekStarted(let target) = e.kind { targets.append(target) } }
        }
        defer { recorder.cancel() }
        let live = PlayerItem(url: try liveStream())
        player.replaceCurrentItem(with: live)
        #expect(await eventually { live.status == .readyToPlay }, "the live stream did not load")
        #expect(!live.duration.isNumeric, "a live playlist has no duration: \(live.duration)")
        #expect(try await eventually { try await property(bus, "CanSeek") == "b false" })
        #expect(try await playerctl(name, "metadata", "--format", "{{mpris:length}}") == "")
        player.play()
        #expect(try await eventually { try await playerctl(name, "status") == "Playing" })
        _ = try? await playerctl(name, "position", "5")
        #expect(try await dbusSend(bus, "Player.Seek", "int64:5000000").status == 0, "the spec's no-op")
        #expect(try await dbusSend(bus, "Player.Seek", "int64:-5000000").status == 0, "the spec's no-op")
        let rate = try await setProperty(bus, "Rate", "d", "2")
        #expect(rate.status != 0 && rate.stderr.contains("fixed"), "a live stream plays at its rate: \(rate.stderr)")
        #expect(try await property(bus, "CanSeek") == "b false")
        #expect(targets == [], "the player was asked to seek to \(targets)")
        #expect(try await playerctl(name, "status") == "Playing")
    }
}
