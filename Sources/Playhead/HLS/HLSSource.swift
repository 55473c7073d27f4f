import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// Feeds an HLS stream to FFmpeg through a custom byte source: loads the multivariant playlist, chooses one
/// variant, loads only that variant's media playlist, and downloads its segments in order (the `EXT-X-MAP` init
/// section first for fMP4, byte ranges where the playlist gives them, `EXT-X-GAP` segments skipped).
///
/// Threads: created and read on the engine's demux thread (reads block while a segment downloads); `interrupt`
/// may come from any thread.
final class HLSSource: ByteSource, @unchecked Sendable {
    let url: URL
    let playlist: MediaPlaylist
    /// The variant chosen from a multivariant playlist, nil for a media playlist URL.
    let variant: Variant?
    private let fetch: HTTPFetch
    private var next = 0
    private var buffer = Data()
    private var position = 0
    private var lastMap: MediaInitializationSection?

    private init(url: URL, playlist: MediaPlaylist, variant: Variant?, fetch: HTTPFetch, next: Int) {
        self.url = url
        self.playlist = playlist
        self.variant = variant
        self.fetch = fetch
        self.next = next
    }

    /// A new source over the same variant that starts with the segment holding `seconds` (playlist time).
    func restarted(at seconds: Double) -> HLSSource {
        var start = 0.0
        var index = 0
        for (i, segment) in playlist.segments.enumerated() {
            index = i
            if seconds < start + segment.duration { break }
            start += segment.duration
        }
        return HLSSource(
            url: url, playlist: playlist, variant: variant, fetch: HTTPFetch(timeout: fetch.timeout), next: index)
    }

    /// Opens `url` (a multivariant or a media playlist), choosing a variant with `choose` from those FFmpeg can
    /// decode.
    init(url: URL, timeout: Double, choose: ([Variant]) -> Variant? = HLSSource.defaultChoice) throws(PlaybackError) {
        self.url = url
        fetch = HTTPFetch(timeout: timeout)
        let top = try Self.load(url, fetch)
        switch top {
        case .media(let media):
            playlist = media
            variant = nil
        case .multivariant(let master):
            guard let chosen = choose(master.variants), let variantURL = chosen.url else {
                throw PlaybackError(
                    .unsupported, source: url.absoluteString, reason: "no playable variant in the playlist")
            }
            guard case .media(let media) = try Self.load(variantURL, fetch) else {
                throw PlaybackError(.parsing, source: variantURL.absoluteString, reason: "not a media playlist")
            }
            playlist = media
            variant = chosen
        }
        guard playlist.segments.contains(where: { !$0.gap }) else {
            throw PlaybackError(.parsing, source: url.absoluteString, reason: "the media playlist has no segments")
        }
    }

    /// The total duration of a VOD or event playlist; nil while it is live (no `EXT-X-ENDLIST`).
    var duration: Double? {
        playlist.hasEndList ? playlist.segments.reduce(0) { $0 + $1.duration } : nil
    }

    /// AVPlayer's choice: the first listed variant whose codecs can be decoded here.
    static func defaultChoice(_ variants: [Variant]) -> Variant? {
        variants.first { v in v.codecList.allSatisfy(CodecSupport.isDecodable) } ?? variants.first
    }

    private static func load(_ url: URL, _ fetch: HTTPFetch) throws(PlaybackError) -> Playlist {
        let (data, _) = try fetch.get(url, limit: 16 << 20)
        do {
            return try PlaylistParser().parse(data, url: url)
        } catch {
            throw PlaybackError(.parsing, source: url.absoluteString, reason: "not a valid HLS playlist: \(error)")
        }
    }

    func read(into out: UnsafeMutableRawBufferPointer) throws -> Int {
        while position == buffer.count {
            guard try loadNext() else { return 0 }
        }
        let n = min(out.count, buffer.count - position)
        buffer.withUnsafeBytes { src in
            out.copyMemory(from: UnsafeRawBufferPointer(rebasing: src[position..<(position + n)]))
        }
        position += n
        return n
    }

    /// Downloads the next segment (and its init section when it changes); false after the last.
    private func loadNext() throws -> Bool {
        while next < playlist.segments.count && playlist.segments[next].gap { next += 1 }
        guard next < playlist.segments.count else { return false }
        let segment = playlist.segments[next]
        next += 1
        var data = Data()
        if let map = segment.map, map != lastMap, let mapURL = map.url {
            data.append(try fetch.get(mapURL, range: map.byteRange.map(Self.closed)).0)
            lastMap = map
        }
        guard let segmentURL = segment.url else { return true }
        data.append(try fetch.get(segmentURL, range: segment.byteRange.map(Self.closed)).0)
        buffer = data
        position = 0
        return true
    }

    private static func closed(_ r: ByteRange) -> ClosedRange<Int> { r.offset...(r.offset + r.length - 1) }

    func seek(to offset: Int64) -> Bool { false }
    var size: Int64? { nil }

    /// Cancels the download in flight.
    func interrupt() { fetch.cancel() }
}

/// Which RFC 6381 codec strings FFmpeg can decode here.
enum CodecSupport {
    static func isDecodable(_ codec: String) -> Bool {
        let prefix = codec.split(separator: ".").first.map(String.init)?.lowercased() ?? ""
        let names: [String: String] = [
            "avc1": "h264", "avc3": "h264", "hvc1": "hevc", "hev1": "hevc", "mp4a": "aac", "ac-3": "ac3",
            "ec-3": "eac3", "vp09": "vp9", "av01": "av1", "opus": "opus", "flac": "flac", "mp3": "mp3",
        ]
        guard let name = names[prefix] else { return false }
        return FFmpegLibrary.hasDecoder(named: name)
    }
}
