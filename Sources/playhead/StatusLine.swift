import Playhead

/// The terminal status line: state, elapsed / duration, progress bar, buffering, speed, volume. Main actor.
@MainActor
enum StatusLine {
    /// The line, its progress bar `bar` columns wide (none when 0 or less), with the chapter playing (`chapter`,
    /// "ch 2/5") after the percentage; a live stream's distance is counted from `liveEdge` (item seconds) when
    /// given (`LiveEdgeEstimate`), else from its window's end.
    static func render(
        player: Player, item: PlayerItem, bar: Int = 24, chapter: String? = nil, liveEdge: Double? = nil
    ) -> String {
        let now = player.currentTime().seconds
        let duration = item.duration.isNumeric ? item.duration.seconds : .nan
        let state: String
        switch player.timeControlStatus {
        case .playing: state = "▶"
        case .paused: state = "⏸"
        case .waitingToPlayAtSpecifiedRate: state = "⏳"
        }
        var line = "\(state) \(clockString(now)) / \(clockString(duration))"
        if duration.isFinite && duration > 0 {
            if bar > 0 {
                let filled = Int((now / duration * Double(bar)).rounded(.down))
                line += " [" + String(repeating: "=", count: max(0, min(bar, filled)))
                line += String(repeating: "-", count: max(0, bar - max(0, filled))) + "]"
            }
            line += " \(Int(100 * min(1, now / duration)))%"
        }
        if let chapter { line += " \(chapter)" }
        if !item.duration.isNumeric, item.status == .readyToPlay, let window = item.seekableTimeRanges.last {
            // A live stream: how far behind the point it would start at (not an on-demand playlist whose duration
            // is not known yet: its window comes before its duration).
            let edge = liveEdge ?? window.end.seconds
            line += " live -\(Int(max(0, edge - now).rounded()))s"
        }
        if player.reasonForWaitingToPlay == .toMinimizeStalls { line += " buffering" }
        if player.isInterruptedByAudioSession { line += " interrupted" }
        if let range = item.loadedTimeRanges.first {
            let ahead = range.end.seconds - now
            if ahead.isFinite && ahead > 0 { line += " (+\(Int(ahead))s)" }
        }
        if let period = item.accessLog.last {
            let size = period.resolution.width > 0 ? "\(period.resolution) " : ""
            line += " \(size)\(megabits(period.indicatedBitrate))"
            if period.estimatedBitrate > 0 { line += " est \(megabits(period.estimatedBitrate))" }
        }
        line += " x" + String(format: "%.2f", player.defaultRate)
        line += player.isMuted ? " muted" : " vol \(Int((player.volume * 100).rounded()))"
        return line
    }

    static func megabits(_ bitsPerSecond: Double) -> String { String(format: "%.1f Mb/s", bitsPerSecond / 1e6) }
}
