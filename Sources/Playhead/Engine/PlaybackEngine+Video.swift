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
        /// The time of the last picture queued in this generation (a picture without a time stamp follows it).
        var last: Double?
        let captions = CaptionCueMaker()
        while !isStopping {
            let g = control.withLock { $0.generation }
            if g != generation {
                generation = g
                last = nil
                decoder.flush()
                if captions.flush(into: text) { wake() }
            }
            if videoQueue.isEmpty && !videoQueue.reachedEnd && info?.audio == nil { noteStarving(videoQueue) }
            guard let tagged = videoQueue.take() else { return }
            noteTaken(media)
            let current = control.withLock { $0.generation }
            if tagged.generation < current { continue }
            if current != generation {
                generation = current
                last = nil
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
                        return queueFrame($0, track, generation, after: &last)
                    }
                } catch {
                    if isStopping { return }
                    // A damaged packet is skipped; the next keyframe recovers.
                }
            case .switchAudio, .gap: continue
            case .endOfStream:
                try? decoder.decode(nil) {
                    noteDecoded(&decodedAny)
                    readCaptions($0, track, captions)
                    return queueFrame($0, track, generation, after: &last)
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
            frame, seconds: track.seconds(pts), duration: duration, shown: shown, into: text, end: endSeconds)
        {
            wake()
        }
    }

    /// Queues a decoded picture at its time; one without a time stamp (a raw H.264 stream has none) a frame after
    /// the `last` one (all were at 0 and were dropped: ten seconds played in a tenth of one).
    private func queueFrame(_ frame: Frame, _ track: MediaTrack, _ generation: Int, after last: inout Double?) -> Bool {
        let frameDuration = track.stream.frameRate > 0 ? 1 / track.stream.frameRate : 0.04
        let seconds = frame.pts.map { track.seconds($0) } ?? last.map { $0 + frameDuration } ?? 0
        last = seconds
        let target = control.withLock { $0.generation == generation ? $0.exactTarget : nil }
        // An exact seek shows the picture whose time holds the target (the last one starting at or before it), as
        // AVPlayer and `AssetImageGenerator` do: not the nearest, which may not be due yet.
        if let target, seconds + frameDuration <= target + 0.0005 { return true }
        if let end = endSeconds, seconds >= end { return true }
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
}
