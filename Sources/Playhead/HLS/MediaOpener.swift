import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// Opens what a URL names: an HLS stream through Playhead's own client (recognised by its tags, its content type
/// or its extension), anything else through FFmpeg's own protocols. Blocking; called on a dispatch thread by the
/// asset loader and on the engine's demux thread.
enum MediaOpener {
    /// Opens `location`; `stopping`, polled while an HLS request waits, gives the open up when it turns true (the
    /// engine stopped: quitting is never delayed by a playlist that does not arrive). `hls` holds the asset's resource
    /// loader (asked for keys the client cannot load itself) and its retry policy.
    static func open(
        _ location: String, timeout: Double, caps: AdaptiveBitratePolicy.Caps = .init(),
        hls: HLSClientOptions = .init(), stopping: (@Sendable () -> Bool)? = nil
    ) throws(PlaybackError) -> MediaInput {
        if let problem = LocalFileCheck.problem(with: location) { throw problem }
        let playlistURL = hlsURL(location, timeout: timeout, stopping: stopping)
        if stopping?() == true { throw PlaybackError(.network, source: location, reason: "cancelled") }
        if let url = playlistURL {
            let source = try HLSSource(
                url: url, timeout: timeout, caps: caps, startEstimate: BandwidthMemory.remembered(),
                options: hls, stopping: stopping)
            do {
                var options = MediaInput.OpenOptions()
                options.timeout = timeout
                let input = try MediaInput(source: source, name: location, options: options)
                // The playlist knows the duration; a live stream has none, whatever an fMP4 init section says.
                if let d = source.duration {
                    input.setDuration(MediaTime(seconds: d, preferredTimescale: 1000))
                } else if source.live != nil {
                    input.setDuration(.indefinite)
                }
                // The item's timeline is the playlist's: the first segment fetched plays at its playlist time.
                input.setStartSeconds(input.startSeconds - source.openedAt)
                source.setTimelineBase(input.startSeconds)
                return input
            } catch {
                // An error the source met while FFmpeg probed is the source's own (FFmpeg saw an I/O error).
                if let e = source.failure { throw e }
                throw PlaybackError(opening: location, error: error)
            }
        }
        do {
            var options = MediaInput.OpenOptions()
            options.timeout = timeout
            return try MediaInput(location: location, options: options)
        } catch {
            throw PlaybackError(opening: location, error: error)
        }
    }

    /// The playlist URL when `location` is HLS: `.m3u8`, an HLS content type, or `#EXTM3U` followed by `#EXT-X-`
    /// tags in the first kilobytes.
    static func hlsURL(_ location: String, timeout: Double, stopping: (@Sendable () -> Bool)? = nil) -> URL? {
        let isRemote = location.hasPrefix("http://") || location.hasPrefix("https://")
        guard let url = isRemote ? URL(string: location) : URL(fileURLWithPath: location) else { return nil }
        if url.pathExtension.lowercased() == "m3u8" { return url }
        let head: Data
        if isRemote {
            // One small ranged request, bounded in all as a playlist's; when it fails, FFmpeg opens the URL and
            // reports the error itself.
            let probe = HTTPFetch(timeout: min(timeout, 5), stopping: stopping)
            guard
                let r = try? probe.get(url, range: 0...4095, limit: 1 << 20, deadline: probe.playlistDeadline)
            else { return nil }
            if let type = r.contentType?.lowercased(), type.contains("mpegurl") { return url }
            head = r.body
        } else {
            // Sniffing a FIFO or standard input would eat the bytes FFmpeg needs: only regular files are peeked at.
            guard LocalFileCheck.isRegularFile(url.path), let handle = FileHandle(forReadingAtPath: url.path) else {
                return nil
            }
            head = handle.readData(ofLength: 4096)
            handle.closeFile()
        }
        let text = String(decoding: head, as: UTF8.self)
        return text.hasPrefix("#EXTM3U") && text.contains("#EXT-X-") ? url : nil
    }
}
