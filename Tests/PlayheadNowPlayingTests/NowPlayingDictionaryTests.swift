import Foundation
import PlayheadNowPlaying
import PlayheadTestSupport
import Testing

/// Rules 20 and 21: the whole Now Playing set, published as the dictionary (`nowPlayingInfo`), reaches playerctl
/// field by field; copying the dictionary, changing it and assigning it back updates what playerctl reads.
@Suite(.serialized)
@MainActor
struct NowPlayingDictionaryTests {
    /// `{{field}}|...` of `fields` from `playerctl metadata --format`.
    func metadata(_ player: String, _ fields: [String]) async throws -> [String] {
        let format = fields.map { "{{\($0)}}" }.joined(separator: "|")
        return try await playerctl(player, "metadata", "--format", format).components(separatedBy: "|")
    }

    /// playerctl's position in seconds.
    func position(_ player: String) async throws -> Double {
        Double(try await playerctl(player, "position")) ?? -1
    }

    @Test func theDictionaryFormReachesPlayerctlAndACopyChangedAndReassignedUpdatesIt() async throws {
        let (center, player) = try freshCenter()
        center.remoteCommandCenter.playCommand.addTarget { _ in .success }
        let picture = try Data(
            contentsOf: try Fixtures.make(
                "nowplaying-dict-cover.png", ["-f", "lavfi", "-i", "color=c=red:s=32x32:d=1", "-frames:v", "1"]))
        center.nowPlayingInfo = [
            .title: "Dict Title", .artist: "Dict Artist", .albumTitle: "Dict Album", .playbackDuration: 200.0,
            .elapsedPlaybackTime: 10.0, .playbackRate: 2.0, .mediaType: NowPlayingMediaType.audio,
            .artwork: NowPlayingArtwork(data: [UInt8](picture)),
        ]
        let fields = try await metadata(player, ["title", "artist", "album", "mpris:length", "mpris:artUrl"])
        try #require(fields.count == 5, "\(fields)")
        #expect(fields[0] == "Dict Title" && fields[1] == "Dict Artist" && fields[2] == "Dict Album", "\(fields)")
        #expect(Int(fields[3]) == 200_000_000, "mpris:length \(fields[3])")
        let art = try #require(URL(string: fields[4]), "mpris:artUrl \(fields[4])")
        #expect(art.isFileURL && (try? Data(contentsOf: art)) == picture, "artwork at \(fields[4])")
        // Elapsed 10 s at rate 2: playerctl extrapolates, 2 s of position per second.
        #expect(try await playerctl(player, "status") == "Playing")
        let first = try await position(player)
        try await Task.sleep(for: .seconds(1))
        let second = try await position(player)
        #expect(first >= 10 && first < 11.5, "position \(first)")
        #expect(abs((second - first) - 2) < 0.4, "rate 2: \(first) → \(second)")
        #expect(try await property("org.mpris.MediaPlayer2.\(player)", "Rate") == "d 2")

        // Rule 21: copy, change, reassign.
        var copy = try #require(center.nowPlayingInfo)
        copy[.title] = "Changed Title"
        copy[.elapsedPlaybackTime] = 42.0
        copy[.playbackRate] = 0.0
        center.nowPlayingInfo = copy
        #expect(try await metadata(player, ["title", "artist"]) == ["Changed Title", "Dict Artist"])
        #expect(try await playerctl(player, "status") == "Paused")
        #expect(abs(try await position(player) - 42) < 0.05)
        try await Task.sleep(for: .milliseconds(500))
        #expect(abs(try await position(player) - 42) < 0.05, "a paused position does not move")
        center.nowPlayingInfo = nil
    }
}
