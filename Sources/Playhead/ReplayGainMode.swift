import PlayheadFFmpeg

/// Which loudness correction (ReplayGain) a player gives the items it plays, as mpv's `--replaygain`: a Linux
/// extension (AVFoundation has none). A value type, safe anywhere.
public enum ReplayGainMode: String, Sendable, Hashable, CaseIterable {
    /// None: items play as they are.
    case off
    /// Each track's own gain (its album's when it has only that), so songs of all albums play at one loudness.
    case track
    /// The album's gain (the track's when it has only that), so an album keeps its quiet and loud songs.
    case album

    /// The factor on the sound of an item whose correction is `gain`; nil when none applies (off, or no gain).
    func factor(for gain: ReplayGain?) -> Double? {
        guard self != .off, let gain, let factor = gain.factor(album: self == .album), factor.isFinite, factor > 0
        else { return nil }
        return factor
    }
}
