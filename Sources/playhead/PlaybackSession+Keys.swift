import Foundation
import Playhead

/// Keys, the other controls and the status line. Main actor.
extension PlaybackSession {
    /// Whether anything can resume a pause: the terminal's keys, the window's, or MPRIS (playerctl, the desktop).
    var hasControls: Bool {
        if Terminal.isInteractive || nowPlaying != nil { return true }
        if case .open = windowState { return true }
        return false
    }

    /// A control came or went: with none, the player does not pause for good for what the system did (a pause
    /// nothing can end would hang the command: `cat song.mp3 | playhead --no-mpris -`): it plays on on the device
    /// the server moved its sound to when its audio device goes away, as mpv does, and resumes when an interruption
    /// ends even without advice to.
    func followControls() {
        player.pausesWhenOutputDeviceGoesAway = hasControls
        player.resumesAfterInterruptionWithoutAdvice = !hasControls
    }

    /// Called every 50 ms while playing (`run`'s ticker), and after events and keys: redraws the status line, and
    /// the subtitles under it, each within one line of the terminal (a wrapped line would leave the cursor off the
    /// status line, and each redraw would add a line). Returns what it drew (nil: nothing to draw).
    @discardableResult
    func tick() -> String? {
        guard Terminal.isInteractive, !options.reallyQuiet, let item = player.currentItem else { return nil }
        let columns = max(Terminal.columns - 1, 8)
        let chapter = chapterLabel
        let edge = item.seekableTimeRanges.last.map {
            liveEdge.edge(windowEnd: $0.end.seconds, of: ObjectIdentifier(item))
        }
        var line = StatusLine.render(player: player, item: item, chapter: chapter, liveEdge: edge)
        if let c = current, c.item === item {
            var next = ""
            if let n = player.upNext.first, let slot = slots[ObjectIdentifier(n)] {
                next = " | next: \(Self.short(title(of: n, slot: slot)))"
            }
            let label = c.slot.map(indexLabel)?.trimmingCharacters(in: .whitespaces) ?? ""
            let head = (label.isEmpty ? "" : label + " ") + Self.short(title(of: item, slot: c.slot)) + " "
            line = Self.fit(head: head, next: next, columns: columns) {
                StatusLine.render(player: player, item: item, bar: $0, chapter: chapter, liveEdge: edge)
            }
        }
        let subtitles =
            subtitlesHidden || windowShowsSubtitles(of: item) ? "" : Self.short(terminalSubtitles.current, columns)
        let shown = TerminalWidth.truncate(line, to: columns)
        terminal.status(shown, below: subtitles)
        return shown + "\n" + subtitles
    }

    /// The status line within `columns`: `head` (the entry's label and title), the playback status `status(bar)`
    /// renders with a progress bar `bar` columns wide, and `next` (what plays next). What gives way, in turn: the bar
    /// (down to 8 columns), what plays next, the bar (none), the title (down to 8 columns, then none).
    static func fit(head: String, next: String, columns: Int, status: (Int) -> String) -> String {
        let bare = status(0)
        let used = TerminalWidth.columns(head + bare)
        // " [" and "]" around the bar.
        let withNext = used + 3 + TerminalWidth.columns(next)
        if withNext + 8 <= columns { return head + status(min(24, columns - withNext)) + next }
        if used + 3 + 8 <= columns { return head + status(min(24, columns - used - 3)) }
        let room = columns - TerminalWidth.columns(bare) - 1
        guard room >= 8 else { return bare }
        return TerminalWidth.truncate(head.trimmingCharacters(in: .whitespaces), to: room) + " " + bare
    }

    static func short(_ s: String, _ limit: Int = 28) -> String {
        TerminalWidth.truncate(terminalSafe(s), to: limit)
    }

    func handle(_ key: Terminal.Key) {
        let now = player.currentTime().seconds
        switch key {
        case .char(" "), .char("p"): player.rate == 0 ? player.play() : player.pause()
        case .char("q"), .char("Q"): requestQuit()
        case .char(">"), .char("\n"), .char("\r"): playNextEntry()
        case .char("<"), .char("\u{7F}"), .char("\u{08}"): playPreviousEntry()
        case .left: seek(now - 5)
        case .right: seek(now + 5)
        case .up: seek(now + 60)
        case .down: seek(now - 60)
        case .pageDown: seekChapter(forward: true)
        case .pageUp: seekChapter(forward: false)
        case .char("l"): cycleABLoop()
        case .char("z"): changeSubtitleDelay(by: -0.1)
        case .char("x"): changeSubtitleDelay(by: 0.1)
        case .char("."): stepFrame(1)
        case .char(","): stepFrame(-1)
        case .char("["): changeSpeed(by: 1 / 1.1)
        case .char("]"): changeSpeed(by: 1.1)
        case .char("9"): player.volume = max(0, player.volume - 0.05)
        case .char("0"): player.volume = min(1, player.volume + 0.05)
        case .char("m"): player.isMuted.toggle()
        case .char("#"): cycleSound()
        case .char("j"): cycleSubtitles()
        case .char("v"): toggleSubtitles()
        case .char("s"): takeScreenshot()
        case .char("i"): togglePictureInPicture()
        case .char("f"): toggleFullscreen()
        default: break
        }
        tick()
        Terminal.requestRedraw()
    }

    /// Plays the item's next playable sound track (an HLS stream's next audio rendition), from where it is, and
    /// names it on the terminal.
    private func cycleSound() {
        guard let item = player.currentItem else { return }
        Task { @MainActor [weak self] in
            guard let group = try? await item.asset.loadMediaSelectionGroup(for: .audible) else { return }
            let playable = group.options.filter(\.isPlayable)
            guard playable.count > 1 else {
                self?.terminal.message("only one sound track")
                return
            }
            let now = item.currentMediaSelection.selectedMediaOption(in: group)
            let index = now.flatMap { playable.firstIndex(of: $0) } ?? -1
            let next = playable[(index + 1) % playable.count]
            item.select(next, in: group)
            self?.terminal.message("sound: \(next.displayName)")
        }
    }

    /// Shows the item's next subtitle track (after the last: none), from where it is, and names it.
    private func cycleSubtitles() {
        guard let item = player.currentItem else { return }
        Task { @MainActor [weak self] in
            guard let group = try? await item.asset.loadMediaSelectionGroup(for: .legible) else {
                self?.terminal.message("no subtitles")
                return
            }
            let playable = group.options.filter(\.isPlayable)
            let now = item.currentMediaSelection.selectedMediaOption(in: group)
            let index = now.flatMap { playable.firstIndex(of: $0) } ?? -1
            let next: MediaSelectionOption? = index + 1 < playable.count ? playable[index + 1] : nil
            item.select(next, in: group)
            self?.terminal.message("subtitles: \(next?.displayName ?? "none")")
        }
    }

    /// Hides or shows the subtitles drawn in the window.
    /// Hides the subtitles, or shows them again: in the window, and under the status line (key v).
    private func toggleSubtitles() {
        subtitlesHidden.toggle()
        if case .open(let window) = windowState { window.playerLayer.showsSubtitles = !subtitlesHidden }
        terminal.message("subtitles \(subtitlesHidden ? "hidden" : "shown")")
        tick()
    }

    /// Shows the subtitles of every item a tenth of a second earlier (`by` -0.1) or later, as mpv's z and x.
    private func changeSubtitleDelay(by step: Double) {
        subtitleDelay = min(3600, max(-3600, ((subtitleDelay + step) * 10).rounded() / 10))
        for item in player.items() { item.subtitleDelay = subtitleDelay }
        terminal.message(String(format: "subtitle delay: %+.1f s", subtitleDelay))
    }

    /// Pauses and shows the next picture (`count` 1) or the one before (-1), as mpv's `.` and `,`.
    private func stepFrame(_ count: Int) {
        guard let item = player.currentItem, count > 0 ? item.canStepForward : item.canStepBackward else {
            terminal.message("no pictures to step through")
            return
        }
        player.pause()
        item.step(byCount: count)
    }

    private func changeSpeed(by factor: Double) {
        let r = min(4, max(0.25, Double(player.defaultRate) * factor))
        player.defaultRate = Float(r)
        if player.rate != 0 { player.rate = Float(r) }
    }

    /// Seeks exactly, unless the player requires linear playback now (`Player.requiresLinearPlayback`) or the input
    /// cannot seek (a pipe, a server without byte ranges, a live stream without a window), which is said. A
    /// keyframe seek landed on the keyframe before the target: with keyframes 10 s apart, +5 s went back to 0,
    /// every time.
    func seek(_ seconds: Double) {
        guard !player.requiresLinearPlayback else { return }
        if let item = player.currentItem, item.status == .readyToPlay, item.seekableTimeRanges.isEmpty {
            terminal.message("cannot seek in this input (a pipe, or a server that does not serve byte ranges)")
            return
        }
        player.seek(
            to: MediaTime(seconds: max(0, seconds), preferredTimescale: 1000), toleranceBefore: .zero,
            toleranceAfter: .zero)
    }
}
