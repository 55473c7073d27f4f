import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS
import PlayheadVideo

/// An HLS stream's I-frame playlist (`EXT-X-I-FRAME-STREAM-INF`), for pictures fetched one byte range each: each
/// entry is one keyframe, at the time its place in the playlist gives. A value type, used on the generator's
/// queue.
struct IFrameIndex: Sendable {
    /// One keyframe: where it shows on the item's time line, and its bytes.
    struct Entry: Sendable {
        var start: Double
        var segment: MediaSegment
    }

    var url: URL
    var entries: [Entry]

    /// The I-frame playlist of `location`, when it is an HLS multivariant playlist that lists one whose pictures
    /// can be decoded and are clear (the smallest covering `maximumSize`, else the largest); nil otherwise.
    /// Blocks on the network (the generator's queue).
    static func load(_ location: String, fetch: HTTPFetch, timeout: Double, maximumSize: CGSize)
        throws(PlaybackError) -> IFrameIndex?
    {
        guard let url = MediaOpener.hlsURL(location, timeout: timeout),
            case .multivariant(let master) = try HLSSource.load(url, fetch)
        else { return nil }
        let playable = master.iFrameVariants.filter {
            $0.url != nil && $0.stream.codecList.allSatisfy(CodecSupport.isDecodable)
        }
        let bySize = playable.sorted { ($0.stream.resolution?.height ?? 0) < ($1.stream.resolution?.height ?? 0) }
        let fitting = bySize.first {
            guard let r = $0.stream.resolution else { return false }
            return Double(r.width) >= maximumSize.width && Double(r.height) >= maximumSize.height
        }
        guard let chosen = (maximumSize == .zero ? bySize.last : fitting ?? bySize.last), let list = chosen.url
        else { return nil }
        let playlist = try HLSSource.mediaPlaylist(list, fetch)
        guard playlist.iFramesOnly, playlist.hasEndList else { return nil }
        var start = 0.0
        var entries: [Entry] = []
        for segment in playlist.segments {
            // Encrypted keyframes go the way of playback (the variant's segments, with its keys).
            if segment.keys.contains(where: { $0.method != .none }) { return nil }
            if !segment.gap { entries.append(Entry(start: start, segment: segment)) }
            start += segment.duration
        }
        return entries.isEmpty ? nil : IFrameIndex(url: list, entries: entries)
    }

    /// The keyframe shown at `seconds`: the last one at or before it (the first for a time before them all).
    func entry(at seconds: Double) -> Entry {
        entries.last { $0.start <= seconds + 0.0005 } ?? entries[0]
    }

    /// Fetches `entry`'s bytes (its init section first, when it has one) and decodes its picture, placed at the
    /// entry's time. Blocks on the network (the generator's queue).
    func picture(_ entry: Entry, fetch: HTTPFetch, name: String) throws(PlaybackError) -> VideoFrame {
        var bytes = Data()
        if let map = entry.segment.map, let url = map.url {
            bytes.append(try fetch.get(url, range: Self.range(map.byteRange)).body)
        }
        guard let url = entry.segment.url else {
            throw PlaybackError(.parsing, source: self.url.absoluteString, reason: "an I-frame without a URI")
        }
        bytes.append(try fetch.get(url, range: Self.range(entry.segment.byteRange)).body)
        let source = url.absoluteString
        do {
            let input = try MediaInput(source: MemoryByteSource([UInt8](bytes)), name: source)
            guard let index = input.bestStream(.video) else {
                throw PlaybackError(.parsing, source: source, reason: "no picture in the I-frame's bytes")
            }
            let decoder = try Decoder(input: input, stream: index)
            var picture: Frame?
            let keep: (Frame) -> Bool = { frame in
                picture = frame
                return false
            }
            while picture == nil, let packet = try input.readPacket() {
                if packet.streamIndex == index { try? decoder.decode(packet, keep) }
            }
            if picture == nil { try? decoder.decode(nil, keep) }
            guard let picture else {
                throw PlaybackError(.decoding, source: source, reason: "the I-frame's picture did not decode")
            }
            var frame = VideoFrame(frame: picture, time: MediaTime(seconds: entry.start, preferredTimescale: 90_000))
            frame.rotation = input.streams[index].rotation
            return frame
        } catch let error as PlaybackError {
            throw error
        } catch {
            throw PlaybackError(
                .decoding, source: source,
                reason: "the I-frame's bytes cannot be read: \(PlaybackError.words(for: error))")
        }
    }

    /// A playlist byte range as an HTTP one.
    private static func range(_ r: ByteRange?) -> ClosedRange<Int>? {
        r.map(HLSSource.closed)
    }
}
