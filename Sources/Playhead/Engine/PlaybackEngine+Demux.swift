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
        // An HLS input the asset opened chose its variant without caps: not taken when there are any (but the
        // asset's loads still take this open's result when it comes first, not opening it again without them).
        let claim =
            config.assetLoader?.claimInput(takesInput: caps == AdaptiveBitratePolicy.Caps()) { isStopping }
            ?? .open(shared: false)
        if isStopping {
            // Stopped while waiting for the asset's open, or before opening: nothing to open.
            if case .open(shared: true) = claim { config.assetLoader?.share(nil) }
            return
        }
        switch claim {
        case .input(let pre):
            opened = pre
        case .failed(let error):
            fail(error)
            return
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
        if let factor = config.replayGain.factor(for: media.metadata.replayGain) {
            control.withLock { $0.gain = Float(factor) }
        }
        text.setShownTrack(media.text?.id)
        noteStartable(source)
        // Without sound the pictures follow the monotonic clock, not an output that never plays anything.
        if media.audio == nil { clock.followSystemClock() }
        endTime.withLock { end in if let end { clock.setLimit(end) } }
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
            // FFmpeg's frame threads, started as the decoder opens, take the name of the thread that opens it:
            // named for what they do, they are told apart from the demux loop (`top -H`, the tests' wake counts).
            ThreadName.set("playhead.vdec")
            defer { ThreadName.set("playhead.demux") }
            do {
                let decoder = try source.makeDecoder(track: v.id, threads: 2)
                spawn("playhead.video-decode") { $0.runVideoDecode(decoder, track: v) }
                // Its pictures are shown in its turns on the player's video thread.
                control.withLock { $0.presentsVideo = true }
            } catch {
                fail(PlaybackError(decoding: source.name, stream: v.stream, error: error))
                return
            }
        }
        // Subtitles may be turned on later in place when there are any (closed captions included).
        if media.text != nil || media.tracks.contains(where: { $0.kind == .text && ClosedCaptions.plays($0.stream) }) {
            control.withLock { $0.presentsText = true }
        }
        presentersChanged()
        readLoop(source, media)
    }

    private func readLoop(_ source: any MediaSource, _ opened: MediaInfo) {
        var state = ReadState(media: opened, source: source)
        let forward = config.forwardBuffer
        if let knownCues = state.knownCues { showKnown(knownCues) }
        while true {
            // Read before looking at the state: a command that comes after the look wakes the wait below.
            let token = wakeToken()
            if !source.deliverPendingJump() { releaseJumpWait() }
            var readsOn = false
            var within: SeekWithinBuffer?
            if control.withLock({ $0.pendingSeek != nil }) {
                within = holdForSeekWithinBuffer(state)
            }
            if within == nil, control.withLock({ $0.pendingSeek != nil }) {
                // An input that cannot seek (a pipe, HTTP without ranges) refuses the seek before anything changes:
                // what is buffered stays, the clock stays, and it plays on. Only the item's start position, asked
                // before anything was read, is reached by reading on to it (what comes before is decoded and
                // dropped, as after an exact seek's keyframe), as `ffplay -ss` does: it started from the beginning.
                if !source.isSeekable {
                    readsOn = !state.readAny && control.withLock { $0.pendingSeek.map { $0.id < 0 } ?? false }
                    if !readsOn, refuseSeek() { continue }
                }
                // Empty the queues before the generation changes: a decode thread that adopts the new generation
                // must not find packets of the old one.
                audioQueue.flush()
                videoQueue.flush()
                frameQueue.flush()
            }
            let (stopping, seek) = seekInterrupt.withLock {
                control.withLock { c -> (Bool, SeekRequest?) in
                    // A newer seek came since the queues were looked at: it is looked at first.
                    if let w = within, c.pendingSeek?.id != w.id { return (c.stopping, nil) }
                    let s = c.pendingSeek
                    if s != nil {
                        c.pendingSeek = nil
                        c.activeSeek = s
                        c.generation += 1
                        c.exactTarget = s!.exact ? s!.seconds : nil
                        c.firstVideoSeconds = nil
                        c.audioEnded = false
                        c.videoEnded = false
                        c.endedPosted = false
                        // A read that failed further on still ends what the queues hold; a seek in the source reads
                        // again whatever an interrupted read lost.
                        if within == nil {
                            c.endFailure = nil
                            c.readInterrupted = false
                        }
                    }
                    return (c.stopping, s)
                }
            }
            if let w = within, stopping || seek == nil {
                release(w)
                if stopping { return }
                continue
            }
            if stopping { return }
            if seek != nil && within == nil { state.alternates = AlternateAudio() }
            takeSwitches(source, &state)
            if let seek {
                // Now that the generation has changed, wake the audio thread if it waits on the output, so it
                // sees the seek (a wake before the change would be taken for a spurious one).
                if ownsOutput { config.audioOutput?.interruptWrite() }
                frameQueue.wakeAll()
                wake()
                // Its pictures, ended before the seek, may be shown again.
                presentersChanged()
                control.withLock { $0.cutShort = true }
                performSeek(seek, source: source, readingOn: readsOn, withinBuffer: within != nil)
                if let w = within {
                    // Only now, with the pictures and the clock of before the seek gone, may the decoders take the
                    // seek's packets (let go before, the pictures they made went with the frame queue's flush).
                    takeSeekWithinBuffer(w, generation: control.withLock { $0.generation })
                    // The source reads on from where it was (or stays at its end): what the queues hold may be
                    // enough to play on, with nothing read to say so.
                    if bufferedSeconds(state.media) >= min(EngineConfiguration.resumeThreshold, forward) {
                        setBuffering(false)
                    }
                } else {
                    state.atEnd = false
                    state.pastEnd.removeAll()
                    state.videoStartNoted = false
                    state.reach.last = nil
                }
                continue
            }
            if state.atEnd {
                // Nothing more to read: sleep until a seek or a stop.
                waitForWake(since: token)
                continue
            }
            let wasWaiting = control.withLock { c in
                defer { c.demuxWaitsForRoom = true }
                return c.demuxWaitsForRoom
            }
            // A rendition started for a switch is read on until it reaches ahead, whatever is buffered.
            if state.catchingUp.isEmpty && !hasRoom(state.media, forward: forward, hysteresis: false) {
                if !wasWaiting { sink(.bufferFilled) }
                // Full: sleep until the decoders have taken enough (`noteTaken`) or a command comes; the source
                // does what is due meanwhile (a live playlist keeps reloading on its schedule).
                let (ok, deadline) = source.idle()
                if !ok { return }
                waitForWake(since: token, seconds: deadline.map { max($0 - MonotonicClock.now(), 0.001) })
                continue
            }
            control.withLock { $0.demuxWaitsForRoom = false }
            var read: SourceRead
            var readFailed = false
            do {
                read = try source.read()
            } catch {
                if isStopping { return }
                // What was read before plays (a server that cut the connection for good, a disk that failed
                // further on); the item fails with the error where it runs out, unless a seek reads again. (It
                // failed at once: up to the forward buffer's 30 s of a remote file, read whole, went unheard.)
                control.withLock { c in if c.endFailure == nil { c.endFailure = error } }
                (read, readFailed) = (.end, true)
            }
            let g = control.withLock { $0.generation }
            if settleCatchUp(after: read, source, &state) { continue }
            switch read {
            case .interrupted:
                // For a command (possibly one already taken): look at the state, then read again.
                if isStopping { return }
                continue
            case .end:
                // A file still being written: wait for more while the buffer plays (never so long that playback
                // would stall for it), then read on.
                let idle = min(1, bufferedSeconds(state.media) - 0.5)
                if !readFailed, idle > 0, isPlayingOrBuffering,
                    source.waitForMore(idle: idle, cancelled: { hasCommand })
                {
                    continue
                }
                state.atEnd = true
                if !readFailed { noteReadToEnd(&state.reach) }
                // Reading failed (thrown, or held by the source for the end: `SourceHost.failAtEnd`) with nothing
                // left to play, as a live stream whose playlist failed during a stall: the wait ends so the decoders
                // reach the end and the item fails there, but playback does not resume, so none is announced (a
                // "resumed" came just before the error).
                let failing = readFailed || control.withLock { $0.endFailure != nil }
                let nothingLeft = failing && audioQueue.isEmpty && videoQueue.isEmpty
                for queue in [audioQueue, videoQueue] where !queue.reachedEnd { queue.put(.endOfStream, generation: g) }
                setBuffering(false, announced: !nothingLeft)
            case .cues(let batch):
                if batch.track == state.media.text?.id {
                    showKnown(batch.cues)
                } else {
                    state.otherCues.add(batch)
                }
            case .sample(let sample):
                route(sample, source, &state, generation: g)
            case .gap(let gap):
                // The playing tracks' queues carry it: the sound is silence through it as it comes. It is buffered
                // time as a packet is (a stall for want of it ends).
                for (track, queue) in [(state.media.audio, audioQueue), (state.media.video, videoQueue)] {
                    guard let track, gap.tracks?.contains(track.id) ?? true else { continue }
                    queue.put(.gap(from: gap.from, until: gap.until), generation: g)
                }
                noteRead(gap.until, &state.reach)
                if control.withLock({ $0.buffering }),
                    bufferedSeconds(state.media) >= min(EngineConfiguration.resumeThreshold, config.forwardBuffer)
                {
                    setBuffering(false)
                }
            }
        }
    }

    /// Takes the waiting seek out and reports it as not finished; false when none waits any more. Demux thread.
    private func refuseSeek() -> Bool {
        let refused = seekInterrupt.withLock {
            control.withLock { c -> SeekRequest? in
                defer { c.pendingSeek = nil }
                return c.pendingSeek
            }
        }
        guard let refused else { return false }
        if refused.id >= 0 { sink(.seekDone(id: refused.id, position: clock.seconds, finished: false)) }
        return true
    }

    /// The queue of the chosen audio or video track `id`; nil for any other track (its samples are dropped).
    func queue(for id: Int, _ media: MediaInfo) -> PacketQueue? {
        id == media.audio?.id ? audioQueue : id == media.video?.id ? videoQueue : nil
    }
}
