import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

extension PlaybackEngine {
    /// The demux thread: opens the input, starts the decode threads, then reads packets into the queues, bounded by
    /// the forward buffer, and carries out seeks.
    func runDemux() {
        let opened: MediaInput
        let caps = hlsCaps
        // An HLS input the asset opened chose its variant without caps: not taken when there are any.
        let claim =
            caps == AdaptiveBitratePolicy.Caps()
            ? config.assetLoader?.claimInput { isStopping } ?? .open(shared: false) : .open(shared: false)
        if isStopping {
            // Stopped while waiting for the asset's open, or before opening: nothing to open.
            if case .open(shared: true) = claim { config.assetLoader?.share(nil) }
            return
        }
        switch claim {
        case .input(let pre):
            opened = pre
        case .open(let shared):
            do {
                opened = try MediaOpener.open(
                    config.location, timeout: config.networkTimeout, caps: caps,
                    stopping: { [weak self] in self?.isStopping ?? true })
                if shared { config.assetLoader?.share(.success(opened)) }
            } catch {
                if shared { config.assetLoader?.share(isStopping ? nil : .failure(error)) }
                if !isStopping { fail(error) }
                return
            }
        }
        input = opened
        if let hls = opened.byteSource as? HLSSource { attach(hls) }
        if isStopping { return }
        let media = MediaInfo(input: opened, wantAudio: config.decodeAudio, wantVideo: config.decodeVideo)
        if media.audioStream == nil && media.videoStream == nil {
            fail(PlaybackError.noPlayableStream(in: opened))
            return
        }
        info = media
        // Without sound the pictures follow the monotonic clock, not an output that never plays anything.
        if media.audioStream == nil { clock.followSystemClock() }
        if let end = config.endSeconds { clock.setLimit(end) }
        if media.duration.isNumeric { clock.setDeclaredEnd(media.duration.seconds) }
        sink(.opened(media))
        if let a = media.audioStream {
            do {
                let decoder = try Decoder(input: opened, stream: a, threads: 1)
                spawn("playhead.audio") { $0.runAudio(decoder) }
            } catch {
                fail(PlaybackError(decoding: opened.name, stream: media.streams[a], error: error))
                return
            }
        }
        if let v = media.videoStream {
            do {
                let decoder = try Decoder(input: opened, stream: v, threads: 2)
                spawn("playhead.video-decode") { $0.runVideoDecode(decoder) }
                spawn("playhead.video") { $0.runVideoPresent() }
            } catch {
                fail(PlaybackError(decoding: opened.name, stream: media.streams[v], error: error))
                return
            }
        }
        readLoop(opened, media)
    }

    private func readLoop(_ opened: MediaInput, _ media: MediaInfo) {
        let input = opened
        let forward = config.forwardBuffer
        var atEnd = false
        /// The streams whose packets have passed the item's end time (each gets its end of stream then).
        var pastEnd = Set<Int>()
        let follower = FileFollower(location: config.location)
        while true {
            // Read before looking at the state: a command that comes after the look wakes the wait below.
            let token = wakeToken()
            takeIdleJump(input)
            if control.withLock({ $0.pendingSeek != nil }) {
                // Empty the queues before the generation changes: a decode thread that adopts the new generation
                // must not find packets of the old one.
                audioQueue.flush()
                videoQueue.flush()
                frameQueue.flush()
            }
            let (stopping, seek) = control.withLock { c -> (Bool, SeekRequest?) in
                let s = c.pendingSeek
                if s != nil {
                    c.pendingSeek = nil
                    c.activeSeek = s
                    c.generation += 1
                    c.exactTarget = s!.exact ? s!.seconds : nil
                    c.audioEnded = false
                    c.videoEnded = false
                    c.endedPosted = false
                    c.handedOff = false
                }
                return (c.stopping, s)
            }
            if stopping { return }
            if let seek {
                // Now that the generation has changed, wake the audio thread if it waits on the output, so it
                // sees the seek (a wake before the change would be taken for a spurious one).
                if control.withLock({ $0.active }) { config.audioOutput?.interruptWrite() }
                frameQueue.wakeAll()
                wake()
                control.withLock { $0.cutShort = true }
                performSeek(seek, input: input, media: media)
                atEnd = false
                pastEnd.removeAll()
                continue
            }
            if atEnd {
                // Nothing more to read: sleep until a seek or a stop.
                waitForWake(since: token)
                continue
            }
            let wasWaiting = control.withLock { c in
                defer { c.demuxWaitsForRoom = true }
                return c.demuxWaitsForRoom
            }
            if !hasRoom(media, forward: forward, hysteresis: false) {
                if !wasWaiting { sink(.bufferFilled) }
                // Full: sleep until the decoders have taken enough (`noteTaken`) or a command comes; a live
                // playlist keeps reloading on its schedule meanwhile.
                if !reloadIdleLive(input) { return }
                let reload = (input.byteSource as? HLSSource)?.idleReloadDeadline.map { $0 - MonotonicClock.now() }
                waitForWake(since: token, seconds: reload.map { max($0, 0.001) })
                continue
            }
            control.withLock { $0.demuxWaitsForRoom = false }
            let packet: Packet?
            do {
                packet = try input.readPacket()
            } catch {
                if isStopping { return }
                if error.code == FFmpegError.exit {
                    // Interrupted for a seek (possibly one already taken): read again.
                    input.resume()
                    continue
                }
                fail(PlaybackError(reading: input.name, error: error))
                return
            }
            let g = control.withLock { $0.generation }
            guard let packet else {
                // A file still being written: wait for more while the buffer plays (never so long that playback
                // would stall for it), then read on.
                let idle = min(1, bufferedSeconds(media) - 0.5)
                if let follower, idle > 0, isPlayingOrBuffering,
                    follower.waitForMore(beyond: input.bytesRead, idle: idle, cancelled: { hasCommand })
                {
                    input.continueAfterEndOfFile()
                    continue
                }
                atEnd = true
                for queue in [audioQueue, videoQueue] where !queue.reachedEnd { queue.put(.endOfStream, generation: g) }
                setBuffering(false)
                continue
            }
            if isPastEnd(packet, media) {
                // This stream is done; the others go on until their own packets pass the end (a container may
                // store a segment's video before its sound: fMP4 HLS).
                control.withLock { $0.cutShort = true }
                let index = packet.streamIndex
                if pastEnd.insert(index).inserted, let queue = queue(for: index, media) {
                    queue.put(.endOfStream, generation: g)
                }
                if [media.audioStream, media.videoStream].allSatisfy({ $0 == nil || pastEnd.contains($0!) }) {
                    atEnd = true
                    setBuffering(false)
                }
                continue
            }
            route(packet, media, generation: g)
            if control.withLock({ $0.buffering }),
                bufferedSeconds(media) >= min(EngineConfiguration.resumeThreshold, forward)
            {
                setBuffering(false)
            }
        }
    }

    /// Whether `packet` lies wholly after the item's end time (with room for reordered video frames).
    private func isPastEnd(_ packet: Packet, _ media: MediaInfo) -> Bool {
        guard let end = config.endSeconds, media.streams.indices.contains(packet.streamIndex),
            let ts = packet.pts ?? packet.dts
        else { return false }
        return media.streams[packet.streamIndex].seconds(ts) - media.startSeconds > end + 0.5
    }

    /// Queues a packet of the audio or video stream chosen at open; packets of other streams are dropped, including
    /// those of streams the container added after the open (an MPEG-TS program map that grows mid-file), which
    /// the item's stream list does not hold.
    private func route(_ packet: Packet, _ media: MediaInfo, generation: Int) {
        let index = packet.streamIndex
        guard let queue = queue(for: index, media), media.streams.indices.contains(index) else { return }
        let seconds = (packet.pts ?? packet.dts).map { media.streams[index].seconds($0) }
        queue.put(.packet(packet, seconds: seconds), generation: generation)
    }

    /// The queue of the chosen audio or video stream `index`; nil for any other stream.
    private func queue(for index: Int, _ media: MediaInfo) -> PacketQueue? {
        index == media.audioStream ? audioQueue : index == media.videoStream ? videoQueue : nil
    }

    /// Whether a seek or a stop waits for the demux thread.
    private var hasCommand: Bool { control.withLock { $0.stopping || $0.pendingSeek != nil } }

    /// Whether time moves or waits to (a paused item's file is followed once it plays on).
    private var isPlayingOrBuffering: Bool { control.withLock { $0.rate != 0 } }

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
        if media.audioStream != nil { result = min(result, audioQueue.reachedEnd ? .infinity : audioQueue.seconds) }
        if media.videoStream != nil { result = min(result, videoQueue.reachedEnd ? .infinity : videoQueue.seconds) }
        return result
    }

    /// Carries out a seek on the input in place: a file seeks to the keyframe before the target; an HLS source
    /// restarts at the segment that holds the target (fetched first) as a new part of the same input, so nothing
    /// is opened or probed again and the decoders are kept.
    private func performSeek(_ seek: SeekRequest, input: MediaInput, media: MediaInfo) {
        input.resume()
        audioQueue.flush()
        videoQueue.flush()
        frameQueue.flush()
        clock.reset(to: seek.seconds)
        do {
            if let hls = input.byteSource as? HLSSource {
                hls.reposition(at: seek.seconds)
                guard try input.restartPart() else {
                    throw PlaybackError(.parsing, source: input.name, reason: "the stream changed its tracks")
                }
            } else {
                try input.seek(toSeconds: seek.seconds + media.startSeconds)
            }
        } catch {
            if isStopping { return }
            // Unseekable inputs keep playing from where they are.
            control.withLock { $0.activeSeek = nil }
            if seek.id >= 0 { sink(.seekDone(id: seek.id, position: clock.seconds, finished: false)) }
            return
        }
        control.withLock {
            $0.buffering = true
            $0.seekBuffering = true
        }
        applyCork(true)
    }
}
