import PlayheadCore

/// Where the media read has reached against the duration its container or playlist declared. A declared duration
/// can be short: FFmpeg estimates an MP3 without a Xing header from its first frames' bit rate (a 30 s VBR file
/// was "13.9 s"), and an HLS playlist's `EXTINF`s may understate its segments. The media plays to its real end
/// either way (`MediaClock.declaredEnd` caps only the position reported); the item's duration grows with what is
/// read past it, so the position is not held at the declared end while the rest plays. Demux thread.
struct ReadReach {
    /// The duration the item has now (seconds): the declared one, or as far as the media was read past it; nil
    /// when none was declared (a live stream, a pipe).
    var duration: Double?
    /// The time of the last sample of a played track read in this generation (nil after a seek).
    var last: Double?
    /// The furthest time read past `duration`, waiting to be posted.
    var furthest = 0.0

    init(declared: MediaTime) {
        duration = declared.isNumeric && declared.seconds > 0 ? declared.seconds : nil
    }
}

extension PlaybackEngine {
    /// How far past the item's duration the media must be read before the duration grows: less is rounding, and
    /// more would post an event for every packet.
    static let durationStep = 1.0
    /// The longest step forward between two samples read that counts as the media going on: a longer one is a
    /// broken time stamp or a jump in them, which must not make the item hours long.
    static let longestReadStep = 5.0

    /// Notes a sample of a played track read at item time `t`: once the media read has gone `durationStep` past
    /// the item's duration, the duration becomes that time (the clock reports up to it, the player is told).
    func noteRead(_ t: Double, _ reach: inout ReadReach) {
        defer { reach.last = t }
        guard let duration = reach.duration, let last = reach.last, t > last, t - last < Self.longestReadStep,
            t > duration
        else { return }
        reach.furthest = max(reach.furthest, t)
        if reach.furthest >= duration + Self.durationStep { grow(&reach) }
    }

    /// The source read to its end: the furthest time read past the duration (by more than rounding: the last
    /// packet's start may lie a little past a duration declared to the millisecond) is the item's duration.
    func noteReadToEnd(_ reach: inout ReadReach) {
        if let duration = reach.duration, reach.furthest > duration + 0.1 { grow(&reach) }
    }

    private func grow(_ reach: inout ReadReach) {
        reach.duration = reach.furthest
        clock.setDeclaredEnd(reach.furthest)
        sink(.durationChanged(reach.furthest))
    }
}
