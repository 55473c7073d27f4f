import Foundation

/// What a `PictureInPictureController` tells its app, as `AVPictureInPictureControllerDelegate`: every method is
/// optional. Main actor.
@MainActor
public protocol PictureInPictureControllerDelegate: AnyObject {
    /// Picture in Picture is about to start: the floating window opens next.
    func pictureInPictureControllerWillStartPictureInPicture(_ controller: PictureInPictureController)
    /// The floating window shows the player; the main window is hidden.
    func pictureInPictureControllerDidStartPictureInPicture(_ controller: PictureInPictureController)
    /// Picture in Picture could not start (no display, no player, a window that would not open).
    func pictureInPictureController(
        _ controller: PictureInPictureController, failedToStartPictureInPictureWithError error: any Error)
    /// Picture in Picture is about to stop.
    func pictureInPictureControllerWillStopPictureInPicture(_ controller: PictureInPictureController)
    /// Picture in Picture stopped: the main window shows the player again.
    func pictureInPictureControllerDidStopPictureInPicture(_ controller: PictureInPictureController)
    /// The person asked to go back to the main window (the restore button, `stopPictureInPicture()`, the main
    /// window shown again): the app restores its interface and calls `completionHandler` (from any thread) with
    /// whether it did. An app that never calls it is waited for `PictureInPictureController.restoreTimeout`, then
    /// the stop goes on and the time-out is logged.
    func pictureInPictureController(
        _ controller: PictureInPictureController,
        restoreUserInterfaceForPictureInPictureStopWithCompletionHandler completionHandler:
            @escaping @Sendable (Bool)
            -> Void)
}

extension PictureInPictureControllerDelegate {
    /// Does nothing.
    public func pictureInPictureControllerWillStartPictureInPicture(_ controller: PictureInPictureController) {}
    /// Does nothing.
    public func pictureInPictureControllerDidStartPictureInPicture(_ controller: PictureInPictureController) {}
    /// Does nothing.
    public func pictureInPictureController(
        _ controller: PictureInPictureController, failedToStartPictureInPictureWithError error: any Error
    ) {}
    /// Does nothing.
    public func pictureInPictureControllerWillStopPictureInPicture(_ controller: PictureInPictureController) {}
    /// Does nothing.
    public func pictureInPictureControllerDidStopPictureInPicture(_ controller: PictureInPictureController) {}
    /// Restores nothing and says it did.
    public func pictureInPictureController(
        _ controller: PictureInPictureController,
        restoreUserInterfaceForPictureInPictureStopWithCompletionHandler completionHandler:
            @escaping @Sendable (Bool)
            -> Void
    ) { completionHandler(true) }
}
