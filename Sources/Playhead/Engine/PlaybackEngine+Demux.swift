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
                opened = try MediaOpener.open(config.location, timeout: config.networkTimeout, caps: caps)
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
        if media.duration.isNumeric { clock.setLimit(min(media.duration.seconds, config.endSeconds ?? .infinity)) }
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
        var input = opened
        let forward =
            config.forwardBufferSeconds > 0 ? config.forwardBufferSeconds : config.automaticForwardBuffer
        var atEnd = false
        while true {
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
                if let reopened = performSeek(seek, input: input, media: media) { input = reopened }
                atEnd = false
                continue
            }
            if atEnd {
                sleep(0.05)
                continue
            }
            let buffered = bufferedSeconds(media)
            let bytes = audioQueue.byteCount + videoQueue.byteCount
            if buffered >= forward || bytes >= config.maxBufferBytes {
                // Full: wake up when the decoders have taken some; a live playlist keeps reloading meanwhile.
                if !reloadIdleLive(input) { return }
                sleep(0.02)
                continue
            }
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
            guard let packet, !isPastEnd(packet, media) else {
                if packet != nil { control.withLock { $0.cutShort = true } }
                atEnd = true
                let g = control.withLock { $0.generation }
                audioQueue.put(.endOfStream, generation: g)
                videoQueue.put(.endOfStream, generation: g)
                setBuffering(false)
                continue
            }
            route(packet, media, generation: control.withLock { $0.generation })
            if control.withLock({ $0.buffering }),
                bufferedSeconds(media) >= min(EngineConfiguration.resumeThreshold, forward)
            {
                setBuffering(false)
            }
        }
    }

    /// Whether `packet` lies wholly after the item's end time (with room for reordered video frames).
    private func isPastEnd(_ packet: Packet, _ media: MediaInfo) -> Bool {
        guard let end = config.endSeconds, let ts = packet.pts ?? packet.dts else { return false }
        return media.streams[packet.streamIndex].seconds(ts) - media.startSeconds > end + 0.5
    }

    private func route(_ packet: Packet, _ media: MediaInfo, generation: Int) {
        let index = packet.streamIndex
        let stream = media.streams[index]
        let seconds = (packet.pts ?? packet.dts).map { stream.seconds($0) }
        if index == media.audioStream {
            audioQueue.put(.packet(packet, seconds: seconds), generation: generation)
        } else if index == media.videoStream {
            videoQueue.put(.packet(packet, seconds: seconds), generation: generation)
        }
    }

    /// Seconds buffered ahead in the stream that has the least.
    func bufferedSeconds(_ media: MediaInfo) -> Double {
        var result = Double.infinity
        if media.audioStream != nil { result = min(result, audioQueue.reachedEnd ? .infinity : audioQueue.seconds) }
        if media.videoStream != nil { result = min(result, videoQueue.reachedEnd ? .infinity : videoQueue.seconds) }
        return result
    }

    /// Carries out a seek; returns a new input when the seek reopened the stream (HLS starts again at the segment
    /// that holds the target, and fetches that one first).
    private func performSeek(_ seek: SeekRequest, input: MediaInput, media: MediaInfo) -> MediaInput? {
        input.resume()
        audioQueue.flush()
        videoQueue.flush()
        frameQueue.flush()
        clock.reset(to: seek.seconds)
        var replacement: MediaInput?
        do {
            if let hls = input.byteSource as? HLSSource {
                replacement = try reopen(hls, at: seek.seconds, like: input)
            } else {
                try input.seek(toSeconds: seek.seconds + media.startSeconds)
            }
        } catch {
            if isStopping { return nil }
            // Unseekable inputs keep playing from where they are.
            control.withLock { $0.activeSeek = nil }
            if seek.id >= 0 { sink(.seekDone(id: seek.id, position: clock.seconds, finished: false)) }
            return nil
        }
        control.withLock {
            $0.buffering = true
            $0.seekBuffering = true
        }
        applyCork(true)
        if let replacement { self.input = replacement }
        return replacement
    }

    private func reopen(_ hls: HLSSource, at seconds: Double, like old: MediaInput) throws -> MediaInput {
        let source = hls.restarted(at: seconds)
        var options = MediaInput.OpenOptions()
        options.timeout = config.networkTimeout
        let input = try MediaInput(source: source, name: old.name, options: options)
        // The decoders stay: the streams must be the same ones in the same places.
        guard input.streams.map(\.codecName) == old.streams.map(\.codecName) else {
            throw PlaybackError(.parsing, source: old.name, reason: "the stream changed its tracks")
        }
        input.setDuration(old.duration)
        return input
    }
}
