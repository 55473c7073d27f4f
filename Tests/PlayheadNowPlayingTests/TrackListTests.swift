import Foundation
import Playhead
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

/// The current track's id as playerctl prints it (without its quotes).
private func currentTrack(_ name: String) async throws -> String {
    try await playerctl(name, "metadata", "mpris:trackid").trimmingCharacters(in: ["'"])
}

/// The `Tracks` property: the track ids in order.
private func tracks(_ bus: String) async throws -> [String] {
    try await property(bus, "Tracks", interface: "TrackList").split(separator: " ").dropFirst(2)
        .map { $0.trimmingCharacters(in: ["\""]) }
}

extension PlayerctlTests {
    /// A session on a `QueuePlayer` exports the queue as the MPRIS TrackList; next, previous, GoTo, AddTrack and
    /// RemoveTrack act on the queue, and every change is signalled.
    @Test func aQueueIsTheTrackList() async throws {
        _ = try freshCenter()
        let files = [try taggedFile(), try Fixtures.tone(seconds: 4, frequency: 550), try Fixtures.tone(seconds: 4)]
        let items = files.map { PlayerItem(url: $0) }
        let q = QueuePlayer(items: items)
        q.audioOutputChoice = .null(untimed: false)
        defer { q.close() }
        #expect(await eventually { items[0].status == .readyToPlay }, "the queue's first item did not load")
        let session = NowPlayingSession(players: [q])
        defer { session.invalidate() }
        session.automaticallyPublishesNowPlayingInfo = true
        #expect(await session.becomeActiveIfPossible())
        let name = String(
            try #require(session.nowPlayingInfoCenter.mprisBusName).dropFirst("org.mpris.MediaPlayer2.".count))
        let bus = "org.mpris.MediaPlayer2.\(name)"
        try await checkExportedInterfaces(
            bus, ["org.mpris.MediaPlayer2", "org.mpris.MediaPlayer2.Player", "org.mpris.MediaPlayer2.TrackList"])
        #expect(try await property(bus, "HasTrackList", interface: "") == "b true")
        #expect(try await property(bus, "CanEditTracks", interface: "TrackList") == "b true")
        let monitor = try await SeekedMonitor(match: "type='signal',interface='org.mpris.MediaPlayer2.TrackList'")
        defer { monitor.stop() }
        func signals(_ member: String) -> Int { monitor.text.components(separatedBy: "member=\(member)").count - 1 }

        let ids = try await tracks(bus)
        try #require(ids.count == 3, "Tracks: \(ids)")
        #expect(Set(ids).count == 3, "every item has its own id")
        #expect(try await currentTrack(name) == ids[0])
        let meta = try await run(
            "dbus-send",
            [
                "--session", "--print-reply", "--dest=\(bus)", "/org/mpris/MediaPlayer2",
                "org.mpris.MediaPlayer2.TrackList.GetTracksMetadata", "array:objpath:\(ids.joined(separator: ","))",
            ])
        #expect(meta.stdout.contains("Now Title") && meta.stdout.contains("tone-550hz-4.0s.m4a"), "\(meta.stdout)")
        #expect(meta.stdout.components(separatedBy: "mpris:trackid").count == 4, "three tracks: \(meta.stdout)")

        // The app names an upcoming item: TrackMetadataChanged.
        items[2].nowPlayingInfo = [NowPlayingInfoKey.title.rawValue: "Third"]
        #expect(await eventually { signals("TrackMetadataChanged") == 1 }, "\(monitor.text)")
        #expect(monitor.text.contains("string \"Third\""))

        // next: the second item plays; the first leaves the queue (TrackRemoved).
        #expect(try await property(bus, "CanGoNext") == "b true")
        _ = try await playerctl(name, "next")
        #expect(q.currentItem === items[1])
        #expect(try await eventually { try await currentTrack(name) == ids[1] })
        #expect(await eventually { signals("TrackRemoved") == 1 }, "\(monitor.text)")
        #expect(try await tracks(bus) == [ids[1], ids[2]])

        // previous: the first item again (a new copy, a new id), the second after it.
        _ = try await playerctl(name, "previous")
        #expect(try await eventually { try await playerctl(name, "metadata", "title") == "Now Title" })
        let back = try await tracks(bus)
        #expect(back.count == 3 && !back.contains(ids[0]) && back.last == ids[2], "Tracks after previous: \(back)")
        #expect(signals("TrackAdded") == 2, "\(monitor.text)")

        // GoTo the last: the items before it leave; nothing follows it.
        #expect(try await dbusSend(bus, "TrackList.GoTo", "objpath:\(ids[2])").status == 0)
        #expect(q.currentItem === items[2])
        #expect(try await eventually { try await playerctl(name, "metadata", "title") == "Third" })
        #expect(try await eventually { try await property(bus, "CanGoNext") == "b false" })

        // AddTrack after the current one, then RemoveTrack it.
        let added = try await dbusSend(
            bus, "TrackList.AddTrack", "string:\(files[0].absoluteString)", "objpath:\(ids[2])", "boolean:false")
        #expect(added.status == 0, "AddTrack: \(added.stderr)")
        #expect(q.items().count == 2 && q.currentItem === items[2])
        let withNew = try await tracks(bus)
        try #require(withNew.count == 2, "Tracks: \(withNew)")
        #expect(await eventually { signals("TrackAdded") == 3 })
        #expect(try await property(bus, "CanGoNext") == "b true")
        #expect(try await dbusSend(bus, "TrackList.RemoveTrack", "objpath:\(withNew[1])").status == 0)
        #expect(q.items().count == 1)
        #expect(try await tracks(bus) == [ids[2]])

        // Bad input: unknown ids are the spec's no-op, NoTrack and unsupported URIs are errors.
        #expect(try await dbusSend(bus, "TrackList.GoTo", "objpath:/org/playhead/item/999").status == 0)
        #expect(try await dbusSend(bus, "TrackList.RemoveTrack", "objpath:/org/playhead/item/999").status == 0)
        #expect(
            try await dbusSend(bus, "TrackList.GoTo", "objpath:/org/mpris/MediaPlayer2/TrackList/NoTrack").status != 0)
        let gopher = try await dbusSend(
            bus, "TrackList.AddTrack", "string:gopher://example/x.mp3", "objpath:\(ids[2])", "boolean:true")
        #expect(gopher.status != 0 && gopher.stderr.contains("gopher"), "\(gopher.stderr)")
        let missing = try await dbusSend(
            bus, "TrackList.AddTrack", "string:file:///nonexistent.mp3", "objpath:\(ids[2])", "boolean:true")
        #expect(missing.status != 0 && missing.stderr.contains("no such file"), "\(missing.stderr)")
        let after = try await dbusSend(
            bus, "TrackList.AddTrack", "string:\(files[0].absoluteString)", "objpath:/org/playhead/item/999",
            "boolean:false")
        #expect(after.status != 0, "AddTrack after an unknown track")
        #expect(try await dbusSend(bus, "TrackList.AddTrack", "string:x").status != 0, "AddTrack takes (s, o, b)")
        let none = try await dbusSend(bus, "TrackList.GetTracksMetadata", "array:objpath:/org/playhead/item/999")
        #expect(none.status == 0 && !none.stdout.contains("mpris:trackid"), "\(none.stdout)")
        #expect(q.items().count == 1 && q.currentItem === items[2])
        #expect(try await playerctl(name, "metadata", "title") == "Third")

        // The app replaces the whole queue: TrackListReplaced.
        let fresh = PlayerItem(url: files[1])
        q.removeAllItems()
        q.insert(fresh, after: nil)
        #expect(await eventually { signals("TrackListReplaced") == 1 }, "\(monitor.text)")
        #expect(try await eventually { try await tracks(bus).count == 1 })
        #expect(try await playerctl(name, "status") != "")
    }

    /// `OpenUri` plays a file: on a queue it becomes the current item; unsupported schemes are refused.
    @Test func openUriPlaysAFile() async throws {
        _ = try freshCenter()
        let (player, session, name) = try await activeSession(PlayerItem(url: try taggedFile()))
        defer {
            session.invalidate()
            player.close()
        }
        let bus = "org.mpris.MediaPlayer2.\(name)"
        let schemes = try await property(bus, "SupportedUriSchemes", interface: "")
        #expect(schemes == "as 3 \"file\" \"http\" \"https\"", "\(schemes)")
        #expect(try await property(bus, "SupportedMimeTypes", interface: "").contains("\"audio/mpeg\""))
        #expect(try await property(bus, "HasTrackList", interface: "") == "b false")
        let tone = try Fixtures.tone(seconds: 4, frequency: 550)
        #expect(try await dbusSend(bus, "Player.OpenUri", "string:\(tone.absoluteString)").status == 0)
        #expect(player.currentItem?.asset.url == tone)
        #expect(try await eventually { try await playerctl(name, "status") == "Playing" })
        #expect(try await playerctl(name, "metadata", "xesam:url") == tone.absoluteString)
        #expect(try await dbusSend(bus, "Player.OpenUri", "string:gopher://example/x").status != 0)
        #expect(try await dbusSend(bus, "Player.OpenUri", "string:not a uri").status != 0)
        #expect(player.currentItem?.asset.url == tone)
    }
}
