import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// Lists of streams from the network: what a radio station hands out (`station.pls`, `station.m3u`), a few lines
/// naming its stream, often the same stream on several servers. Blocking, as `MediaOpener`.
extension MediaOpener {
    /// The entries of the remote list whose first bytes `r` holds (from `url`): a PLS (`[playlist]`), or an M3U
    /// that is not HLS (no `#EXT-X-` tag; by its content type, its extension or `#EXTM3U`), its entries resolved
    /// against `url`; only `http` and `https` entries (a list from the network may not read the user's files or
    /// reach other protocols). Nil for anything else. The rest of a list longer than the first bytes is fetched.
    static func remoteList(_ r: HTTPFetch.Response, of url: URL, probe: HTTPFetch) -> [URL]? {
        let type = r.contentType?.lowercased() ?? ""
        let ext = url.pathExtension.lowercased()
        guard var text = String(data: r.body, encoding: .utf8) ?? String(data: r.body, encoding: .isoLatin1) else {
            return nil
        }
        text = text.trimmingCharacters(in: CharacterSet(charactersIn: "\u{FEFF}").union(.whitespacesAndNewlines))
        let isPLS = text.lowercased().hasPrefix("[playlist]")
        let isM3U =
            !text.contains("#EXT-X-")
            && (text.hasPrefix("#EXTM3U") || ((type.contains("mpegurl") || ext == "m3u") && text.hasPrefix("http")))
        guard isPLS || isM3U, !text.contains("\u{0}") else { return nil }
        // Cut at the first bytes: the rest, at most 1 MB in all (a list, not a stream).
        if r.body.count >= 4096, let whole = try? probe.get(url, limit: 1 << 20, deadline: probe.playlistDeadline),
            let all = String(data: whole.body, encoding: .utf8) ?? String(data: whole.body, encoding: .isoLatin1)
        {
            text = all
        }
        let entries = isPLS ? PlaylistFile.parsePLS(text) : PlaylistFile.parseM3U(text)
        return entries.compactMap { entry -> URL? in
            guard let resolved = URL(text: entry.location, relativeTo: url)?.absoluteURL,
                ["http", "https"].contains(resolved.scheme?.lowercased() ?? "")
            else { return nil }
            return resolved
        }
    }

    /// Opens the first of `entries` (the list at `location`) that opens; an entry that is itself a list is not
    /// followed. A list with no entry to play, or whose every entry fails, is an error naming the list (with the
    /// first entry's error).
    static func openList(
        _ entries: [URL], from location: String, timeout: Double, caps: AdaptiveBitratePolicy.Caps,
        hls: HLSClientOptions, stopping: (@Sendable () -> Bool)?
    ) throws(PlaybackError) -> MediaInput {
        var first: PlaybackError?
        for entry in entries {
            if stopping?() == true { break }
            do {
                return try open(
                    entry.absoluteString, timeout: timeout, caps: caps, hls: hls, stopping: stopping, inList: true)
            } catch {
                first = first ?? error
            }
        }
        guard let first else {
            throw PlaybackError(.parsing, source: location, reason: "a list of streams with no http(s) stream in it")
        }
        throw PlaybackError(
            first.category, source: location, reason: "no stream of the list opens (\(first.source): \(first.reason))",
            code: first.code)
    }
}
