import Foundation
import PlayheadCore
import PlayheadVideo

extension PlaybackEngine {
    /// Where this period's pictures are, kept between its turns on the player's video thread. Presenter's thread
    /// only.
    struct VideoProgress {
        /// The generation of the last picture shown (a seek's first picture is shown at once).
        var shownGeneration = -1
        /// The time of the last picture shown, in seconds of the item.
        var lastShown = 0.0
        /// Whether the period's first picture was shown (`.firstVideo` sent).
        var firstPosted = false
        /// An item taken from the frame queue whose turn ended before it was shown: the next turn starts with it.
        var held: FrameQueue.Item?
    }

    /// Whether this period has pictures to show: its video is decoded and has not ended in this generation. Any
    /// thread.
    var wantsVideoTurn: Bool { control.withLock { $0.presentsVideo && !$0.videoEnded && !$0.stopping } }

    /// Whether this period shows subtitles (its input has a text track, closed captions included). Any thread.
    var wantsTextTurn: Bool { control.withLock { $0.presentsText && !$0.stopping } }

    /// Tells the player's presenters that whose turn it is may have changed. Any engine thread.
    func presentersChanged() {
        config.videoPresenter?.changed()
        config.textPresenter?.changed()
    }

    /// Wakes this period's turn on a presenter's thread, wherever it waits (the clock, the frame queue), so it
    /// looks whether it is still its turn. Any thread.
    func wakeForPresenter() {
        wake()
        frameQueue.kickTaker()
    }

    /// This period's turn on the player's video thread: shows each picture when the clock reaches it, dropping
    /// pictures that are already late, until the turn passes (`PeriodPresenter.isTurn`): after its last picture,
    /// or when the period stops. A picture taken and not yet shown when the turn passes is kept for the next turn.
    func presentVideoTurn(_ presenter: PeriodPresenter) {
        guard let media = info, let v = media.video else { return }
        let frameDuration = v.stream.frameRate > 0 ? 1 / v.stream.frameRate : 0.04
        while !isStopping {
            let token = frameQueue.takeToken()
            guard presenter.isTurn(of: self) else { return }
            let taken: FrameQueue.Item?
            if let held = videoProgress.held {
                videoProgress.held = nil
                taken = held
            } else {
                taken = frameQueue.take(since: token)
            }
            guard let item = taken else { continue }
            let current = control.withLock { $0.generation }
            switch item {
            case .end(let g):
                guard g == current else { continue }
                // The last picture stays for its own duration (a container's duration may overstate a
                // truncated file).
                if !config.untimed {
                    var until = videoProgress.lastShown + frameDuration
                    if media.duration.isNumeric { until = min(until, media.duration.seconds) }
                    // The clock stops at the item's end time (`setLimit`): waiting past it would never end.
                    if let end = endSeconds { until = min(until, end) }
                    // The audio clock stops at the last sample: do not wait past the end of the sound.
                    let reached = waitUntil(until, generation: g, presenter: presenter) { $0.audioEnded }
                    if !reached {
                        if keep(item, generation: g) { return }
                        continue
                    }
                }
                control.withLock { $0.videoEnded = true }
                if media.audioStream == nil || !config.decodeAudio { completeSeek(at: clock.seconds, generation: g) }
                checkEnded()
            case .frame(let frame, let g):
                guard g == current else { continue }
                if !videoProgress.firstPosted && !waitForFirstPicture(media, generation: g, presenter: presenter) {
                    if keep(item, generation: g) { return }
                    continue
                }
                let t = frame.time.seconds
                // A generation's first picture is shown at once, before its time, so that a player that starts or
                // is paused has it on screen; but not one that lies further ahead of the sound's clock than
                // `firstPictureLead`: it belongs to later content (a pre-roll of sound alone, a recording whose
                // pictures start late), and the screen stays empty until it is due.
                let ahead = t - clock.mediaSeconds
                let soundLeads = media.audioStream != nil && config.decodeAudio && ahead > Self.firstPictureLead
                let first = videoProgress.shownGeneration != g && !soundLeads
                if !first && !config.untimed {
                    if !waitUntil(t, generation: g, showing: frame, presenter: presenter) {
                        if keep(item, generation: g) { return }
                        continue
                    }
                    // Late by more than a frame and a newer frame is ready: drop this one.
                    let late = clock.mediaSeconds - t
                    if late > max(frameDuration, 0.04), case .frame? = frameQueue.peek() {
                        sink(.droppedFrame(position: t, late: late))
                        continue
                    }
                }
                show(frame, generation: g, first: first, media: media)
            }
        }
    }

    /// How far ahead of the sound's clock a generation's first picture may be shown before its time (1 s): an
    /// MPEG-TS file's pictures start a few frames after its sound, a pre-roll of sound alone seconds before them.
    static let firstPictureLead = 1.0

    /// After a wait that did not reach its time: keeps `item` for the next turn when the turn passed with the
    /// generation unchanged (true: the turn returns); false when a seek or stop made it stale (it is dropped).
    private func keep(_ item: FrameQueue.Item, generation: Int) -> Bool {
        let stale = control.withLock { $0.generation != generation || $0.stopping }
        if stale { return false }
        videoProgress.held = item
        return true
    }

    private func show(_ frame: VideoFrame, generation g: Int, first: Bool, media: MediaInfo) {
        let t = frame.time.seconds
        videoProgress.shownGeneration = g
        videoProgress.lastShown = t
        shownPicture.withLock { $0 = t }
        video.present(frame)
        config.playerVideo?.present(frame)
        if !videoProgress.firstPosted {
            videoProgress.firstPosted = true
            sink(.firstVideo)
        }
        if first && (media.audioStream == nil || !config.decodeAudio) {
            clock.reset(to: t)
            completeSeek(at: t, generation: g)
        }
    }

    /// Tells the renderers which picture waits for its time (nil: none), for windows that ask for the picture
    /// due at their next refresh. A preloaded engine's pictures are not the player's yet. Video thread.
    private func announce(_ frame: VideoFrame?) {
        video.setUpcoming(frame)
        if control.withLock({ $0.active }) { config.playerVideo?.setUpcoming(frame) }
    }

    /// A preloaded engine shows its first picture only once active and, when it follows another item's sound, once
    /// that sound has given way to its own; false when a seek, a stop or the end of the turn came first.
    private func waitForFirstPicture(_ media: MediaInfo, generation: Int, presenter: PeriodPresenter) -> Bool {
        let followsAudio = !config.startsActive && media.audioStream != nil && config.decodeAudio
        while !isStopping {
            let token = wakeToken()
            let (g, active, moving) = control.withLock { ($0.generation, $0.active, $0.rate != 0 && !$0.buffering) }
            if g != generation || !presenter.isTurn(of: self) { return false }
            if active && !followsAudio { return true }
            let due = active ? clock.secondsUntilHeard : nil
            if let due, due <= 0 { return true }
            // Inactive: `activate()` wakes us. Active, before our first sound is written: its write wakes us. Once
            // written, it is heard within the output's latency: sleep until then (a pause or stall stops the output,
            // and the command that ends it wakes us).
            waitForWake(since: token, seconds: moving ? due.map { max($0, 0.001) } : nil)
        }
        return false
    }

    /// Waits until the clock reaches `seconds` or `done` holds; false when a seek, a stop or the end of the turn
    /// came first. While the clock moves, `frame` (the picture waited for) is announced as the next one to windows
    /// that ask ahead of time; while it stands, none is: a paused window's refresh shows the picture on screen.
    private func waitUntil(
        _ seconds: Double, generation: Int, showing frame: VideoFrame? = nil, presenter: PeriodPresenter,
        unless done: (Control) -> Bool = { _ in false }
    ) -> Bool {
        var announced = false
        defer { if announced { announce(nil) } }
        while !isStopping {
            let token = wakeToken()
            // The clock is read before the generation: a seek moves the clock after it changes the generation, so
            // a clock already at the seek's target is never taken for this generation's (a stale picture shown).
            let ahead = seconds - clock.mediaSeconds
            let (g, finished, rate, moving) = control.withLock {
                ($0.generation, done($0), $0.rate, $0.active && !$0.buffering)
            }
            if g != generation || !presenter.isTurn(of: self) { return false }
            if finished { return true }
            if ahead <= 0.002 { return true }
            let runs = rate > 0 && moving
            if let frame, runs != announced {
                announce(runs ? frame : nil)
                announced = runs
            }
            // Sleep until the frame is due; a seek, a rate change, a stall's end or a stop wakes us early. While
            // the clock stands (paused, stalled, not yet active) nothing is due: sleep until woken.
            waitForWake(since: token, seconds: runs ? min(max(ahead / rate, 0.001), 0.5) : nil)
        }
        return false
    }
}
