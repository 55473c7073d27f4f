import PlayheadCore

/// An ad (or other interstitial content) on an item's time line, like AVKit's `AVInterstitialTimeRange`, with its
/// seeking policy. A value type, safe anywhere.
public struct InterstitialTimeRange: Sendable, Hashable {
    /// Where the interstitial lies on the item's time line (the time line of `currentTime()` and `duration`).
    public var timeRange: TimeRange
    /// Whether it must be watched, as `AVPlayerViewController.requiresLinearPlayback` is set during a required ad:
    /// until it has been played, a seek that would jump over it or into it lands at its start, and while it plays
    /// every seek is refused. False (the default) only marks the range as an ad (for Now Playing).
    public var requiresLinearPlayback: Bool
    /// The app's name for it (Now Playing's ad identifier).
    public var identifier: String?

    /// An interstitial at `timeRange`, skippable unless `requiresLinearPlayback`.
    public init(timeRange: TimeRange, requiresLinearPlayback: Bool = false, identifier: String? = nil) {
        self.timeRange = timeRange
        self.requiresLinearPlayback = requiresLinearPlayback
        self.identifier = identifier
    }
}

extension PlayerItem {
    /// The interstitials that must be played through and have not been: those that require linear playback and
    /// that the play head has not yet been at or past the end of (as seen by a seek). Main actor.
    func unplayedLinearInterstitials(before position: Double) -> [Range<Double>] {
        interstitialTimeRanges.compactMap { ad -> Range<Double>? in
            let r = ad.timeRange
            guard ad.requiresLinearPlayback, r.isValid, !r.isEmpty, !playedInterstitials.contains(r) else {
                return nil
            }
            return r.end.seconds > position ? r.start.seconds..<r.end.seconds : nil
        }
    }

    /// Where a seek from `position` to `target` (seconds) goes under the interstitial policy: nil refuses it (the
    /// play head is in an unplayed linear interstitial); a forward seek that would jump over or into one lands at
    /// the start of the first; any other seek goes to `target`. Interstitials the play head is at or past the end
    /// of count as played from now on (it can only have passed a linear one by playing it, or by starting after
    /// it). Main actor.
    func interstitialSeekTarget(from position: Double, to target: Double) -> Double? {
        for ad in interstitialTimeRanges where ad.timeRange.isValid && ad.timeRange.end.seconds <= position {
            playedInterstitials.insert(ad.timeRange)
        }
        let unplayed = unplayedLinearInterstitials(before: position)
        if unplayed.contains(where: { $0.contains(position) }) { return nil }
        guard target > position else { return target }
        let first = unplayed.map(\.lowerBound).filter { $0 >= position && $0 < target }.min()
        return first ?? target
    }
}

extension Player {
    /// Whether the person may only watch on: seeking and skipping are refused from every control of this player
    /// (its windows' seek bar and keys, the desktop's media controls through a `NowPlayingSession`, `playhead`'s
    /// keys), as `AVPlayerViewController.requiresLinearPlayback` refuses them in its controls; the app's own
    /// `seek` calls still seek. Set it for a whole item or a moment (a legal notice). It also reads true, whatever
    /// was set, while the play head is in an interstitial that requires linear playback and has not been played
    /// (`PlayerItem.interstitialTimeRanges`); that part follows the clock and is not observable: read it when
    /// needed (a skip command's handler does). Main actor.
    public var requiresLinearPlayback: Bool {
        get { linearPlaybackRequired || isInRequiredInterstitial }
        set { linearPlaybackRequired = newValue }
    }

    /// Whether the play head is in an unplayed interstitial that requires linear playback. Main actor.
    var isInRequiredInterstitial: Bool {
        guard let item = currentItem, !item.interstitialTimeRanges.isEmpty else { return false }
        let position = item.seekInFlight?.seconds ?? currentTime().seconds
        return item.unplayedLinearInterstitials(before: position).contains { $0.contains(position) }
    }
}
