import Foundation
import Observation
import PlayheadCore
import PlayheadVideo

/// Picture in Picture for a `PlayerWindow`, as `AVPictureInPictureController`: the window's player moves into a
/// small floating window (borderless, above other windows, in a corner of the screen, a quarter of its width,
/// the picture's aspect ratio, dragged anywhere, resized from its edges) and the main window hides; stopping
/// brings the main window back where it was and the player into it. The player is never paused, sought, reopened
/// or given a new decoder by either move (its outputs attach at any time), and never started either; closing the
/// floating window pauses it, as on iOS, unless the person asked to restore.
///
/// Main actor; observable (`isPictureInPictureActive`, `isPictureInPicturePossible`).
@MainActor @Observable
public final class PictureInPictureController {
    /// Why Picture in Picture could not start, in one line.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What failed and why.
        public let description: String
    }

    /// The corner of the screen the floating window goes to.
    public enum Corner: String, Sendable, CaseIterable {
        /// Top left.
        case topLeft
        /// Top right.
        case topRight
        /// Bottom left.
        case bottomLeft
        /// Bottom right, the default.
        case bottomRight
    }

    /// The main window, whose player goes into Picture in Picture.
    public let playerWindow: PlayerWindow
    /// Told of every start and stop.
    @ObservationIgnored public weak var delegate: (any PictureInPictureControllerDelegate)?
    /// Whether the floating window shows the player now.
    public internal(set) var isPictureInPictureActive = false
    /// Start Picture in Picture by itself when the main window is minimized or hidden while its player plays
    /// (never while paused), and stop it (restoring) when the main window shows again.
    public var canStartPictureInPictureAutomaticallyFromInline = false
    /// How long a stop waits for the delegate's restore completion handler before it goes on (and logs it).
    public var restoreTimeout: Duration = .seconds(5)
    /// Called with a one-line message for what the app should know but nothing failed for (a restore handler
    /// never called).
    @ObservationIgnored public var logHandler: ((String) -> Void)?
    /// The floating window while Picture in Picture is active.
    public internal(set) var pictureInPictureWindow: PlayerWindow?
    /// The floating window's width as a fraction of the screen's usable width (0.1 to 1; 0.25 by default).
    public var widthFraction = 0.25 {
        didSet { widthFraction = widthFraction.isFinite ? min(1, max(0.1, widthFraction)) : 0.25 }
    }

    var transitioning = false
    /// Whether a start or a stop is under way (tests wait for it to settle).
    package var transitioningForTests: Bool { transitioning }
    @ObservationIgnored var mainPlacement: VideoWindow.Placement?
    /// The screen's usable size when the floating window opened (for the corner it is left nearest to).
    @ObservationIgnored var screenSize = CGSize.zero
    @ObservationIgnored var visibilityToken: UUID?

    /// Whether this process can show Picture in Picture: a display is named (`DISPLAY` or `WAYLAND_DISPLAY`) and
    /// has not gone away. Any thread.
    public nonisolated static func isPictureInPictureSupported() -> Bool {
        PlayerWindow.displayIsNamed && !PlayerWindow.displayWasLost
    }

    /// Whether `startPictureInPicture()` would start now: supported, the main window open with a player that has
    /// an item, and Picture in Picture not already active or changing.
    public var isPictureInPicturePossible: Bool {
        Self.isPictureInPictureSupported() && !playerWindow.isClosed && playerWindow.player?.currentItem != nil
            && !isPictureInPictureActive && !transitioning
    }

    /// A controller for `playerWindow`. The window's Picture-in-Picture button starts it unless the app set its
    /// own handler.
    public init(playerWindow: PlayerWindow) {
        self.playerWindow = playerWindow
        if playerWindow.pictureInPictureButtonHandler == nil {
            playerWindow.pictureInPictureButtonHandler = { [weak self] in self?.startPictureInPicture() }
        }
        visibilityToken = playerWindow.addVisibilityObserver { [weak self] visible in
            self?.mainWindowVisibilityChanged(visible)
        }
    }

    /// A controller let go while active gives the player back to the main window and shows it.
    isolated deinit {
        if let visibilityToken { playerWindow.removeVisibilityObserver(visibilityToken) }
        guard let floating = pictureInPictureWindow else { return }
        playerWindow.pictureInPictureCopy = nil
        if !playerWindow.isClosed {
            playerWindow.player = floating.player
            playerWindow.show()
        }
        floating.player = nil
        floating.close()
    }

    /// Starts Picture in Picture; the delegate hears how it went (`failedToStart...` with a `Failure` when it
    /// cannot). Nothing when already active.
    public func startPictureInPicture() {
        guard !isPictureInPictureActive, !transitioning else { return }
        guard Self.isPictureInPictureSupported() else {
            return failToStart("Picture in Picture needs a display: DISPLAY and WAYLAND_DISPLAY are not set")
        }
        guard !playerWindow.isClosed, let player = playerWindow.player, player.currentItem != nil else {
            return failToStart("Picture in Picture needs a window showing a player with an item")
        }
        transitioning = true
        delegate?.pictureInPictureControllerWillStartPictureInPicture(self)
        Task { await self.openFloatingWindow(for: player) }
    }

    /// Stops Picture in Picture, asking the delegate to restore the app's interface (will stop, restore, did
    /// stop). Nothing when not active.
    public func stopPictureInPicture() { stop(restoring: true) }

    func failToStart(_ reason: String) {
        delegate?.pictureInPictureController(self, failedToStartPictureInPictureWithError: Failure(description: reason))
    }

    private func mainWindowVisibilityChanged(_ visible: Bool) {
        guard canStartPictureInPictureAutomaticallyFromInline, !transitioning else { return }
        if !visible, !isPictureInPictureActive, playerWindow.player?.timeControlStatus != .paused {
            startPictureInPicture()
        } else if visible, isPictureInPictureActive {
            stop(restoring: true)
        }
    }
}
