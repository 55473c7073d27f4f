import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadVideo

extension PlaybackEngine {
    /// The video decode thread: decodes packets into the frame queue, skipping frames before an exact seek's target;
    /// while the text track shown is the video's closed captions, it makes their cues (`CaptionCueMaker`).
    func runVideoDecode(_ decoder: Decoder, track: MediaTrack) {
        guard let media = info else { return }
        var generation = -1
        var decodedAny = false
        let captions = CaptionCueMaker()
        while !isStopping {
            let g = control.withLock { $0.generation }
            if g != generation {
                generation = g
                decoder.flush()
                if captions.flush(into: text) { wake() }
            }
            if videoQueue.isEmpty && !videoQueue.reachedEnd && info?.audio == nil {
                let (buffering, seeking) = control.withLock { ($0.buffering, $0.activeSeek != nil) }
                if !buffering && !seeking { setBuffering(true) }
            }
            guard let tagged = videoQueue.take() else { return }
            noteTaken(media)
            let current = control.withLock { $0.generation }
            if tagged.generation < current { continue }
            if current != generation {
                generation = current
                decoder.flush()
                if captions.flush(into: text) { wake() }
            }
            if tagged.generation != generation { continue }
            switch tagged.item {
            case .packet(let packet, _):
                do {
                    try decoder.decode(packet) {
                        noteDecoded(&decodedAny)
                        readCaptions($0, track, captions)
                        return queueFrame($0, track, generation)
                    }
                } catch {
                    if isStopping { return }
                    // A damaged packet is skipped; the next keyframe recovers.
                }
            case .switchAudio: continue
            case .endOfStream:
                try? decoder.decode(nil) {
                    noteDecoded(&decodedAny)
                    readCaptions($0, track, captions)
                    return queueFrame($0, track, generation)
                }
                // The caption on screen at the end ends with the last picture.
                if captions.flush(into: text) { wake() }
                _ = frameQueue.put(.end(generation: generation))
            }
        }
    }

    /// The captions a decoded picture carries, when the text track shown is its caption track: a change of the
    /// caption on screen wakes the text thread.
    private func readCaptions(_ frame: Frame, _ track: MediaTrack, _ captions: CaptionCueMaker) {
        guard let pts = frame.pts else { return }
        let duration = track.stream.frameRate > 0 ? 1 / track.stream.frameRate : 0.04
        let shown = info?.text
        if captions.take(
            frame, seconds: track.seconds(pts), duration: duration, shown: shown, into: text, end: config.endSeconds)
        {
            wake()
        }
    }

    private func queueFrame(_ frame: Frame, _ track: MediaTrack, _ generation: Int) -> Bool {
        let seconds = frame.pts.map { track.seconds($0) } ?? 0
        let frameDuration = track.stream.frameRate > 0 ? 1 / track.stream.frameRate : 0.04
        let target = control.withLock { $0.generation == generation ? $0.exactTarget : nil }
        if let target, seconds + frameDuration / 2 < target { return true }
        if let end = config.endSeconds, seconds >= end { return true }
        let time = MediaTime(seconds: seconds, preferredTimescale: 90_000)
        while !isStopping {
            if control.withLock({ $0.generation }) != generation { return false }
            var picture = VideoFrame(frame: frame, time: time)
            picture.item = config.item
            picture.rotation = track.stream.rotation
            if frameQueue.put(.frame(picture, generation: generation)) { return true }
        }
        return false
    }

    /// The video thread: shows each frame when the clock reaches it, dropping frames that are already late.
    func runVideoPresent() {
        guard let media = info, let v = media.video else { return }
        let frameDuration = v.stream.frameRate > 0 ? 1 / v.stream.frameRate : 0.04
        var shownGeneration = -1
        var lastShown = 0.0
        var firstPosted = false
        while !isStopping {
            guard let item = frameQueue.take() else { continue }
            let current = control.withLock { $0.generation }
            switch item {
            case .end(let g):
                guard g == current else { continue }
                // The last picture stays for its own duration (a container's duration may overstate a
                // truncated file).
                if !config.untimed {
                    var until = lastShown + frameDuration
                    if media.duration.isNumeric { until = min(until, media.duration.seconds) }
                    // The clock stops at the item's end time (`setLimit`): waiting past it would never end.
                    if let end = config.endSeconds { until = min(until, end) }
                    // The audio clock stops at the last sample: do not wait past the end of the sound.
                    waitUntil(until, generation: g) { $0.audioEnded }
                }
                control.withLock { $0.videoEnded = true }
                if media.audioStream == nil || !config.decodeAudio { completeSeek(at: clock.seconds, generation: g) }
                checkEnded()
            case .frame(let frame, let g):
                guard g == current else { continue }
                if !firstPosted && !waitForFirstPicture(media, generation: g) { continue }
                let t = frame.time.seconds
                let first = shownGeneration != g
                if !first && !config.untimed {
                    if !waitUntil(t, generation: g, showing: frame) { continue }
                    // Late by more than a frame and a newer frame is ready: drop this one.
                    if clock.mediaSeconds - t > max(frameDuration, 0.04), case .frame? = frameQueue.peek() {
                        sink(.droppedFrame)
                        continue
                    }
                }
                shownGeneration = g
                lastShown = t
                video.present(frame)
                config.playerVideo?.present(frame)
                if !firstPosted {
                    firstPosted = true
                    sink(.firstVideo)
                }
                if first && (media.audioStream == nil || !config.decodeAudio) {
                    clock.reset(to: t)
                    completeSeek(at: t, generation: g)
                }
            }
        }
    }

    /// Tells the renderers which picture waits for its time (nil: none), for windows that ask for the picture
    /// due at their next refresh. A preloaded engine's pictures are not the player's yet. Video thread.
    private func announce(_ frame: VideoFrame?) {
        video.setUpcoming(frame)
        if control.withLock({ $0.active }) { config.playerVideo?.setUpcoming(frame) }
    }

    /// A preloaded engine shows its first picture only once active and, when it follows another item's sound, once
    /// that sound has given way to its own; false when a seek or stop came first.
    private func waitForFirstPicture(_ media: MediaInfo, generation: Int) -> Bool {
        let followsAudio = !config.startsActive && media.audioStream != nil && config.decodeAudio
        while !isStopping {
            let token = wakeToken()
            let (g, active, moving) = control.withLock { ($0.generation, $0.active, $0.rate != 0 && !$0.buffering) }
            if g != generation { return false }
            if active && !followsAudio { return true }
            let due = active ? clock.secondsUntilHeard : nil
            if let due, due <= 0 { return true }
            // Inactive: `activate()` wakes us. Active, before our first sound is written: its write wakes us. Once
            // written, it is heard within the output's latency: sleep until then (a pause or stall stops the output,
            // and the command that ends it wakes us).
            waitForWake(since: token, seconds: moving ? due.map { max($0, 0.001) } : nil)
        }
        return false
    }

    /// Waits until the clock reaches `seconds`; false when a seek or stop came first.
    @discardableResult
    /// While the clock moves, `frame` (the picture waited for) is announced as the next one to windows that ask
    /// ahead of time; while it stands, none is: a paused window's refresh shows the picture on screen.
    private func waitUntil(
        _ seconds: Double, generation: Int, showing frame: VideoFrame? = nil,
        unless done: (Control) -> Bool = { _ in false }
    ) -> Bool {
        var announced = false
        defer { if announced { announce(nil) } }
        while !isStopping {
            let token = wakeToken()
            let (g, finished, rate, moving) = control.withLock {
                ($0.generation, done($0), $0.rate, $0.active && !$0.buffering)
            }
            if g != generation { return false }
            if finished { return true }
            let ahead = seconds - clock.mediaSeconds
            if ahead <= 0.002 { return true }
            let runs = rate > 0 && moving
            if let frame, runs != announced {
                announce(runs ? frame : nil)
                announced = runs
            }
            // Sleep until the frame is due; a seek, a rate change, a stall's end or a stop wakes us early. While
            // the clock stands (paused, stalled, not yet active) nothing is due: sleep until woken.
            waitForWake(since: token, seconds: runs ? min(max(ahead / rate, 0.001), 0.5) : nil)
        }
        return false
    }
}
