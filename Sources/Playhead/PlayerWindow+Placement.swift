import Foundation
import PlayheadVideo

/// Where the window is and how it shows: for apps that lay out their windows, and for Picture in Picture.
/// Main actor.
extension PlayerWindow {
    /// The window's position, size and state as the display reads it now; nil once it is closed.
    public func placement() async -> VideoWindow.Placement? {
        guard !isClosed else { return nil }
        return await window.placement()
    }

    /// Moves the window's top-left corner to `x`, `y` on the screen.
    public func move(x: Int, y: Int) { window.move(x: x, y: y) }

    /// Sets the window's size in window coordinates.
    public func resize(width: Int, height: Int) { window.resize(width: width, height: height) }

    /// Sizes the window for a picture of `size` as `open` does: at the picture's size, scaled down to fit 90 % of
    /// the screen, about the same centre, moved as little as keeps it on the screen (a window that kept its corner
    /// grew off the screen). Nothing happens without a display.
    public func fit(to size: Size) async {
        guard size.width >= 1, size.height >= 1, let screen = await VideoWindow.usableScreenSize() else { return }
        let fitted = VideoGeometry.windowSize(
            for: CGSize(width: size.width, height: size.height),
            within: CGSize(width: screen.width * 0.9, height: screen.height * 0.9))
        if let now = await placement() {
            let centre = (x: now.x + now.width / 2, y: now.y + now.height / 2)
            let x = min(max(0, centre.x - fitted.width / 2), max(0, Int(screen.width) - fitted.width))
            let y = min(max(0, centre.y - fitted.height / 2), max(0, Int(screen.height) - fitted.height))
            move(x: x, y: y)
        }
        resize(width: fitted.width, height: fitted.height)
    }

    /// Hides the window (it keeps its size and place); the player plays on.
    public func hide() { window.hide() }

    /// Shows the window again, or restores it from minimized, at its size and place.
    public func show() { window.show() }

    /// Minimizes the window; the player plays on.
    public func minimize() { window.minimize() }

    /// Calls `observer` with false when the window is hidden or minimized and true when it shows again, until
    /// the returned token is passed to `removeVisibilityObserver`.
    func addVisibilityObserver(_ observer: @escaping (Bool) -> Void) -> UUID {
        let token = UUID()
        visibilityObservers[token] = observer
        return token
    }

    func removeVisibilityObserver(_ token: UUID) { visibilityObservers[token] = nil }

    /// Calls `observer` with the window's size (window coordinates) after each resize, for the window's life.
    func addSizeObserver(_ observer: @escaping (Int, Int) -> Void) {
        sizeObservers[UUID()] = observer
    }
}
