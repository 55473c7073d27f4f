import Foundation
import PlayheadCore

extension PlayerItem {
    /// The serial queue the item notifications are posted from, in the order the player asked for them. Like
    /// AVFoundation, which posts them from its own threads: an observer added with `queue: .main` then runs on the
    /// main queue whatever keeps it turning (`dispatchMain()`, `RunLoop.main.run()`, an async `main`). Posted from
    /// the main actor, this platform's Foundation would wait on `OperationQueue.main` for the block it had just
    /// queued behind itself, and under `dispatchMain()` wait forever.
    nonisolated static let notificationQueue = DispatchQueue(label: "playhead.item-notifications", qos: .userInitiated)

    /// Posts `name` on `NotificationCenter.default` with the item as its object (and `error` as
    /// `userInfo["error"]`), from `notificationQueue` (main actor; returns at once). An observer with `queue: nil`
    /// runs on that queue, so it must hop to the main actor before it touches the player.
    func postNotification(_ name: Notification.Name, error: PlaybackError? = nil) {
        Self.post(name, object: self, error: error)
    }

    /// Queues the post (any thread); built outside the main actor so the block is not main-actor isolated.
    nonisolated private static func post(_ name: Notification.Name, object: PlayerItem, error: PlaybackError?) {
        notificationQueue.async {
            NotificationCenter.default.post(name: name, object: object, userInfo: error.map { ["error": $0] })
        }
    }
}
