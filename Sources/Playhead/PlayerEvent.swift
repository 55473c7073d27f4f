import PlayheadCore

/// Something that happened in playback, with the monotonic time it happened at (seconds since the process
/// started). The engine stamps events on its own threads, so `timestamp` is exact even though the event reaches
/// the main actor later. A value type, safe anywhere.
public struct PlayerEvent: Sendable {
    /// What happened.
    public enum Kind: Sendable {
        /// The input opened and its streams are known.
        case opened
        /// Enough is buffered: the item is ready to play.
        case ready
        /// The first audio sample was handed to the sound server.
        case firstAudio
        /// The first video frame was presented.
        case firstVideo
        /// A seek to `target` seconds began.
        case seekStarted(target: Double)
        /// A seek ended at `position` seconds; `finished` is false when a later seek superseded it.
        case seekDone(position: Double, finished: Bool)
        /// Playback stalled for lack of data.
        case stalled
        /// Playback resumed after a stall.
        case resumed
        /// The rate changed.
        case rateChanged(Float)
        /// The item played to its end.
        case ended
        /// The player's current item changed (a queue advanced, an item was replaced or removed).
        case currentItemChanged
        /// The item failed.
        case error(PlaybackError)
        /// A video frame was dropped: the picture of `position` seconds (item time) came `late` seconds after its
        /// time with a later one ready (the decoder or the video thread fell behind; it catches up).
        case droppedFrame(position: Double, late: Double)
        /// The sound server ran out of sound while the item played: silence was heard at `position` seconds (item
        /// time) until the player's audio writer caught up (the machine was too busy, or the player stood still).
        /// Not the sound server's underflow as an item's last sound plays, nor one while paused or stalled.
        case audioUnderflow(position: Double)
        /// HLS moved to another variant (its `BANDWIDTH` and resolution), from the next segment on.
        case variantSwitch(bitRate: Int, width: Int, height: Int)
        /// HLS moved to another content steering pathway (`PATHWAY-ID`s; "." for variants without one), from the
        /// next segment on: a steering manifest reordered them, or the pathway playing failed.
        case pathwayChanged(from: String, to: String)
        /// An HLS segment arrived: its size, its transfer time, and the bandwidth estimate after it (bits/s).
        case segmentLoaded(bytes: Int, seconds: Double, estimate: Double)
        /// An HLS segment download (`uri`) was given up, to be fetched from a lower variant: it would not have come
        /// before the buffer ran out.
        case segmentAbandoned(uri: String)
        /// Playback jumped from `from` to `to` seconds without a seek (a live stream's play head fell out of its
        /// window and moved forward).
        case timeJumped(from: Double, to: Double)
    }

    /// What happened.
    public var kind: Kind
    /// Seconds since the process started, on the monotonic clock.
    public var timestamp: Double

    /// An event of `kind` stamped now.
    public init(_ kind: Kind, timestamp: Double = MonotonicClock.now() - MonotonicClock.processStart) {
        self.kind = kind
        self.timestamp = timestamp
    }

    /// The event's name in `--log-json` output ("first-audio", "seek-done"...).
    public var name: String {
        switch kind {
        case .opened: return "opened"
        case .ready: return "ready"
        case .firstAudio: return "first-audio"
        case .firstVideo: return "first-video"
        case .seekStarted: return "seek-started"
        case .seekDone: return "seek-done"
        case .stalled: return "stalled"
        case .resumed: return "resumed"
        case .rateChanged: return "rate-changed"
        case .ended: return "ended"
        case .currentItemChanged: return "item-changed"
        case .error: return "error"
        case .droppedFrame: return "dropped-frame"
        case .audioUnderflow: return "audio-underflow"
        case .variantSwitch: return "variant-switch"
        case .pathwayChanged: return "pathway-change"
        case .segmentLoaded: return "segment-loaded"
        case .segmentAbandoned: return "segment-abandoned"
        case .timeJumped: return "time-jumped"
        }
    }
}
