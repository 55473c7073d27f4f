import PlayheadCore

/// Frame stepping, like `AVPlayerItem.step(byCount:)`: a video item moves by whole pictures, forward or back, each
/// step landing exactly on a picture (mpv's `.` and `,`). Main actor.
extension PlayerItem {
    /// Whether `step(byCount:)` can move forward: the item is ready and plays a video track with a known frame
    /// rate. Main actor.
    public var canStepForward: Bool { status == .readyToPlay && stepDuration != nil }

    /// Whether `step(byCount:)` can move back: as `canStepForward`, in an input that can seek. Main actor.
    public var canStepBackward: Bool { canStepForward && !seekableTimeRanges.isEmpty }

    /// Moves the item's time by `stepCount` pictures of its video track (forward when positive, back when
    /// negative) from the picture on screen, landing exactly on a picture; the rate does not change (pause first
    /// to look at one picture after another). Steps asked before the last one landed go on from where it lands.
    /// Nothing happens when the item is not its player's current item or cannot step that way
    /// (`canStepForward`, `canStepBackward`); the item's first and last pictures bound the steps. Main actor.
    public func step(byCount stepCount: Int) {
        guard stepCount != 0, let player, player.currentItem === self, let frame = stepDuration,
            stepCount > 0 ? canStepForward : canStepBackward
        else { return }
        let from = seekInFlight?.seconds ?? player.engine?.shownPicture.current ?? player.currentTime().seconds
        var target = from + Double(stepCount) * frame
        if duration.isNumeric { target = min(target, duration.seconds - frame * 0.75) }
        target = max(0, target)
        guard abs(target - from) >= frame / 2 else { return }
        player.seek(
            to: MediaTime(seconds: target, preferredTimescale: 90_000), toleranceBefore: .zero, toleranceAfter: .zero)
    }

    /// The length of one picture of the video track that plays; nil without one, or when its rate is unknown.
    private var stepDuration: Double? {
        guard let id = playingTracks[.video], let track = tracks.first(where: { $0.trackID == id }),
            track.nominalFrameRate > 0
        else { return nil }
        return 1 / Double(track.nominalFrameRate)
    }
}

/// Which rates the item plays at, like `AVPlayerItem`'s `canPlay...` properties: forward from 0.25 to 4 times,
/// pitch kept; never in reverse. Main actor.
extension PlayerItem {
    /// Whether rates above 1 play (up to 4): a ready item with a duration (a live stream has no future to hurry
    /// into). Main actor.
    public var canPlayFastForward: Bool { status == .readyToPlay && duration.isNumeric }

    /// Whether rates between 0 and 1 play (down to 0.25): any ready item. Main actor.
    public var canPlaySlowForward: Bool { status == .readyToPlay }

    /// Whether a rate of -1 plays: never (Playhead does not play backwards). Main actor.
    public var canPlayReverse: Bool { false }

    /// Whether rates between -1 and 0 play: never. Main actor.
    public var canPlaySlowReverse: Bool { false }

    /// Whether rates below -1 play: never. Main actor.
    public var canPlayFastReverse: Bool { false }
}
