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
            let found = firstKeyframe(of: video, after: target, reading: &read)
            // Read on from the keyframe found at or before the target; from here when the video has no picture near
            // (it ended before the target). Otherwise the keyframe before the target is further back (none came
            // before the end of the file, or the next came after the target).
            let key: Double
            switch found {
            case .keyframe(let seconds) where seconds > target + slack: key = seconds
            case .none(sawPictures: true): key = target
            default: key = -.infinity
            }
            guard key > -.infinity, from > 0 else {
                pushedBack = read
                return
            }
            back = back == 0 ? key - target + 1 : back * 2
            from = max(target - back, 0)
            try input.seek(toSeconds: from + input.startSeconds)
        }
    }

    /// What reading on after a seek found of the video track.
    private enum Found {
        /// A keyframe, at this time.
        case keyframe(Double)
        /// None before the end, an error, or any track's time passing the target by 30 s (or 5000 packets); and
        /// whether a picture of the track came.
        case none(sawPictures: Bool)
    }

    /// The video track the engine plays, if any (not a cover picture).
    private var playedVideo: MediaTrack? {
        tracks.first { $0.kind == .video && !$0.stream.isAttachedPicture && chosen.contains($0.id) }
    }

    /// Reads on to the first keyframe of `video`; every packet read is added to `read`.
    private func firstKeyframe(of video: MediaTrack, after target: Double, reading read: inout [Packet]) -> Found {
        var sawPictures = false
        while read.count < 5000 {
            guard let packet = try? input.readPacket() else { break }
            read.append(packet)
            guard let track = track(packet.streamIndex), let ts = packet.pts ?? packet.dts else { continue }
            let seconds = track.seconds(ts)
            if track.id == video.id {
                if packet.isKeyframe { return .keyframe(seconds) }
                sawPictures = true
            }
            if seconds > target + 30 { break }
        }
        return .none(sawPictures: sawPictures)
    }
}
