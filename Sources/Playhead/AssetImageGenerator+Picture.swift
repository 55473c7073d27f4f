import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadVideo

extension ImageGeneratorWorker {
    /// The picture `request` asks for, decoded from the keyframe before its time: that keyframe when the tolerance
    /// before allows it (the default), else the picture shown at the time (the last one at or before it, whose
    /// time may be up to a frame earlier: `actualTime` says), else, for a time before the first picture, the first
    /// one when the tolerance after allows it. Queue only.
    func picture(_ request: Request, from input: Opened, name: String, cancelled: () -> PlaybackError?)
        throws(PlaybackError) -> VideoFrame
    {
        let t = max(0, request.seconds)
        let before = request.before.isNumeric ? max(0, request.before.seconds) : .infinity
        let after = request.after.isNumeric ? max(0, request.after.seconds) : .infinity
        try input.source.seek(to: t)
        input.decoder.flush()
        let track = input.track
        let frameDuration = track.stream.frameRate > 0 ? 1 / track.stream.frameRate : 0.04
        var last: VideoFrame?
        var chosen: VideoFrame?
        var done = false
        // A picture within half a millisecond of the time is the one shown at it.
        let slack = 0.0005
        func take(_ frame: Frame) -> Bool {
            let seconds = frame.pts.map { track.seconds($0) } ?? t
            var picture = VideoFrame(frame: frame, time: MediaTime(seconds: seconds, preferredTimescale: 90_000))
            picture.rotation = track.stream.rotation
            if last == nil, t - seconds <= before {
                // The keyframe will do.
                chosen = picture
            } else if seconds <= t + slack {
                last = picture
            } else if let shown = last {
                chosen = shown
            } else if seconds - t <= after {
                chosen = picture
            }
            done = chosen != nil || seconds > t + slack
            return !done
        }
        var samples = 0
        while !done {
            if let error = cancelled() { throw error }
            switch try input.source.read() {
            case .sample(let sample) where sample.track == track.id:
                samples += 1
                // A damaged packet is skipped, as in playback: the next one may decode.
                try? input.decoder.decode(sample.packet, take)
            case .sample, .cues:
                samples += 1
                if samples > 100_000 { done = true }
            case .interrupted, .gap: continue
            case .end:
                try? input.decoder.decode(nil, take)
                done = true
            }
        }
        // The end: the last picture shows on through its own duration.
        if chosen == nil, let shown = last, t - shown.time.seconds <= max(before, frameDuration) { chosen = shown }
        guard let chosen else {
            throw PlaybackError(
                .decoding, source: name, reason: "no picture within the tolerance of \(String(format: "%.3f", t)) s")
        }
        return chosen
    }
}
