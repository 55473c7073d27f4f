import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadSubtitles
import Synchronization

/// A media source FFmpeg demuxes: a local file (followed while it is still being written) or a URL through
/// FFmpeg's own protocols. `HLSMediaSource` extends it for Playhead's HLS client.
///
/// Tracks are the input's audio, video and subtitle streams, identified by stream index, and the closed captions
/// of its video when FFmpeg's probe saw some (`ClosedCaptions`); streams a container adds after the open (an
/// MPEG-TS program map that grows) are not tracks and their packets are skipped.
///
/// Threads: owned by the engine's demux thread; `interrupt()` and `cancel()` may come from any thread.
class DemuxerSource: MediaSource, @unchecked Sendable {
    let input: MediaInput
    /// Set at init; a subclass may relabel them before the source is attached (an HLS rendition's language).
    var tracks: [MediaTrack]
    private let follower: FileFollower?
    /// Reports the input's tag changes (from `attach`; demux thread).
    private var post: (@Sendable (EngineEvent) -> Void)?
    /// Whether the input has given a sample of a track (demux thread writes, any thread reads).
    private let gaveSample = Atomic<Bool>(false)
    /// The cues of a subtitle file read whole by Playhead's parsers (its only track's), set by `SubtitleFiles`
    /// before the source is shared.
    var cueFile: [SubtitleCue]?
    /// The tracks the engine chose (`select`; demux thread).
    private(set) var chosen: Set<Int> = []
    /// Packets a seek read while it looked for the keyframe it landed on, given before reading on (demux thread).
    var pushedBack: [Packet] = []

    /// The source for an opened input: `HLSMediaSource` when Playhead's HLS client feeds it, merged with a part
    /// for each audio rendition of the variant's group (`HLSRenditionSource`) and each subtitle rendition of its
    /// subtitle group (`HLSSubtitleSource`): tracks known from the playlist, opened only if chosen, with `hls` and
    /// `stopping`. Makes no request and reads nothing.
    static func make(
        input: MediaInput, location: String, hls: HLSClientOptions = .init(),
        stopping: (@Sendable () -> Bool)? = nil
    ) -> any MediaSource {
        if let chain = input.byteSource as? OggChainSource { return OggChainMediaSource(input: input, chain: chain) }
        guard let client = input.byteSource as? HLSSource else {
            return DemuxerSource(input: input, location: location)
        }
        let main = HLSMediaSource(input: input, hls: client)
        // The variant's group first: its renditions are the ones chosen among.
        let renditions = (client.audioRenditions + client.otherAudioRenditions).filter { $0.url != nil }
        let subtitles = client.subtitleRenditions.filter { $0.url != nil }
        guard !renditions.isEmpty || !subtitles.isEmpty else { return main }
        // The variant's own sound is the rendition without a URI, when the group has one.
        if let own = client.audioRenditions.first(where: { $0.url == nil }) {
            main.label(.audio, language: own.language)
        }
        let codec = CodecSupport.audioDecoderName(inCodecs: client.variant?.stream.codecs) ?? "aac"
        let parts: [any MediaSource] = renditions.map { r in
            HLSRenditionSource(
                rendition: r, main: client, mainStart: input.startSeconds,
                codec: client.audioGroupCodecs[r.groupID] ?? codec,
                isPreferred: r == client.preferredAudioRendition, options: hls, stopping: stopping)
        }
        // The one shown unless the item chooses: the `DEFAULT` one (forced subtitles are never chosen as such).
        let shown = subtitles.first { $0.isDefault && !$0.forced }
        let texts = subtitles.map { r in
            HLSSubtitleSource(
                rendition: r, main: client, mainStart: input.startSeconds, isPreferred: r == shown,
                imsc: HLSSubtitleSource.namesOnlyIMSC(client.variant?.stream.codecs), options: hls, stopping: stopping)
        }
        return MergedSource([main] + parts + texts)
    }

    /// Wraps an opened input; `location` is what was opened (a local file is followed while it grows).
    convenience init(input: MediaInput, location: String) {
        self.init(input: input, follower: FileFollower(location: location))
    }

    /// Wraps an opened input; `follower` follows a local file while it grows.
    init(input: MediaInput, follower: FileFollower?) {
        self.input = input
        self.follower = follower
        let offset = input.startSeconds
        tracks = input.streams.compactMap { stream in
            let kind: TrackKind
            switch stream.mediaType {
            case .audio: kind = .audio
            case .video: kind = .video
            case .subtitle: kind = .text
            case .other: return nil
            }
            return MediaTrack(id: stream.index, kind: kind, stream: stream, timelineOffset: offset)
        }
        // Closed captions FFmpeg's probe saw in the pictures: a text track the video decoder produces.
        if let best = input.bestStream(.video), let video = tracks.first(where: { $0.id == best }),
            video.stream.hasClosedCaptions
        {
            tracks.append(ClosedCaptions.track(of: video))
        }
    }

    func knownCues(of track: Int) -> [SubtitleCue]? {
        tracks.first?.id == track ? cueFile : nil
    }

    var name: String { input.name }
    var duration: MediaTime { input.duration }
    var metadata: MediaMetadata { input.metadata }
    var isSeekable: Bool { input.isSeekable }
    var formatName: String { input.formatName }
    /// When the input ended before its first sample: the container names streams but holds no data for them (a
    /// file cut short, as a partial download whose index comes first). Otherwise nothing is known beyond the
    /// decoders' failure (a subclass may know more). Any thread.
    var undecodableReason: String? {
        gaveSample.load(ordering: .relaxed)
            ? nil : "no media data: it ends before its first sample (cut short or damaged)"
    }
    /// No rendition groups (HLS's own source knows its variant's).
    var currentAudioGroup: String? { nil }
    /// The container's time stamps, as they are (HLS's own source places its samples).
    var placesSamples: Bool { false }

    func defaultTrack(_ kind: TrackKind) -> Int? {
        switch kind {
        case .audio: input.bestStream(.audio)
        case .video: input.bestStream(.video)
        case .text: input.bestStream(.subtitle)
        }
    }

    func makeDecoder(track: Int, threads: Int) throws(FFmpegError) -> Decoder {
        try Decoder(input: input, stream: track, threads: threads)
    }

    func attach(_ host: SourceHost) { post = host.post }

    /// Gives the tracks of `kind` whose container names no language (or "und") the language `language` (an HLS
    /// rendition's `LANGUAGE`). Before the source is attached.
    func label(_ kind: TrackKind, language: String?) {
        guard let language else { return }
        for i in tracks.indices where tracks[i].kind == kind && [nil, "und"].contains(tracks[i].stream.language) {
            tracks[i].stream.language = language
        }
    }

    /// Everything is open already: the chosen tracks that are this input's.
    func select(_ chosen: Set<Int>) -> Set<Int> {
        self.chosen = chosen.intersection(tracks.map(\.id))
        return self.chosen
    }

    func deliverPendingJump() -> Bool { false }

    func read() throws(PlaybackError) -> SourceRead {
        // A subtitle file whose cues are known whole has nothing to give.
        if cueFile != nil { return .end }
        return try readFed() ?? .end
    }

    /// The next sample of what the input holds; nil at its end (for now: more may be fed to it, or be written to
    /// the file). `.interrupted` when a command ended the read.
    final func readFed() throws(PlaybackError) -> SourceRead? {
        while true {
            let packet: Packet?
            do {
                packet = pushedBack.isEmpty ? try input.readPacket() : pushedBack.removeFirst()
            } catch {
                if error.code == FFmpegError.exit {
                    // Interrupted for a command: the next read goes on where this one stopped.
                    input.resume()
                    return .interrupted
                }
                throw readError(error)
            }
            guard let packet else { return nil }
            // Streams added after the open have no track (and no decoder): skipped.
            guard let track = track(packet.streamIndex) else { continue }
            let seconds = (packet.pts ?? packet.dts).map { track.seconds($0) }
            if let post, let changed = input.takeMetadataUpdate() { post(.metadataChanged(changed, at: seconds)) }
            gaveSample.store(true, ordering: .relaxed)
            return .sample(MediaSample(track: track.id, packet: packet, seconds: seconds))
        }
    }

    /// The item's error for a read that failed. An MP4 with its index (`moov`) after its media, from a server that
    /// does not serve byte ranges, fails its first read: the index is found by reading through the media, which
    /// cannot then be read again (FFmpeg says only "input/output error"; `ffmpeg` and `ffplay` fail the same way).
    private func readError(_ error: FFmpegError) -> PlaybackError {
        let scheme = URL(string: input.name)?.scheme?.lowercased() ?? ""
        guard error.code == FFmpegError.ioError, !input.isSeekable, !gaveSample.load(ordering: .relaxed),
            input.formatName.hasPrefix("mov"), scheme == "http" || scheme == "https"
        else { return PlaybackError(reading: input.name, error: error) }
        return PlaybackError(
            .unsupported, source: input.name,
            reason: "this MP4 has its index at its end and the server does not serve byte ranges, so it cannot be "
                + "played as it downloads (download it first, or serve it with byte ranges)")
    }

    /// A subtitle file beside the item (`SubtitleFiles`) never fails the item's seek: its cues known whole, it is
    /// not read at all; else it goes to the cue at or before the target, or the first after (FFmpeg refuses a
    /// seek before a subtitle file's first cue, and any seek in a file it read no cue from: such a seek failed
    /// the item's, which then did not move: a seek back to the start, every seek with a WebVTT file that has a
    /// region).
    func seek(to seconds: Double) throws(PlaybackError) {
        input.resume()
        pushedBack.removeAll()
        if cueFile != nil { return }
        let subtitlesOnly = !tracks.isEmpty && tracks.allSatisfy { $0.kind == .text }
        do {
            try input.seek(toSeconds: seconds + input.startSeconds, orAfter: subtitlesOnly)
            if !subtitlesOnly { try landBeforeKeyframe(of: seconds) }
        } catch {
            // Only a file FFmpeg read no cue from fails so: nothing to read wherever it stands.
            if subtitlesOnly { return }
            throw PlaybackError(reading: input.name, error: error)
        }
    }

    func idle() -> (ok: Bool, nextDeadline: Double?) { (true, nil) }

    func waitForMore(idle: Double, cancelled: () -> Bool) -> Bool {
        guard let follower, follower.waitForMore(beyond: input.bytesRead, idle: idle, cancelled: cancelled) else {
            return false
        }
        input.continueAfterEndOfFile()
        return true
    }

    func interrupt() { input.interrupt() }

    /// A file's or a URL's read does not wait for long: nothing to end.
    func interruptWaits() {}

    func cancel() { input.cancel() }
}
