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
    /// The media playlist of the variant playing.
    private(set) var playlist: MediaPlaylist
    /// The variant playing, nil for a media playlist URL.
    private(set) var variant: Variant?
    let fetch: HTTPFetch
    var next = 0
    private var buffer = Data()
    private var position = 0
    private var lastMap: MediaInitializationSection?
    /// Adaptive state: the ladder, its loaded media playlists, the estimator and the policy.
    var adaptive: HLSAdaptiveState?
    /// The playlist time at which the next segment starts.
    var nextStart = 0.0
    /// The playback position in playlist time (set by the engine), for the buffer level the policy weighs.
    var playbackPosition: @Sendable () -> Double = { 0 }
    /// Called on the demux thread when the variant changes.
    var onSwitch: (@Sendable (Variant) -> Void)?
    /// Called on the demux thread after each segment: its bytes, its transfer seconds and the estimate after it.
    var onSegment: (@Sendable (_ bytes: Int, _ seconds: Double, _ estimate: Double) -> Void)? {
        didSet {
            // Segments loaded while the input was opening, before anyone listened.
            for r in unreported { onSegment?(r.bytes, r.seconds, r.estimate) }
            unreported.removeAll()
        }
    }
    private var unreported: [(bytes: Int, seconds: Double, estimate: Double)] = []

    private init(from old: HLSSource, next: Int, start: Double) {
        url = old.url
        playlist = old.playlist
        variant = old.variant
        fetch = HTTPFetch(timeout: old.fetch.timeout)
        adaptive = old.adaptive
        playbackPosition = old.playbackPosition
        onSwitch = old.onSwitch
        onSegment = old.onSegment
        self.next = next
        nextStart = start
    }

    /// A new source over the same variant and adaptive state that starts with the segment holding `seconds`
    /// (playlist time).
    func restarted(at seconds: Double) -> HLSSource {
        var start = 0.0
        var index = 0
        for (i, segment) in playlist.segments.enumerated() {
            index = i
            if seconds < start + segment.duration { break }
            start += segment.duration
        }
        return HLSSource(from: self, next: index, start: start)
    }

    /// Opens `url` (a multivariant or a media playlist); from a multivariant playlist the adaptive policy picks the
    /// first variant within `caps` whose codecs FFmpeg can decode, and only that variant's playlist is loaded.
    init(url: URL, timeout: Double, caps: AdaptiveBitratePolicy.Caps = .init()) throws(PlaybackError) {
        self.url = url
        fetch = HTTPFetch(timeout: timeout)
        switch try Self.load(url, fetch) {
        case .media(let media):
            playlist = media
            variant = nil
        case .multivariant(let master):
            let state = HLSAdaptiveState(variants: master.variants, caps: caps)
            guard let start = state.startRung(), let variantURL = master.variants[start].url else {
                throw PlaybackError(
                    .unsupported, source: url.absoluteString, reason: "no playable variant in the playlist")
            }
            playlist = try Self.mediaPlaylist(variantURL, fetch)
            variant = master.variants[start]
            state.current = start
            state.playlists[start] = playlist
            adaptive = state
        }
        guard playlist.segments.contains(where: { !$0.gap }) else {
            throw PlaybackError(.parsing, source: url.absoluteString, reason: "the media playlist has no segments")
        }
    }

    /// The total duration of a VOD or event playlist; nil while it is live (no `EXT-X-ENDLIST`).
    var duration: Double? {
        playlist.hasEndList ? playlist.segments.reduce(0) { $0 + $1.duration } : nil
    }

    static func mediaPlaylist(_ url: URL, _ fetch: HTTPFetch) throws(PlaybackError) -> MediaPlaylist {
        guard case .media(let media) = try load(url, fetch) else {
            throw PlaybackError(.parsing, source: url.absoluteString, reason: "not a media playlist")
        }
        return media
    }

    static func load(_ url: URL, _ fetch: HTTPFetch) throws(PlaybackError) -> Playlist {
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
        if next < playlist.segments.count { adapt() }
        while next < playlist.segments.count && playlist.segments[next].gap {
            nextStart += playlist.segments[next].duration
            next += 1
        }
        guard next < playlist.segments.count else { return false }
        let segment = playlist.segments[next]
        next += 1
        nextStart += segment.duration
        var data = Data()
        if let map = segment.map, map != lastMap, let mapURL = map.url {
            data.append(try fetch.get(mapURL, range: map.byteRange.map(Self.closed)).0)
            lastMap = map
        }
        guard let segmentURL = segment.url else { return true }
        let started = MonotonicClock.now()
        let body = try fetch.get(segmentURL, range: segment.byteRange.map(Self.closed)).0
        let now = MonotonicClock.now()
        adaptive?.estimator.addSample(bytes: body.count, duration: now - started, at: now)
        let estimate = adaptive?.estimator.estimate ?? 0
        if let onSegment {
            onSegment(body.count, now - started, estimate)
        } else {
            unreported.append((body.count, now - started, estimate))
        }
        data.append(body)
        buffer = data
        position = 0
        return true
    }

    private static func closed(_ r: ByteRange) -> ClosedRange<Int> { r.offset...(r.offset + r.length - 1) }

    /// Continues with `media`'s segment `next` (a variant switch).
    func switchTo(_ media: MediaPlaylist, variant: Variant, next: Int) {
        playlist = media
        self.variant = variant
        self.next = next
    }

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
