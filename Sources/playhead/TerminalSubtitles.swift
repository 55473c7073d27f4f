import Playhead
import PlayheadSubtitles
import Synchronization

/// The subtitles `playhead` shows under its status line when no window shows them, as mpv's terminal OSD does:
/// the text of the cues active now, on one line. Told by the items' text threads (any thread); read by the status
/// line on the main actor.
final class TerminalSubtitles: LegibleOutput {
    private let line = Mutex("")

    /// The active cues' text, each cue's lines and the cues joined by " / ". Any thread.
    func show(_ cues: [SubtitleCue], at time: MediaTime) {
        let text = cues.map { cue in
            cue.parsedText.plainText.split(whereSeparator: \.isNewline).joined(separator: " / ")
        }.joined(separator: " / ")
        line.withLock { $0 = text }
    }

    /// What shows now ("" for nothing). Any thread.
    var current: String { line.withLock { $0 } }
}
