import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// The demux thread's buffer and seek: how much is buffered, whether there is room, a seek carried out on the
/// source, and the host a source is given.
extension PlaybackEngine {
    /// Whether a seek or a stop waits for the demux thread.
    var hasCommand: Bool { control.withLock { $0.stopping || $0.pendingSeek != nil } }

    /// Whether time moves or waits to (a paused item's file is followed once it plays on).
    var isPlayingOrBuffering: Bool { control.withLock { $0.rate != 0 } }

    /// Whether the queues have room for more packets (the forward buffer and the byte limit). With `hysteresis`
    /// (a decode thread deciding whether to wake a full demux thread), room means a second (or a quarter of a
    /// short forward buffer) below the limit, so a full demux thread wakes once a second of playback, not per
    /// packet.
    func hasRoom(_ media: MediaInfo, forward: Double, hysteresis: Bool) -> Bool {
        let seconds = hysteresis ? forward - min(1, forward / 4) : forward
        let bytes = hysteresis ? config.maxBufferBytes - config.maxBufferBytes / 8 : config.maxBufferBytes
        return bufferedSeconds(media) < seconds && audioQueue.byteCount + videoQueue.byteCount < bytes
    }

    /// Decode threads, after taking a packet: wakes the demux thread when it waits for room and there is some.
    func noteTaken(_ media: MediaInfo) {
        guard control.withLock({ $0.demuxWaitsForRoom }) else { return }
        guard hasRoom(media, forward: config.forwardBuffer, hysteresis: true) else { return }
        control.withLock { $0.demuxWaitsForRoom = false }
        wake()
    }

    /// Seconds buffered ahead in the stream that has the least.
    func bufferedSeconds(_ media: MediaInfo) -> Double {
        var result = Double.infinity
        if media.audio != nil { result = min(result, audioQueue.reachedEnd ? .infinity : audioQueue.seconds) }
        if media.video != nil { result = min(result, videoQueue.reachedEnd ? .infinity : videoQueue.seconds) }
        return result
    }

    /// How far before an exact seek's target the source is read from (`performSeek`).
    static let exactSeekLead = 0.5

    /// Carries out a seek on the source in place: a file seeks to the keyframe before the target; an HLS source
    /// restarts at the segment that holds the target (fetched first), so nothing is opened or probed again and the
    /// decoders are kept. `readingOn`: the source is not asked to seek, it is read on from where it is to the target
    /// (an unseekable input's start position; the decoders drop what comes before the target). `withinBuffer`:
    /// the packet queues hold the seek's packets already (`SeekWithinBuffer`), and the source reads on.
    func performSeek(
        _ seek: SeekRequest, source: any MediaSource, readingOn: Bool = false, withinBuffer: Bool = false
    ) {
        if !withinBuffer {
            audioQueue.flush()
            videoQueue.flush()
        }
        frameQueue.flush()
        clock.reset(to: seek.seconds)
        control.withLock { $0.gainChanges.removeAll() }
        shownPicture.withLock { $0 = nil }
        // The text thread, woken for the seek before the clock moved, looks at the new time.
        wake()
        do {
            // An exact seek reads from a little before its target, and the decoders drop what comes before it:
            // muxers store the sound of a cut's first moments before the cut (an HLS segment's first 20-40 ms of AAC
            // sit in the segment before, in MPEG-TS packets of up to a few tenths of a second), and reading from the
            // target's segment alone started the sound (and the time) that much late.
            let from = seek.exact ? max(0, seek.seconds - Self.exactSeekLead) : seek.seconds
            if !readingOn && !withinBuffer { try source.seek(to: from) }
        } catch {
            if isStopping { return }
            // Unseekable inputs keep playing from where they are. A newer seek may have superseded this one
            // meanwhile (its interrupt is what ended this one): that reported this one's end.
            let position = clock.seconds
            control.withLock { c in
                if c.activeSeek?.id == seek.id {
                    c.activeSeek = nil
                    if seek.id >= 0 { sink(.seekDone(id: seek.id, position: position, finished: false)) }
                }
                c.jumpWaiting = false
            }
            applyCork()
            return
        }
        control.withLock {
            $0.buffering = true
            $0.seekBuffering = true
            $0.jumpWaiting = false
        }
        applyCork()
    }

    /// Demux thread, when the source holds no pending jump: if the item plays and no seek came of one, the jump the
    /// output was kept corked for is gone (its source was closed: a rendition switched away), and the output plays
    /// on from where it is rather than stay corked.
    func releaseJumpWait() {
        if control.withLock({ $0.releaseJumpWait() }) != nil { applyCork() }
    }

    /// What the source may ask of this engine and how it reports (demux thread, before the first read).
    func makeHost() -> SourceHost {
        SourceHost(
            position: { [weak self] in self?.clock.seconds ?? 0 },
            caps: { [weak self] in self?.hlsCaps ?? AdaptiveBitratePolicy.Caps() },
            isPlaying: { [weak self] in
                self?.control.withLock { $0.readyPosted && $0.rate > 0 && !$0.buffering } ?? false
            },
            mayJump: { [weak self] in self?.control.withLock { $0.rate > 0 && $0.pendingSeek == nil } ?? false },
            seekPending: { [weak self] in self?.control.withLock { $0.pendingSeek != nil } ?? false },
            requestJump: { [weak self] seconds in
                self?.control.withLock { c in
                    if c.pendingSeek == nil { c.pendingSeek = SeekRequest(id: -2, seconds: seconds, exact: false) }
                }
            },
            jumpWaits: { [weak self] in self?.control.withLock { $0.jumpWaiting = true } },
            post: { [weak self] event in self?.postFromSource(event) },
            fail: { [weak self] error in self?.fail(error) },
            failAtEnd: { [weak self] error in
                self?.control.withLock { c in if c.endFailure == nil { c.endFailure = error } }
            },
            forwardBufferSeconds: config.forwardBufferSeconds)
    }
}
