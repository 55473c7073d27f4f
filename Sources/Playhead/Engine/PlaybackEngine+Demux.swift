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
                    hls: config.assetLoader?.hls ?? HLSClientOptions(),
                    stopping: { [weak self] in self?.isStopping ?? true })
                if shared { config.assetLoader?.share(.success(opened)) }
            } catch {
                if shared { config.assetLoader?.share(isStopping ? nil : .failure(error)) }
                if !isStopping { fail(error) }
                return
            }
        }
        let sidecars = SubtitleFiles.open(config.assetLoader?.subtitleFiles ?? [])
        // A subtitle file left out is an error-log entry; the item plays without it.
        for problem in sidecars.problems { sink(.hls(.recovered(problem))) }
        let source = SubtitleFiles.adding(
            sidecars.parts,
            to: DemuxerSource.make(
                input: opened, location: config.location, hls: config.assetLoader?.hls ?? HLSClientOptions(),
                stopping: { [weak self] in self?.isStopping ?? true }))
        self.source = source
        source.attach(makeHost())
        if isStopping { return }
        let media = MediaInfo.choosing(
            from: source, wantAudio: config.decodeAudio, wantVideo: config.decodeVideo,
            selection: config.trackSelection)
        if isStopping { return }
        if media.audio == nil && media.video == nil {
            fail(PlaybackError.noPlayableStream(in: source))
            return
        }
        info = media
        noteStartable(source)
        // Without sound the pictures follow the monotonic clock, not an output that never plays anything.
        if media.audio == nil { clock.followSystemClock() }
        if let end = config.endSeconds { clock.setLimit(end) }
        if media.duration.isNumeric { clock.setDeclaredEnd(media.duration.seconds) }
        sink(.opened(media))
        if let a = media.audio {
            do {
                let decoder = try source.makeDecoder(track: a.id, threads: 1)
                if let renderer = config.audio {
                    audioWork = AudioWork(decoder: decoder, track: a, format: config.format)
                    renderer.attach(self)
                }
            } catch {
                fail(PlaybackError(decoding: source.name, stream: a.stream, error: error))
                return
            }
        }
        if let v = media.video {
            do {
                let decoder = try source.makeDecoder(track: v.id, threads: 2)
                spawn("playhead.video-decode") { $0.runVideoDecode(decoder, track: v) }
                spawn("playhead.video") { $0.runVideoPresent() }
            } catch {
                fail(PlaybackError(decoding: source.name, stream: v.stream, error: error))
                return
            }
        }
        if media.text != nil { spawn("playhead.text") { $0.runText() } }
        readLoop(source, media)
    }

    private func readLoop(_ source: any MediaSource, _ opened: MediaInfo) {
        var media = opened
        /// The recent packets of the audio tracks not playing, for a seamless switch.
        var alternates = AlternateAudio()
        var announced = Set<Int>()
        let forward = config.forwardBuffer
        var atEnd = false
        /// The tracks whose samples have passed the item's end time (each gets its end of stream then).
        var pastEnd = Set<Int>()
        var textReader = media.text.map { TextCueReader(codec: $0.stream.codecName) }
        // A text track whose cues are all known shows them; its samples are not read.
        var knownCues = media.text.flatMap { source.knownCues(of: $0.id) }
        /// The cues read so far of the text tracks not shown, for a switch in place.
        var otherCues = OtherCues()
        /// A rendition started for a switch in place, read whatever is buffered until it reaches `until` (item
        /// time): a sound rendition is switched to then.
        var catchingUp: (track: Int, kind: TrackKind, until: Double)?
        if let knownCues { showKnown(knownCues) }
        while true {
            // Read before looking at the state: a command that comes after the look wakes the wait below.
            let token = wakeToken()
            source.deliverPendingJump()
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
                    c.endFailure = nil
                }
                return (c.stopping, s)
            }
            if stopping { return }
            if seek != nil { alternates = AlternateAudio() }
            if let id = control.withLock({ c -> Int? in
                defer { c.pendingAudioSwitch = nil }
                return c.pendingAudioSwitch
            }) {
                if source.reads(track: id) {
                    performAudioSwitch(to: id, source: source, media: &media, alternates: &alternates)
                    // Everything was read: the new track's packets end the stream as the old one's did.
                    if atEnd && !audioQueue.reachedEnd {
                        audioQueue.put(.endOfStream, generation: control.withLock { $0.generation })
                    }
                } else if source.startReading(track: id, at: clock.seconds) {
                    // An HLS rendition: read beside the playing one (even with the buffer full, even after the
                    // end was read) until its sound reaches ahead.
                    catchingUp = (id, .audio, clock.seconds + 1)
                    atEnd = false
                    noteStartable(source)
                }
            }
            if let choice = control.withLock({ c -> Int?? in
                defer { c.pendingTextSwitch = nil }
                return c.pendingTextSwitch
            }) {
                if performTextSwitch(to: choice, source: source, media: &media, others: &otherCues), let id = choice {
                    // A subtitle rendition started: read on until it is a few seconds ahead.
                    catchingUp = (id, .text, clock.seconds + 5)
                    atEnd = false
                }
                textReader = media.text.map { TextCueReader(codec: $0.stream.codecName) }
                knownCues = media.text.flatMap { source.knownCues(of: $0.id) }
            }
            if let seek {
                // Now that the generation has changed, wake the audio thread if it waits on the output, so it
                // sees the seek (a wake before the change would be taken for a spurious one).
                if ownsOutput { config.audioOutput?.interruptWrite() }
                frameQueue.wakeAll()
                wake()
                control.withLock { $0.cutShort = true }
                performSeek(seek, source: source)
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
            // A rendition started for a switch is read on until its sound reaches ahead, whatever is buffered.
            if catchingUp == nil && !hasRoom(media, forward: forward, hysteresis: false) {
                if !wasWaiting { sink(.bufferFilled) }
                // Full: sleep until the decoders have taken enough (`noteTaken`) or a command comes; the source
                // does what is due meanwhile (a live playlist keeps reloading on its schedule).
                let (ok, deadline) = source.idle()
                if !ok { return }
                waitForWake(since: token, seconds: deadline.map { max($0 - MonotonicClock.now(), 0.001) })
                continue
            }
            control.withLock { $0.demuxWaitsForRoom = false }
            let read: SourceRead
            do {
                read = try source.read()
            } catch {
                if !isStopping { fail(error) }
                return
            }
            let g = control.withLock { $0.generation }
            switch read {
            case .interrupted:
                // For a command (possibly one already taken): look at the state, then read again.
                if isStopping { return }
                continue
            case .end:
                // A file still being written: wait for more while the buffer plays (never so long that playback
                // would stall for it), then read on.
                let idle = min(1, bufferedSeconds(media) - 0.5)
                if idle > 0, isPlayingOrBuffering, source.waitForMore(idle: idle, cancelled: { hasCommand }) {
                    continue
                }
                if let started = catchingUp {
                    catchingUp = nil
                    if started.kind == .audio {
                        finishRenditionSwitch(to: started.track, source: source, media: &media, alternates: &alternates)
                    }
                }
                atEnd = true
                for queue in [audioQueue, videoQueue] where !queue.reachedEnd { queue.put(.endOfStream, generation: g) }
                setBuffering(false)
            case .cues(let batch):
                if let started = catchingUp, batch.track == started.track, batch.seconds >= started.until {
                    catchingUp = nil
                }
                if batch.track == media.text?.id {
                    showKnown(batch.cues)
                } else {
                    otherCues.add(batch)
                }
            case .sample(let sample):
                if let text = media.text, sample.track == text.id, let textReader {
                    if knownCues == nil { takeText(sample, reader: textReader, track: text) }
                    continue
                }
                if let track = source.track(sample.track), track.kind == .text {
                    otherCues.add(sample, track: track)
                    continue
                }
                guard let queue = queue(for: sample.track, media) else {
                    if media.audio != nil, source.track(sample.track)?.kind == .audio {
                        alternates.add(sample, playHead: clock.seconds)
                        if announced.insert(sample.track).inserted {
                            switchableAudio.withLock { _ = $0.insert(sample.track) }
                        }
                        if let started = catchingUp, sample.track == started.track, let t = sample.seconds,
                            t >= started.until
                        {
                            catchingUp = nil
                            finishRenditionSwitch(
                                to: sample.track, source: source, media: &media, alternates: &alternates)
                        }
                    }
                    continue
                }
                if let end = config.endSeconds, let t = sample.seconds, t > end + 0.5 {
                    // This track is done (with room for reordered video frames); the others go on until their own
                    // samples pass the end (a container may store a segment's video before its sound: fMP4 HLS).
                    control.withLock { $0.cutShort = true }
                    if pastEnd.insert(sample.track).inserted { queue.put(.endOfStream, generation: g) }
                    if [media.audio, media.video].allSatisfy({ $0 == nil || pastEnd.contains($0!.id) }) {
                        atEnd = true
                        setBuffering(false)
                    }
                    continue
                }
                queue.put(.packet(sample.packet, seconds: sample.seconds), generation: g)
                if control.withLock({ $0.buffering }),
                    bufferedSeconds(media) >= min(EngineConfiguration.resumeThreshold, forward)
                {
                    setBuffering(false)
                }
            }
        }
    }

    /// The queue of the chosen audio or video track `id`; nil for any other track (its samples are dropped).
    private func queue(for id: Int, _ media: MediaInfo) -> PacketQueue? {
        id == media.audio?.id ? audioQueue : id == media.video?.id ? videoQueue : nil
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
        if media.audio != nil { result = min(result, audioQueue.reachedEnd ? .infinity : audioQueue.seconds) }
        if media.video != nil { result = min(result, videoQueue.reachedEnd ? .infinity : videoQueue.seconds) }
        return result
    }

    /// Carries out a seek on the source in place: a file seeks to the keyframe before the target; an HLS source
    /// restarts at the segment that holds the target (fetched first), so nothing is opened or probed again and the
    /// decoders are kept.
    private func performSeek(_ seek: SeekRequest, source: any MediaSource) {
        audioQueue.flush()
        videoQueue.flush()
        frameQueue.flush()
        clock.reset(to: seek.seconds)
        do {
            try source.seek(to: seek.seconds)
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

    /// What the source may ask of this engine and how it reports (demux thread, before the first read).
    private func makeHost() -> SourceHost {
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
            post: { [weak self] event in self?.sink(event) },
            fail: { [weak self] error in self?.fail(error) },
            failAtEnd: { [weak self] error in
                self?.control.withLock { c in if c.endFailure == nil { c.endFailure = error } }
            },
            forwardBufferSeconds: config.forwardBufferSeconds)
    }
}
