/// The playlist options: `--shuffle`, `--loop-playlist=N|inf`, `--playlist-start=N`, `--no-resume` (mpv's
/// names). A value type.
struct PlaylistOptions: Equatable {
    var shuffle = false
    /// Extra passes over the playlist; nil forever.
    var loopPlaylist: Int? = 0
    /// The entry to start at, from 0.
    var playlistStart = 0
    /// Do not resume where an item was left.
    var noResume = false
}

extension Options {
    /// Parses one playlist option; false when `name` is not one.
    static func parsePlaylistOption(_ name: String, _ value: String?, into o: inout Options) throws(UsageError)
        -> Bool
    {
        switch name {
        case "--shuffle": o.playlist.shuffle = value.map { $0 != "no" } ?? true
        case "--no-shuffle": o.playlist.shuffle = false
        case "--loop-playlist":
            switch value ?? "inf" {
            case "inf", "yes", "force": o.playlist.loopPlaylist = nil
            case "no": o.playlist.loopPlaylist = 0
            case let v:
                guard let n = Int(v), n >= 0 else {
                    throw UsageError(description: "--loop-playlist: '\(v)' is not a count (N, inf or no)")
                }
                o.playlist.loopPlaylist = n
            }
        case "--playlist-start":
            let v = value ?? ""
            guard let n = Int(v), n >= 0 else {
                throw UsageError(description: "--playlist-start: '\(v)' is not an entry number (from 0)")
            }
            o.playlist.playlistStart = n
        case "--no-resume", "--no-resume-playback": o.playlist.noResume = true
        default: return false
        }
        return true
    }
}
