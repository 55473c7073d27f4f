import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// Opening a stream: loading and checking playlists, and the first variant of a multivariant playlist (called
/// from `init` on the opening thread, then on the demux thread).
extension HLSSource {
    /// What opening a multivariant playlist gave: the adaptive state (its `current` rung chosen), that variant's
    /// media playlist and URL, and the variants whose playlists failed on the way (for the error log).
    struct OpenedVariant {
        var state: HLSAdaptiveState
        var playlist: MediaPlaylist
        var url: URL
        var failures: [PlaybackError]
    }

    /// Chooses the first variant of `master` within `caps` whose codecs FFmpeg can decode and loads its playlist;
    /// a variant whose playlist cannot be had is penalty-boxed and another tried. Throws when none is playable, or
    /// with every failure listed when none could be loaded.
    static func openVariant(
        of master: MultivariantPlaylist, url: URL, _ fetch: HTTPFetch, caps: AdaptiveBitratePolicy.Caps,
        startEstimate: Double?, penaltySeconds: Double
    ) throws(PlaybackError) -> OpenedVariant {
        let state = HLSAdaptiveState(
            variants: master.variants, caps: caps, startEstimate: startEstimate,
            firstPathway: master.contentSteering?.pathwayID)
        state.penaltySeconds = penaltySeconds
        guard var start = state.startRung(), var variantURL = master.variants[start].url else {
            let codecs = Set(master.variants.flatMap(\.codecList)).sorted().joined(separator: ", ")
            throw PlaybackError(
                .unsupported, source: url.absoluteString,
                reason: master.variants.isEmpty
                    ? "no variant in the multivariant playlist"
                    : "no playable variant (codecs \(codecs.isEmpty ? "unknown" : codecs) cannot be decoded here)")
        }
        var failures: [PlaybackError] = []
        while true {
            do {
                let loaded = try Self.mediaPlaylist(variantURL, fetch)
                state.current = start
                state.playlists[start] = loaded
                return OpenedVariant(state: state, playlist: loaded, url: variantURL, failures: failures)
            } catch {
                // A variant whose playlist cannot be had: the others are tried (each failure logged).
                if error.reason == "cancelled" { throw error }
                failures.append(error)
                state.penalize(start)
                guard let other = state.startRung(), let otherURL = master.variants[other].url else {
                    throw failures.count == 1 ? error : Self.allFailed(failures, of: url)
                }
                (start, variantURL) = (other, otherURL)
            }
        }
    }

    static func mediaPlaylist(_ url: URL, _ fetch: HTTPFetch) throws(PlaybackError) -> MediaPlaylist {
        guard case .media(let media) = try load(url, fetch) else {
            throw PlaybackError(.parsing, source: url.absoluteString, reason: "not a media playlist")
        }
        return media
    }

    static func load(_ url: URL, _ fetch: HTTPFetch) throws(PlaybackError) -> Playlist {
        // A playlist that trickles forever is bounded too (`HTTPFetch.playlistDeadline`).
        let response = try fetch.get(url, limit: HTTPFetch.playlistLimit, deadline: fetch.playlistDeadline)
        if isHTML(response) {
            throw PlaybackError(.parsing, source: url.absoluteString, reason: "an HTML page, not an HLS playlist")
        }
        // Taken for a live playlist with no segment yet, it failed 3 s later as one that "stopped changing".
        if response.body.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) {
            throw PlaybackError(.parsing, source: url.absoluteString, reason: "an empty file, not an HLS playlist")
        }
        do {
            // Its relative URIs name resources beside where it came from, after redirects (RFC 3986 5.1.3): a
            // short link or a CDN's redirect to another host or folder.
            return try PlaylistParser().parse(response.body, url: response.url ?? url)
        } catch {
            throw PlaybackError(.parsing, source: url.absoluteString, reason: "not a valid HLS playlist: \(error)")
        }
    }

    /// The item's first playlist, tried again as a failed segment is (`retry`, `--hls-retries`): a failed or dropped
    /// connection, a 5xx, 408 or 429 waits the policy's backoff, or the server's `Retry-After` within it, and asks
    /// again. A 404 there is a wrong address, and a time-out has already waited the network time-out (a playlist
    /// that trickles forever is one error after its limit): both fail at once. A stop ends the wait.
    static func loadFirst(_ url: URL, _ fetch: HTTPFetch, retry: RetryPolicy) throws(PlaybackError) -> Playlist {
        var retries = 0
        while true {
            do {
                return try load(url, fetch)
            } catch {
                let retryable =
                    fetch.lastErrorWasConnection
                    || fetch.lastStatus.map { $0 != 404 && RetryPolicy.isRetryable(status: $0) } == true
                guard retryable, retries < retry.maximumRetries else {
                    throw error
                }
                retries += 1
                let delay = retry.delay(
                    beforeRetry: retries, retryAfter: fetch.lastRetryAfter, random: .random(in: 0...1))
                let end = MonotonicClock.now() + delay
                while MonotonicClock.now() < end {
                    if fetch.stopping?() == true { throw error }
                    Thread.sleep(forTimeInterval: min(0.1, max(end - MonotonicClock.now(), 0)))
                }
            }
        }
    }

    /// Whether a response is an HTML page (an error or login page served in place of media), judged by its first
    /// bytes; the `Content-Type` decides only when they are neither media, a playlist nor HTML.
    static func isHTML(_ response: HTTPFetch.Response) -> Bool {
        ContentSniffer.isHTML(response.body, contentType: response.contentType)
    }
}
