import Foundation
import PlayheadCore
import PlayheadFFmpeg

extension DemuxerSource {
    /// After a seek to `target`, makes sure reading starts at or before the video keyframe that leads to it: in a
    /// container without an index (MPEG-TS, MPEG-PS) FFmpeg searches time stamps and lands on any packet before
    /// the target, often after that keyframe, so the first picture decoded was the next keyframe's, up to a group
    /// of pictures late (mpv and ffplay show the same). Reads on to the first keyframe of the video track played;
    /// when it is after the target, seeks earlier (by the overshoot plus a second, then twice as far each time)
    /// and looks again. The packets read on the way are given next (`pushedBack`). Demux thread.
    func landBeforeKeyframe(of target: Double) throws(FFmpegError) {
        guard let video = playedVideo else { return }
        let slack = video.stream.frameRate > 0 ? 0.5 / video.stream.frameRate : 0.02
        var from = target
        var back = 0.0
        while true {
            var read: [Packet] = []
            let key = firstKeyframe(of: video, after: target, reading: &read)
            guard let key, key > target + slack, from > 0 else {
                pushedBack = read
                return
            }
            back = back == 0 ? key - target + 1 : back * 2
            from = max(target - back, 0)
            try input.seek(toSeconds: from + input.startSeconds)
        }
    }

    /// The video track the engine plays, if any (not a cover picture).
    private var playedVideo: MediaTrack? {
        tracks.first { $0.kind == .video && !$0.stream.isAttachedPicture && chosen.contains($0.id) }
    }

    /// The time of the first keyframe of `video` read from here; nil at the end, at an error, or when none comes
    /// before any track's time passes `target` by 30 s (or in 5000 packets). Every packet read is added to `read`.
    private func firstKeyframe(of video: MediaTrack, after target: Double, reading read: inout [Packet]) -> Double? {
        while read.count < 5000 {
            guard let packet = try? input.readPacket() else { return nil }
            read.append(packet)
            guard let track = track(packet.streamIndex), let ts = packet.pts ?? packet.dts else { continue }
            let seconds = track.seconds(ts)
            if track.id == video.id && packet.isKeyframe { return seconds }
            if seconds > target + 30 { return nil }
        }
        return nil
    }
}
