import PlayheadCore
import PlayheadSubtitles

/// Where an item's subtitles go, like `AVPlayerItemLegibleOutput`: a window that draws them, a terminal line, a
/// capture in a test. One item may feed several outputs; add them with `PlayerItem.add(_:)`.
///
/// Threads: `show` is called one call at a time, in time order, when the set of cues active at the play head
/// changes: on the engine's text thread, except the first call of an output attached while cues are showing,
/// which comes at once on the thread that attached it (the main actor). An output must return quickly.
public protocol LegibleOutput: AnyObject, Sendable {
    /// The cues active at `time` (the item's timeline) are now `cues`, in start order; empty: show nothing.
    func show(_ cues: [SubtitleCue], at time: MediaTime)
}

/// An output that draws animated subtitles against the pictures' clock: with the cues it learns how far their time
/// runs behind the item's (`PlayerItem.subtitleDelay`), and hears again when only that changes. Called as
/// `LegibleOutput` is: on the engine's text thread, under the text renderer's lock.
protocol ClockedLegibleOutput: LegibleOutput {
    /// The cues active at `time` (their own time, `delay` seconds behind the item's) are now `cues`.
    func show(_ cues: [SubtitleCue], at time: MediaTime, delay: Double)
}
