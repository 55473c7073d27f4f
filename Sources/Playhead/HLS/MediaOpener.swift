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
    /// A remote list of streams (`Sniffed.list`) plays its first entry that opens (`openList`); `inList` is true
    /// for such an entry, which is not looked at as a list again.
    static func open(
        _ location: String, timeout: Double, caps: AdaptiveBitratePolicy.Caps = .init(),
        hls: HLSClientOptions = .init(), stopping: (@Sendable () -> Bool)? = nil, inList: Bool = false
    ) throws(PlaybackError) -> MediaInput {
        if let problem = LocalFileCheck.problem(with: location) { throw problem }
        let sniffed = sniff(location, timeout: timeout, stopping: stopping)
        if let final = sniffed.timedOut ?? sniffed.refused ?? sniffed.webPage { throw final }
        if let list = sniffed.list, !inList {
            return try openList(list, from: location, timeout: timeout, caps: caps, hls: hls, stopping: stopping)
        }
        let playlistURL = sniffed.playlist
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
        var options = MediaInput.OpenOptions()
        options.timeout = timeout
        if ByteNamedFiles.isByteNamed(location) { options.shownName = ByteNamedFiles.shownName(of: location) }
        if let chained = openChainedOgg(location, options: options) { return chained }
        do {
            return try MediaInput(location: location, options: options)
        } catch {
            // FFmpeg reports a host that does not resolve, or a TLS failure, as a bare I/O error; the sniffing
            // request's own words say which it was.
            if let unreachable = sniffed.unreachable, error.code == FFmpegError.ioError {
                throw unreachable
            }
            throw PlaybackError(opening: location, error: error)
        }
    }

    /// A local chained Ogg file (songs joined end to end) read link by link (`OggChainSource`), its duration
    /// theirs together; nil for anything else, or when the links do not open (FFmpeg then reads the file whole).
    private static func openChainedOgg(_ location: String, options: MediaInput.OpenOptions) -> MediaInput? {
        guard !location.contains("://"), let chain = OggChainSource(path: location),
            let input = try? MediaInput(source: chain, name: location, options: options)
        else { return nil }
        input.setDuration(MediaTime(seconds: chain.end - input.startSeconds, preferredTimescale: 1000))
        return input
    }

    /// The playlist URL when `location` is HLS: `.m3u8`, an HLS content type, or `#EXTM3U` followed by `#EXT-X-`
    /// tags in the first kilobytes.
    static func hlsURL(_ location: String, timeout: Double, stopping: (@Sendable () -> Bool)? = nil) -> URL? {
        sniff(location, timeout: timeout, stopping: stopping).playlist
    }

    /// What a look at the first kilobytes of `location` found.
    struct Sniffed {
        /// The playlist URL, when `location` is HLS.
        var playlist: URL?
        /// The connection failure of the request that looked (the host does not resolve, the connection or TLS
        /// failed), when it failed that way: the words FFmpeg's bare I/O error lacks.
        var unreachable: PlaybackError?
        /// The request that looked got no data for the whole time allowed: FFmpeg's open would wait as long again
        /// (the item failed after twice the time-out), so this is the item's error at once.
        var timedOut: PlaybackError?
        /// The server refused the request that looked (a 4xx status other than 416, which a server that does not
        /// serve ranges may answer, or a redirect loop): FFmpeg's open would ask again and be refused again, so
        /// this is the item's error at once.
        var refused: PlaybackError?
        /// The entries of a remote list of streams (a radio station's `.pls`, an M3U without HLS tags), when
        /// `location` is one.
        var list: [URL]?
        /// The server answered with a web page (an error, login or station page) where media was asked for: the
        /// item's error at once, in those words (FFmpeg's would name a demuxer's complaint: "moov atom not found",
        /// "invalid argument").
        var webPage: PlaybackError?
    }

    /// Whether `location` is HLS (see `hlsURL`), and how the request that looked failed, if it did.
    static func sniff(_ location: String, timeout: Double, stopping: (@Sendable () -> Bool)? = nil) -> Sniffed {
        let isRemote = location.hasPrefix("http://") || location.hasPrefix("https://")
        guard let url = isRemote ? URL(string: location) : URL(fileURLWithPath: location) else { return Sniffed() }
        if url.pathExtension.lowercased() == "m3u8" { return Sniffed(playlist: url) }
        let head: Data
        if isRemote {
            // One small ranged request, bounded in all as a playlist's; when it fails, FFmpeg opens the URL and
            // reports the error itself (FFmpeg does not check certificates unless asked, and a server may refuse
            // the range), unless all FFmpeg can say is "input/output error".
            let probe = HTTPFetch(timeout: timeout, localFiles: false, stopping: stopping)
            let r: HTTPFetch.Response
            do {
                r = try probe.get(url, range: 0...4095, limit: 1 << 20, deadline: probe.playlistDeadline)
            } catch {
                // A redirect loop is refused too: FFmpeg would follow it as far and say only "input/output error".
                let refused =
                    probe.lastErrorWasRedirectLoop
                    || probe.lastStatus.map { (400..<500).contains($0) && $0 != 416 } ?? false
                return Sniffed(
                    unreachable: probe.lastErrorWasConnection ? error : nil,
                    timedOut: probe.lastErrorWasTimeout ? error : nil, refused: refused ? error : nil)
            }
            if let entries = remoteList(r, of: url, probe: probe) { return Sniffed(list: entries) }
            if let type = r.contentType?.lowercased(), type.contains("mpegurl") { return Sniffed(playlist: url) }
            // By its first bytes only: a file FFmpeg plays may come labelled `text/html` (an Ogg or FLAC file on a
            // misconfigured server), which the HLS client's judgement of segments would take for a page.
            if ContentSniffer.kind(of: r.body) == .html {
                return Sniffed(webPage: PlaybackError(.parsing, source: location, reason: "an HTML page, not media"))
            }
            head = r.body
        } else {
            // Sniffing a FIFO or standard input would eat the bytes FFmpeg needs: only regular files are peeked at.
            guard LocalFileCheck.isRegularFile(url.path), let handle = FileHandle(forReadingAtPath: url.path) else {
                return Sniffed()
            }
            head = handle.readData(ofLength: 4096)
            handle.closeFile()
        }
        let text = String(decoding: head, as: UTF8.self)
        return Sniffed(playlist: text.hasPrefix("#EXTM3U") && text.contains("#EXT-X-") ? url : nil)
    }
}
