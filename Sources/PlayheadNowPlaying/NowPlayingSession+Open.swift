import Foundation
import Playhead
import PlayheadCore

/// MPRIS `OpenUri`: a media file or stream, or a local M3U or PLS playlist, played at once. Main actor.
extension NowPlayingSession {
    /// OpenUri: the asset is loaded first; one that cannot play (not media, unreadable) is the caller's error and
    /// leaves the player as it was. Else on a queue the URI plays next, at once; otherwise it replaces the item.
    /// A local playlist plays its entries in order from its first (a plain player plays that one). Playback starts.
    func openURL(_ url: URL) async -> MPRISError? {
        if url.isFileURL, PlaylistFile.isPlaylist(url.path) { return await openPlaylist(url) }
        return await open([url])
    }

    /// Plays `urls` from the first, which must load and be playable.
    private func open(_ urls: [URL]) async -> MPRISError? {
        guard let url = urls.first else { return nil }
        let asset = URLAsset(url: url)
        let playable: Bool
        do {
            playable = try await asset.load(.isPlayable)
        } catch {
            return ("org.playhead.NowPlaying.Error.CannotOpen", "\(error)")
        }
        guard playable else {
            return ("org.playhead.NowPlaying.Error.CannotOpen", "\(url.absoluteString): nothing in it can be played")
        }
        let item = PlayerItem(asset: asset)
        if let q = queue {
            if let error = add(item, after: MPRISState.noTrack, makeCurrent: true) { return error }
            // The rest of a playlist after it, in order.
            var previous = item
            for next in urls.dropFirst().map({ PlayerItem(url: $0) }) {
                q.insert(next, after: previous)
                previous = next
            }
            q.play()
        } else {
            player.replaceCurrentItem(with: item)
            player.play()
        }
        publish()
        return nil
    }

    /// A local M3U or PLS playlist: its entries (nested playlists expanded, missing files left out); one with none
    /// is the caller's error.
    private func openPlaylist(_ url: URL) async -> MPRISError? {
        let expansion = PlaylistFile.expand([url.path])
        let urls = expansion.entries.compactMap { entry -> URL? in
            entry.location.contains("://")
                ? URL(text: entry.location) : URL(fileURLWithPath: PlaylistFile.resolvingParentSteps(entry.location))
        }
        guard !urls.isEmpty else {
            let why = expansion.problems.first ?? "\(url.path): the playlist lists nothing to play"
            return ("org.playhead.NowPlaying.Error.CannotOpen", why)
        }
        return await open(urls)
    }
}
