import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadSubtitles

extension PlaybackEngine {
    /// Demux thread: keeps the cue a text sample carries; a new cue wakes the text thread, which may have to show
    /// it sooner than it planned.
    func takeText(_ sample: MediaSample, reader: TextCueReader, track: MediaTrack) {
        guard let start = sample.seconds else { return }
        let duration = sample.packet.duration > 0 ? track.stream.seconds(sample.packet.duration) : 0
        guard let cue = reader.cue(sample.packet, start: start, duration: duration) else { return }
        if let end = endSeconds, cue.startTime >= end { return }
        if text.add(cue) { wake() }
    }

    /// Demux thread: keeps cues parsed by Playhead (a subtitle file read whole at its open, an HLS WebVTT segment).
    func showKnown(_ cues: [SubtitleCue]) {
        var added = false
        for cue in cues where endSeconds.map({ cue.startTime < $0 }) ?? true {
            added = text.add(cue) || added
        }
        if added { wake() }
    }

    /// This period's turn on the player's text thread: shows the cues active at the clock's time on the text
    /// outputs, sleeping until the active set next changes while time moves, and until a command (play, seek,
    /// activation) or a new cue while it stands; until the turn passes (`PeriodPresenter.isTurn`: the queued
    /// period became active, or this one stops).
    func presentTextTurn(_ presenter: PeriodPresenter) {
        while !isStopping {
            let token = wakeToken()
            let (running, rate, delay) = control.withLock { c in (c.rate != 0 && !c.buffering, c.rate, c.textDelay) }
            // A preloaded item shows nothing before it plays: its turn comes once it is active.
            guard presenter.isTurn(of: self) else { return }
            // The cues' own time, `delay` behind the clock.
            let now = clock.seconds - delay
            let next = text.update(at: now, delay: delay)
            if running, let next {
                // Media time passes at the rate; waking early only looks again (at most 50 times a second while the
                // clock stands without a stall: before the first sound is heard, or while the server is away).
                waitForWake(since: token, seconds: max((next - now) / abs(rate), 0.02))
            } else {
                waitForWake(since: token)
            }
        }
    }
}
