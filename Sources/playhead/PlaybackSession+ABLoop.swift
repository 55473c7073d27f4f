import Foundation
import Playhead

/// The A-B loop of the current item (mpv's `l`): the first press marks A, the second B, and the part between plays
/// again and again (playback that reaches B goes back to A) until the third press or another item. Main actor.
struct ABLoop {
    /// The item it belongs to.
    weak var item: PlayerItem?
    /// Where the loop starts, in item seconds.
    var start: Double
    /// Where it ends, once marked, and the observer that goes back at it.
    var end: (seconds: Double, observer: TimeObserverToken)?
}

extension PlaybackSession {
    /// Marks A, then B, then turns the loop off (`l`).
    func cycleABLoop() {
        guard let item = player.currentItem else { return }
        let now = player.currentTime().seconds
        guard var loop = abLoop, loop.item === item else {
            abLoop = ABLoop(item: item, start: now)
            terminal.message("A-B loop: A at \(clockString(now)); l again marks B")
            return
        }
        guard loop.end == nil else {
            clearABLoop()
            terminal.message("A-B loop off")
            return
        }
        // B before A: the two swap, as the part between is meant.
        let (a, b) = (min(loop.start, now), max(loop.start, now))
        guard b - a >= 0.1 else { return }
        let observer = player.addBoundaryTimeObserver(forTimes: [MediaTime(seconds: b, preferredTimescale: 1000)]) {
            MainActor.assumeIsolated { [weak self] in self?.loopBack() }
        }
        loop.start = a
        loop.end = (b, observer)
        abLoop = loop
        seek(a)
        terminal.message("A-B loop: \(clockString(a)) to \(clockString(b)); l again ends it")
    }

    /// Playback reached B: back to A.
    private func loopBack() {
        guard let loop = abLoop, loop.end != nil, loop.item === player.currentItem else { return }
        seek(loop.start)
    }

    /// Forgets the loop (another item plays, or `l` a third time).
    func clearABLoop() {
        if let observer = abLoop?.end?.observer { player.removeTimeObserver(observer) }
        abLoop = nil
    }
}
