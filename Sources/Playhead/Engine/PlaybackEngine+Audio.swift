import Foundation
import PlayheadAudio
import PlayheadCore
import PlayheadFFmpeg

extension PlaybackEngine {
    /// One turn of this period on the renderer's thread: decode, resample to the output format, drop what an exact
    /// seek skips, time-stretch, apply volume, and write to the output, leaving clock marks, for as long as the
    /// period owns the output and is not stopping. It returns when the output passed to the next period (at this
    /// one's end) or was taken away, or the engine stops; after this period's end it sleeps in the packet queue
    /// until a seek brings packets again.
    func renderAudioTurn() {
        guard let work = audioWork, let output = config.audioOutput, let media = info else { return }
        let format = config.format
        // The holes in the sound filled with silence (`AudioPipeline.follow`).
        let shortest =
            media.video == nil ? AudioPipeline.shortestSilenceFilledInSound : AudioPipeline.shortestSilenceFilled
        let longest =
            media.placesSamples ? AudioPipeline.longestPlacedSilenceFilled : AudioPipeline.longestSilenceFilled
        while !isStopping, ownsOutput {
            syncGeneration(&work.pipeline, work.decoder, output)
            if audioQueue.isEmpty && !audioQueue.reachedEnd { noteStarving(audioQueue) }
            // Nil: the engine stops, or the renderer asks the turn to end (another period plays).
            guard let tagged = audioQueue.take() else { continue }
            noteTaken(media)
            // A packet of an older seek is stale; one of a newer seek than ours means adopting that seek first.
            if tagged.generation < control.withLock({ $0.generation }) { continue }
            syncGeneration(&work.pipeline, work.decoder, output)
            if tagged.generation != work.pipeline.generation { continue }
            switch tagged.item {
            case .packet(let packet, _):
                do {
                    try work.decoder.decode(packet) { frame in
                        noteDecoded(&work.decodedAny)
                        trimPadding(frame, work.track.stream, media)
                        let t = frame.pts.map { work.track.seconds($0) }
                        let before = work.pipeline.samples.count
                        try work.pipeline.resampler.convert(frame, into: &work.pipeline.samples)
                        // Where the first sound of a generation belongs: an exact seek's target, else the first
                        // picture's time.
                        let start =
                            work.pipeline.nextInputTime != nil
                            ? nil : work.pipeline.dropBefore ?? control.withLock { $0.firstVideoSeconds }
                        let hole = work.pipeline.follow(
                            t, pendingBefore: before / format.channels, startingAt: start, holes: shortest...longest,
                            format: format)
                        if hole > 0 { fillHole(hole, after: before / format.channels, &work.pipeline, output: output) }
                        if deliver(&work.pipeline, output: output, final: false) && !work.firstAudioPosted {
                            work.firstAudioPosted = true
                            sink(.firstAudio)
                        }
                        return !isStopping
                    }
                } catch {
                    // A damaged packet is skipped, as every player does.
                }
            case .switchAudio(let next):
                // Another track from the next sample written on: the output keeps what it holds (no flush, no
                // gap), the new track's samples before that point are dropped.
                work.decoder = next.decoder
                work.track = next.track
                work.pipeline.resampler.reset()
                work.pipeline.samples.removeAll(keepingCapacity: true)
                work.pipeline.tempo = nil
                work.pipeline.nextInputTime = nil
                work.pipeline.dropBefore = work.pipeline.nextOutputTime
            case .gap(_, let until):
                // Nothing comes before `until` (a live part lost): silence to there now, written as the output
                // takes it, so the samples after it find the sound waiting for them, not stalled.
                let pending = work.pipeline.samples.count / format.channels
                let hole = work.pipeline.follow(
                    until, pendingBefore: pending, startingAt: nil, holes: 0...longest, format: format)
                if hole > 0 { fillHole(hole, after: pending, &work.pipeline, output: output) }
            case .endOfStream:
                try? work.decoder.decode(nil) { frame in
                    noteDecoded(&work.decodedAny)
                    try work.pipeline.resampler.convert(frame, into: &work.pipeline.samples)
                    return true
                }
                work.pipeline.resampler.drain(into: &work.pipeline.samples)
                _ = deliver(&work.pipeline, output: output, final: true)
                finishAudio(output, generation: work.pipeline.generation)
            }
        }
    }

    /// MP4 marks the encoder padding of an AAC (or ALAC, Opus) track's last frame by giving its packet a shorter
    /// duration than the frame holds (FFmpeg trims the priming through the edit list, not the padding): keep
    /// only the samples the packet's duration covers, so a track split from a continuous recording ends exactly.
    /// The frame's own rate counts: a later part of an HLS stream may have another than the track began with.
    private func trimPadding(_ frame: Frame, _ stream: StreamInfo, _ media: MediaInfo) {
        guard media.isMP4Family, frame.duration > 0, frame.sampleRate > 0 else { return }
        let samples = Int(stream.seconds(frame.duration) * Double(frame.sampleRate) + 0.5)
        frame.keepSamples(samples)
    }

    private func syncGeneration(_ p: inout AudioPipeline, _ decoder: Decoder, _ output: any AudioOutput) {
        let (g, target) = control.withLock { ($0.generation, $0.exactTarget) }
        guard g != p.generation else { return }
        // The first generation needs no flush: what the output holds is the sound of the item before (a gapless
        // join's tail, or nothing: the renderer flushes what a stopped period leaves).
        let seeked = p.generation != -1
        p.generation = g
        p.dropBefore = target
        decoder.flush()
        p.resampler.reset()
        p.tempo = nil
        p.nextInputTime = nil
        p.nextOutputTime = nil
        p.samples.removeAll(keepingCapacity: true)
        p.wroteSinceSeek = false
        if seeked, ownsOutput {
            withOutput {
                output.flush()
                output.resumeWrites()
            }
        }
    }

    /// Drops samples before an exact seek's target, stretches, scales and writes `p.samples`; returns whether
    /// anything was written.
    func deliver(_ p: inout AudioPipeline, output: any AudioOutput, final: Bool) -> Bool {
        let format = config.format
        let ch = format.channels
        guard var time = p.nextInputTime else {
            p.samples.removeAll(keepingCapacity: true)
            return false
        }
        let frames = p.samples.count / ch
        let dropBefore = p.dropBefore
        let (rate, volume) = control.withLock { c in
            c.applyGainChanges(upTo: time)
            return (c.rate == 0 ? 1 : c.rate, c.muted ? Float(0) : c.volume * c.gain)
        }
        p.nextInputTime = time + Double(frames) / Double(format.sampleRate)
        var start = 0
        if let target = dropBefore, time < target {
            start = min(frames, Int(((target - time) * Double(format.sampleRate)).rounded()))
            time += Double(start) / Double(format.sampleRate)
            if start == frames {
                p.samples.removeAll(keepingCapacity: true)
                return false
            }
        }
        p.dropBefore = nil
        var count = frames
        if let end = endSeconds {
            // Samples at or after the item's end time are not played.
            count = max(start, min(frames, start + Int(((end - time) * Double(format.sampleRate)).rounded())))
            if count == start {
                p.samples.removeAll(keepingCapacity: true)
                return false
            }
        }
        if p.nextOutputTime == nil { p.nextOutputTime = time }
        let speed = abs(rate - 1) < 0.001 ? 1.0 : rate
        var out: [Float]
        if speed == 1 && p.tempo == nil {
            out = start == 0 && count == frames ? p.samples : Array(p.samples[(start * ch)..<(count * ch)])
        } else {
            do {
                if p.tempo?.tempo != speed {
                    p.tempo = try TempoFilter(tempo: speed, sampleRate: format.sampleRate, channels: ch)
                }
                p.stretched.removeAll(keepingCapacity: true)
                try p.samples.withUnsafeBufferPointer { all in
                    let part = UnsafeBufferPointer(rebasing: all[(start * ch)..<(count * ch)])
                    try p.tempo?.process(part, flush: final, into: &p.stretched)
                }
            } catch {
                let why = PlaybackError.words(for: error)
                fail(PlaybackError(.decoding, source: info?.name ?? "", reason: "changing the speed failed: \(why)"))
                p.samples.removeAll(keepingCapacity: true)
                return false
            }
            out = p.stretched
            if speed == 1 { p.tempo = nil }
        }
        p.samples.removeAll(keepingCapacity: true)
        if volume != 1 { for i in out.indices { out[i] *= volume } }
        return write(out, &p, output: output, speed: speed)
    }

    private func write(_ out: [Float], _ p: inout AudioPipeline, output: any AudioOutput, speed: Double) -> Bool {
        let ch = config.format.channels
        var offset = 0
        let startTime = p.nextOutputTime!
        let total = out.count / ch
        guard total > 0 else { return false }
        while offset < total {
            // The check and the mark are one step: a seek's generation change (and its clock reset) comes either
            // before both or after both, so stale audio never leaves a mark.
            let current = control.withLock { c -> Bool in
                guard !c.stopping, c.generation == p.generation else { return false }
                clock.mark(frame: output.writePosition, seconds: p.nextOutputTime!, speed: speed)
                return true
            }
            if !current { return false }
            let n: Int
            do {
                let written = try withOutput {
                    try out.withUnsafeBufferPointer {
                        try output.write(UnsafeBufferPointer(rebasing: $0[(offset * ch)...]))
                    }
                }
                guard let written else { return false }
                n = written
            } catch let error as PlaybackError {
                fail(error)
                return false
            } catch {
                return false
            }
            p.nextOutputTime! += Double(n) / Double(config.format.sampleRate) * speed
            offset += n
            if n == 0 {
                // Interrupted by a seek or stop, or a spurious wake: look again.
                if isStopping || control.withLock({ $0.generation }) != p.generation { return false }
                withOutput { output.resumeWrites() }
            }
        }
        if !p.wroteSinceSeek {
            p.wroteSinceSeek = true
            completeSeek(at: startTime, generation: p.generation)
            // The video thread of an item that follows another's sound waits for this first mark to be heard.
            wake()
        }
        return true
    }

    /// At the end of the stream: hand the output to the next period, or let it play out and report the end.
    private func finishAudio(_ output: any AudioOutput, generation: Int) {
        // A seek to the end (or past the last sample) wrote nothing: it is done where the clock stands, the end.
        completeSeek(at: clock.seconds, generation: generation)
        setBuffering(false)
        control.withLock { $0.audioFinishing = generation }
        if handOff(output, generation: generation) { return }
        while !isStopping && control.withLock({ $0.generation }) == generation {
            let token = wakeToken()
            let playing = control.withLock { $0.rate != 0 && !$0.buffering }
            if playing {
                let drained = withOutput {
                    if output.drain() { return true }
                    output.resumeWrites()
                    return false
                }
                if drained != false { break }
            }
            // A drain interrupted by a pause (or a seek) waits for the command that ends the pause.
            waitForWake(since: token, seconds: playing ? 0.01 : nil)
        }
        guard !isStopping, control.withLock({ $0.generation }) == generation else { return }
        // Read and applied under the cork lock, as a cork is: a pause between the two must not leave it running.
        corkLock.withLock {
            let (running, rate) = control.withLock { ($0.rate != 0 && !$0.buffering, $0.rate) }
            clock.audioDidFinish(at: clock.mediaSeconds, running: running, rate: rate == 0 ? 1 : rate)
        }
        control.withLock { $0.audioEnded = true }
        checkEnded()
    }
}
