import Foundation
import PlayheadCore

/// A seek whose target the packet queues already hold (a user's seek a little ahead, within the forward buffer),
/// carried out in them: what waits before the target's keyframe is dropped, the rest is decoded again as the
/// seek's, and the source reads on from where it was. Nothing is read twice: over the network nothing is
/// downloaded again (every such seek asked the origin for the target's segment again, and waited for it), and an
/// input that cannot seek (a pipe) seeks that far, as mpv's demuxer cache lets it. A value type of the demux thread.
struct SeekWithinBuffer {
    /// The seek it is for.
    var id: Int
    /// The queues it starts in, held, and the index each starts at.
    var starts: [(queue: PacketQueue, index: Int)]
    /// The time of the video keyframe it starts at (`Control.firstVideoSeconds`).
    var videoStart: Double?
}

extension PlaybackEngine {
    /// For the user's seek that waits (not the start position, not a jump the source asked for), when the queues
    /// hold its target (`starts`): the queues, held until `takeSeekWithinBuffer` or `release`, and where each
    /// starts. Nil, with nothing held, otherwise (a seek back, a target past what is buffered, an audio switch under
    /// way, a read an earlier seek interrupted: `Control.readInterrupted`). Demux thread.
    func holdForSeekWithinBuffer(_ state: ReadState) -> SeekWithinBuffer? {
        guard state.catchingUp.isEmpty, let seek = control.withLock({ $0.readInterrupted ? nil : $0.pendingSeek }),
            seek.id >= 0
        else { return nil }
        let fed = fedQueues(state.media)
        for queue in fed { queue.hold() }
        guard let within = starts(of: seek, in: fed) else {
            for queue in fed { queue.release() }
            return nil
        }
        return within
    }

    /// Whether `seek` will likely be carried out in the queues (they may move on before the demux
    /// thread looks): the caller's thread, as the seek is asked for. Such a seek does not interrupt the read under
    /// way, which can lose the packet it was reading (FFmpeg's MP4 demuxer counts it read), a loss a seek in the
    /// source makes up for and one within the buffer would not.
    func seemsWithinBuffer(_ seek: SeekRequest) -> Bool {
        guard let media = info else { return false }
        return starts(of: seek, in: fedQueues(media)) != nil
    }

    /// The queues the chosen audio and video tracks are read into, video first (the sound starts no later than its
    /// keyframe).
    private func fedQueues(_ media: MediaInfo) -> [PacketQueue] {
        [(media.video, videoQueue), (media.audio, audioQueue)].filter { $0.0 != nil }.map(\.1)
    }

    /// Where `seek` starts in `queues`, when each holds packets from a start at or before where the seek reads from
    /// (a keyframe for video; the sound from no later than that keyframe, as a seek in the source would read it) to
    /// its target; nil otherwise.
    private func starts(of seek: SeekRequest, in queues: [PacketQueue]) -> SeekWithinBuffer? {
        guard !queues.isEmpty else { return nil }
        var from = seek.exact ? max(0, seek.seconds - Self.exactSeekLead) : seek.seconds
        var within = SeekWithinBuffer(id: seek.id, starts: [], videoStart: nil)
        for queue in queues {
            let video = queue === videoQueue
            guard let start = queue.start(at: from, reaching: seek.seconds, keyframes: video) else { return nil }
            within.starts.append((queue, start.index))
            if video {
                within.videoStart = start.seconds
                from = min(from, start.seconds)
            }
        }
        return within
    }

    /// Carries out `within` in its held queues, in the seek's `generation`, and lets the decoders take again.
    /// Demux thread, after the generation changed and `performSeek` emptied the frame queue and moved the clock.
    func takeSeekWithinBuffer(_ within: SeekWithinBuffer, generation: Int) {
        for (queue, index) in within.starts { queue.keep(from: index, generation: generation) }
        control.withLock { $0.firstVideoSeconds = within.videoStart }
        for (queue, _) in within.starts { queue.release() }
    }

    /// Gives `within` up, its queues as they were (a newer seek came first, or a stop). Demux thread.
    func release(_ within: SeekWithinBuffer) {
        for (queue, _) in within.starts { queue.release() }
    }
}
