import Foundation
import Playhead

/// Rule 9 as an app writes it: `didPlayToEndTimeNotification` observed with `queue: .main`, and the handler loops
/// the item with `seek(to: .zero)` and `play()`. Prints one line per end ("ended N object=item queue=main"), then,
/// a second after the third end, "done ends=N" and exits 0; exits 3 when the ends stop coming (a deadlock).
/// Main actor (the observer's block runs on the main queue).
@MainActor
public final class Looper {
    /// The player looping `item`.
    let player = Player()
    /// The item played from the file.
    let item: PlayerItem
    /// The end notifications seen so far.
    var ends = 0
    /// The end notification's observer token.
    var observer: (any NSObjectProtocol)?

    /// A looper for the file at `path`, on the null audio output (main actor).
    public init(path: String) {
        item = PlayerItem(url: URL(fileURLWithPath: path))
        player.audioOutputChoice = .null(untimed: false)
    }

    /// Starts playing and watching (main actor); a watchdog thread ends the process after `limit` seconds.
    public func start(limit: Double) {
        observer = NotificationCenter.default.addObserver(
            forName: PlayerItem.didPlayToEndTimeNotification, object: nil, queue: .main
        ) { [self] note in
            let sameItem = note.object as AnyObject? === item
            // Traps (and the program dies) unless the block runs on the main queue. Not `Thread.isMainThread`:
            // under dispatchMain() the main queue is drained by another thread.
            MainActor.assumeIsolated { ended(sameItem: sameItem) }
        }
        player.replaceCurrentItem(with: item)
        player.play()
        Looper.watchdog(limit)
    }

    /// One end notification (main actor): counts it, and loops the item until the third.
    /// One end notification (main actor): counts it, and loops the item until the third.
    private func ended(sameItem: Bool) {
        ends += 1
        print("ended \(ends) object=\(sameItem ? "item" : "other") queue=main")
        fflush(nil)
        guard ends < 3 else {
            DispatchQueue.main.asyncAfter(deadline: .now() + 1) { [self] in
                MainActor.assumeIsolated { print("done ends=\(ends)") }
                exit(0)
            }
            return
        }
        player.seek(to: .zero)
        player.play()
    }

    /// Exits with status 3 after `seconds` (a thread of its own: the main queue may be the one stuck).
    nonisolated static func watchdog(_ seconds: Double) {
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: seconds)
            print("timed out")
            fflush(nil)
            exit(3)
        }
    }
}
