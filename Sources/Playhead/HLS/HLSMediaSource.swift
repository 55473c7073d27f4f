import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// An HLS stream as a media source: Playhead's HLS client (`HLSSource`) loads playlists and segments and chooses
/// variants in this source's own reading loop, on the engine's demux thread, outside FFmpeg; FFmpeg demuxes each
/// segment from memory once it is loaded. MPEG-TS and packed audio continue in one demuxer from segment to
/// segment; fMP4 segments (and low-latency parts) are each demuxed as a part of their own after their init
/// section, with the first part's streams, so nothing is probed again and the decoders are kept. A seek moves the
/// client to the segment that holds the target and fetches it first.
///
/// Waits (a download, a live reload, a blocking low-latency reload) end at once for a seek (`interrupt`, and the
/// client's `seekPending`) or a stop (`cancel`). Threads: as `MediaSource`.
final class HLSMediaSource: DemuxerSource, @unchecked Sendable {
    let hls: HLSSource
    /// Whether a jump found while paused may be taken now (from the host; demux thread).
    private var jumpAllowed: @Sendable () -> Bool = { false }
    /// The error that ended loading once media had been fetched (everything was tried): reading then ends
    /// (`.end`) and the engine fails the item with it after the buffered media has played out (demux thread).
    private var heldFailure: PlaybackError?
    /// Hands `heldFailure` to the engine (from the host).
    private var failAtEnd: @Sendable (PlaybackError) -> Void = { _ in }

    /// Wraps `input`, opened (and probed) over `hls`; once attached, segments are loaded by `read`.
    /// The caption tracks are the variant's `CLOSED-CAPTIONS` renditions, in its video (none for `NONE`); without
    /// the attribute, those FFmpeg's probe saw, as in a file.
    init(input: MediaInput, hls: HLSSource) {
        self.hls = hls
        Self.declareMissingStreams(input, hls)
        super.init(input: input, follower: nil)
        if let renditions = hls.closedCaptionRenditions {
            tracks.removeAll { $0.isClosedCaptions }
            if let best = input.bestStream(.video), let video = tracks.first(where: { $0.id == best }) {
                tracks += ClosedCaptions.tracks(of: video, renditions: renditions)
            }
        }
    }

    /// Declares on `input` the streams its variant's `CODECS` name but its first part lacks (a pre-roll of pictures
    /// alone, or of sound alone), so that the programme after it brings them: they were dropped, and the item had
    /// no sound (or no pictures) to its end. Not the sound of a variant whose audio group has renditions of their
    /// own (its sound comes from them). Nothing without `CODECS`.
    private static func declareMissingStreams(_ input: MediaInput, _ hls: HLSSource) {
        guard let variant = hls.variant else { return }
        let codecs = variant.stream.codecs
        let has = { (type: StreamInfo.MediaType) in input.streams.contains { $0.mediaType == type } }
        if !has(.audio), !hls.audioRenditions.contains(where: { $0.url != nil }),
            let name = CodecSupport.audioDecoderName(inCodecs: codecs)
        {
            _ = input.declareStream(.audio, decoder: name)
        }
        if !has(.video), let name = CodecSupport.videoDecoderName(inCodecs: codecs) {
            let size = variant.resolution
            _ = input.declareStream(.video, decoder: name, width: size?.width ?? 0, height: size?.height ?? 0)
        }
    }

    /// For text, the variant's `DEFAULT` caption rendition when it is playable (a subtitle rendition marked
    /// `DEFAULT` comes first: `MergedSource` asks its part after this one).
    override func defaultTrack(_ kind: TrackKind) -> Int? {
        if kind == .text, let renditions = hls.closedCaptionRenditions,
            let k = renditions.firstIndex(where: \.isDefault),
            let caption = track(ClosedCaptions.firstTrackID + k), caption.stream.isDecodable
        {
            return caption.id
        }
        return super.defaultTrack(kind)
    }

    override func attach(_ host: SourceHost) {
        super.attach(host)
        hls.loadsOnRead = false
        // The fMP4 demuxer does not go on after the end of its bytes: each segment is a part with its init.
        hls.repeatsInit = input.formatName.contains("mp4")
        hls.playbackPosition = host.position
        hls.currentCaps = host.caps
        // A short forward buffer bounds the buffer the policy can hope for, as a live edge does.
        if host.forwardBufferSeconds > 0 { hls.fitPolicy(toBuffer: host.forwardBufferSeconds) }
        hls.isPlaying = host.isPlaying
        hls.seekPending = host.seekPending
        if let v = hls.variant { host.post(Self.switchEvent(v)) }
        hls.onSwitch = { v in host.post(Self.switchEvent(v)) }
        hls.onJump = host.requestJump
        hls.onJumpWaits = host.jumpWaits
        hls.onNotice = { notice in
            switch notice {
            case .segment(let bytes, let seconds, let estimate):
                host.post(.segmentLoaded(bytes: bytes, seconds: seconds, estimate: estimate))
            case .failed:
                // Reading ends with it (`hold`): what is buffered plays out first.
                break
            default:
                host.post(.hls(notice))
            }
        }
        jumpAllowed = host.mayJump
        failAtEnd = host.failAtEnd
        // An error met while FFmpeg probed, after the segments it opened with: those play, then the item fails.
        if let error = hls.failure, hls.fetchedAny, !Self.isCancellation(error) { hold(error) }
    }

    /// Ends reading with `error` once media has been fetched: the engine plays what is buffered, then fails the
    /// item with it. Before that nothing was loaded and the error is thrown at once. Demux thread.
    private func hold(_ error: PlaybackError) {
        guard heldFailure == nil else { return }
        heldFailure = error
        failAtEnd(error)
    }

    private static func isCancellation(_ error: PlaybackError) -> Bool { error.reason.hasSuffix("cancelled") }

    /// The playlist places every segment on the item's timeline (discontinuities mapped, gaps kept as time).
    override var placesSamples: Bool { true }

    /// The `AUDIO` group of the variant being loaded (demux thread).
    override var currentAudioGroup: String? { hls.variant?.stream.audio }

    /// A stream seeks by restarting at the target's segment (`seek(to:)`), whatever FFmpeg's byte reader says
    /// (Playhead's HLS client feeds it without seeking); a live one within its window.
    override var isSeekable: Bool { true }

    /// Samples encrypted with a key that is not theirs decrypt to noise no decoder takes.
    override var undecodableReason: String? {
        hls.sampleEncryptionUsed.current.map {
            "nothing could be decoded: its samples are encrypted (\($0)); a wrong key?"
        } ?? super.undecodableReason
    }

    override func deliverPendingJump() -> Bool {
        guard hls.jumpPending != nil else { return false }
        guard jumpAllowed() else { return true }
        _ = hls.handOverPendingJump()
        return hls.jumpPending != nil
    }

    override func read() throws(PlaybackError) -> SourceRead {
        while true {
            if let read = try readFed() { return read }
            // Everything that could be loaded has been: the rest plays out, then the item fails (`hold`).
            if heldFailure != nil { return .end }
            // FFmpeg has demuxed every byte loaded: load the next segment here, then demux it.
            do {
                guard try loadSegment() else { return .end }
                // Time passed over at a live edge (lost or gap parts or segments): the engine plays it as it comes.
                if let skipped = hls.skippedTime {
                    hls.skippedTime = nil
                    return .gap(GapRead(tracks: nil, from: skipped.from, until: skipped.until))
                }
            } catch is ByteSourceInterruption {
                // A seek came in during a download or a live wait, or a jump out of the live window.
                return .interrupted
            } catch {
                let failure = playbackError(error)
                if !hls.fetchedAny || Self.isCancellation(failure) || hls.isCancelled { throw failure }
                hold(failure)
                return .end
            }
        }
    }

    /// Loads the next segment (or low-latency part) and hands it to the demuxer: as more bytes of the running
    /// demuxer, or as a new part (fMP4, a new init section). False at the end of the stream. Demux thread.
    private func loadSegment() throws -> Bool {
        if hls.repeatsInit { hls.startOver() }
        hls.yieldsSkippedTime = true
        let loaded: Bool
        do {
            loaded = try hls.loadNext()
            hls.yieldsSkippedTime = false
        } catch {
            hls.yieldsSkippedTime = false
            throw error
        }
        if loaded {
            // Time passed over (`skippedTime`): nothing new to demux.
            if hls.skippedTime == nil { try continueDemuxing() }
            return true
        }
        // A new init section (an fMP4 variant switch) ends the part: the next one starts with it.
        guard hls.takePartBreak(), try hls.loadNext() else { return false }
        try openPart()
        return true
    }

    private func continueDemuxing() throws {
        if hls.repeatsInit {
            try openPart()
        } else {
            input.continueAfterEndOfFile()
        }
    }

    private func openPart() throws {
        guard try input.restartPart() else {
            throw PlaybackError(.parsing, source: input.name, reason: "the stream changed its tracks")
        }
        // The part's container decides: fMP4 after TS (at a discontinuity) is demuxed segment by segment.
        hls.repeatsInit = input.formatName.contains("mp4")
    }

    override func seek(to seconds: Double) throws(PlaybackError) {
        input.resume()
        hls.reposition(at: seconds)
        // A seek tries again what had failed (the engine forgot the error it held).
        heldFailure = nil
        hls.failure = nil
        do {
            // The segment that holds the target is fetched first, and demuxed as a new part.
            guard try hls.loadNext() else { return }
            try openPart()
        } catch is ByteSourceInterruption {
            // A newer seek: the engine takes it next.
        } catch {
            let failure = playbackError(error)
            if Self.isCancellation(failure) || hls.isCancelled { throw failure }
            // Nothing to play from there: reading ends at once and the item fails with the error.
            hold(failure)
        }
    }

    /// An error met while loading or opening a segment, as the item's error: the client's own, FFmpeg's as a read
    /// failure of the stream.
    private func playbackError(_ error: any Error) -> PlaybackError {
        switch error {
        case let e as PlaybackError: e
        case let e as FFmpegError: PlaybackError(reading: input.name, error: e)
        default: PlaybackError(.network, source: input.name, reason: "\(error)")
        }
    }

    override func idle() -> (ok: Bool, nextDeadline: Double?) {
        guard heldFailure == nil else { return (true, nil) }
        do {
            try hls.reloadWhileIdle()
        } catch {
            if Self.isCancellation(error) || hls.isCancelled { return (false, nil) }
            // The buffer plays out, then the item fails with the error (the next read ends).
            hold(error)
            return (true, nil)
        }
        return (true, hls.idleReloadDeadline)
    }

    override func waitForMore(idle: Double, cancelled: () -> Bool) -> Bool { false }

    override func interrupt() {
        input.interrupt()
        // A wait for a live reload ends too; downloads end when they see the seek (`seekPending`).
        hls.wakeup.signal()
    }

    override func interruptWaits() { hls.wakeup.signal() }

    static func switchEvent(_ v: Variant) -> EngineEvent {
        .variantSwitch(
            VariantChoice(
                bitRate: v.bandwidth ?? 0, width: v.resolution?.width ?? 0, height: v.resolution?.height ?? 0,
                pathway: v.stream.pathwayID ?? ".",
                host: v.url.flatMap { u in u.host.map { h in u.port.map { "\(h):\($0)" } ?? h } }))
    }
}
