import Foundation
import PlayheadCore
import PlayheadVideo

/// Moving the player into the floating window and back. Main actor.
extension PictureInPictureController {
    /// The gap between the floating window and the screen's edges.
    static let margin = 16

    /// The floating window's title for a main window titled `title`.
    static func title(for title: String) -> String { "\(title) (Picture in Picture)" }

    func openFloatingWindow(for player: Player) async {
        guard let screen = await VideoWindow.usableScreenSize() else {
            transitioning = false
            return failToStart("Picture in Picture: the display does not answer")
        }
        screenSize = screen
        mainPlacement = await playerWindow.placement()
        let size = player.currentItem?.presentationSize ?? .zero
        let picture = size.width >= 1 && size.height >= 1 ? size.width / size.height : 16.0 / 9.0
        let aspect = min(max(picture, 0.1), 10)
        let width = max(160, Int((Double(screen.width) * widthFraction).rounded()))
        let height = max(90, Int((Double(width) / aspect).rounded()))
        let corner = Self.preferredCorner
        let x = corner == .topLeft || corner == .bottomLeft ? Self.margin : Int(screen.width) - width - Self.margin
        let y = corner == .topLeft || corner == .topRight ? Self.margin : Int(screen.height) - height - Self.margin
        let floating: PlayerWindow
        do {
            floating = try await PlayerWindow.open(
                player: nil, title: Self.title(for: playerWindow.title), width: width, height: height,
                position: (max(0, x), max(0, y)), onTop: true, floating: true)
        } catch {
            transitioning = false
            return failToStart("Picture in Picture: \(error)")
        }
        floating.isFloating = true
        Self.keepButtonsClickable(floating, size: floating.size)
        floating.closeHandler = { [weak self] in self?.stop(restoring: false) }
        floating.pictureInPictureButtonHandler = { [weak self] in self?.stop(restoring: true) }
        floating.keyHandler = playerWindow.keyHandler
        floating.fullscreenWhileFloating = { [weak self] in self?.stop(restoring: true, fullscreen: true) }
        // Resized from an edge, it keeps the picture's aspect ratio: the height follows the width.
        floating.addSizeObserver { [weak floating] w, h in
            guard let floating else { return }
            let fitting = max(1, Int((Double(w) / aspect).rounded()))
            if abs(fitting - h) > 1 { floating.resize(width: w, height: fitting) }
            Self.keepButtonsClickable(floating, size: floating.size)
        }
        // The floating window shows the player before the main window lets it go: it is never without an output.
        floating.player = player
        playerWindow.player = nil
        playerWindow.hide()
        pictureInPictureWindow = floating
        playerWindow.pictureInPictureCopy = floating
        isPictureInPictureActive = true
        transitioning = false
        delegate?.pictureInPictureControllerDidStartPictureInPicture(self)
    }

    /// Tells the floating window where its buttons are (a press there is a click, elsewhere a drag).
    static func keepButtonsClickable(_ floating: PlayerWindow, size: CGSize) {
        var state = ControlsState()
        state.isFloating = true
        floating.window.setClickableAreas(ControlsLayout(size: size, state: state).buttons.map(\.rect))
    }

    /// Ends Picture in Picture: the main window shows again where it was, with the player; with `restoring` the
    /// delegate restores the app's interface (waited for up to `restoreTimeout`), without it (the floating window
    /// was closed) the player pauses; with `fullscreen` (the key f or a double click in the floating window) the main
    /// window comes back covering the screen.
    func stop(restoring: Bool, fullscreen: Bool = false) {
        guard isPictureInPictureActive, !transitioning, let floating = pictureInPictureWindow else { return }
        transitioning = true
        delegate?.pictureInPictureControllerWillStopPictureInPicture(self)
        let player = floating.player
        if !restoring { player?.pause() }
        Task {
            if let placement = await floating.placement() { Self.remember(placement, on: self.screenSize) }
            self.playerWindow.player = player
            self.playerWindow.pictureInPictureCopy = nil
            floating.player = nil
            floating.close()
            self.playerWindow.show()
            if let p = self.mainPlacement {
                self.playerWindow.move(x: p.x, y: p.y)
                self.playerWindow.resize(width: p.width, height: p.height)
            }
            if fullscreen { self.playerWindow.isFullscreen = true }
            self.pictureInPictureWindow = nil
            if restoring { await self.askToRestore() }
            self.isPictureInPictureActive = false
            self.transitioning = false
            self.delegate?.pictureInPictureControllerDidStopPictureInPicture(self)
        }
    }

    /// Asks the delegate to restore the app's interface and waits for its answer, at most `restoreTimeout`.
    private func askToRestore() async {
        guard let delegate else { return }
        let answered = Locked<CheckedContinuation<Bool, Never>?>(nil)
        let timeout = restoreTimeout
        let restored = await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            answered.withLock { $0 = continuation }
            let finish: @Sendable (Bool) -> Void = { ok in
                answered.withLock { c in
                    c?.resume(returning: ok)
                    c = nil
                }
            }
            delegate.pictureInPictureController(
                self, restoreUserInterfaceForPictureInPictureStopWithCompletionHandler: finish)
            Task {
                try? await Task.sleep(for: timeout)
                let waiting = answered.withLock { c -> Bool in
                    guard let pending = c else { return false }
                    pending.resume(returning: false)
                    c = nil
                    return true
                }
                if waiting {
                    await MainActor.run {
                        self.logHandler?(
                            "Picture in Picture: the app did not finish restoring its interface within \(timeout); going on"
                        )
                    }
                }
            }
        }
        _ = restored
    }
}

/// The corner the floating window went to last, kept between runs in `$XDG_STATE_HOME/playhead/pip-corner`
/// (`~/.local/state` without it). Main actor.
extension PictureInPictureController {
    nonisolated static var cornerFile: URL {
        let env = ProcessInfo.processInfo.environment
        let state =
            env["XDG_STATE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? ((env["HOME"] ?? NSHomeDirectory()) + "/.local/state")
        return URL(fileURLWithPath: state).appendingPathComponent("playhead/pip-corner")
    }

    /// The corner the floating window opens in: where the person left it last (kept between runs), bottom right
    /// when none was kept or the file holds anything else. Setting it keeps the new corner. Any thread.
    public nonisolated static var preferredCorner: Corner {
        get {
            guard let data = try? Data(contentsOf: cornerFile), data.count < 64,
                let text = String(data: data, encoding: .utf8),
                let corner = Corner(rawValue: text.trimmingCharacters(in: .whitespacesAndNewlines))
            else { return .bottomRight }
            return corner
        }
        set {
            let file = cornerFile
            try? FileManager.default.createDirectory(
                at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try? Data((newValue.rawValue + "\n").utf8).write(to: file, options: .atomic)
        }
    }

    /// Keeps the corner of `screen` nearest to where the floating window is now.
    nonisolated static func remember(_ placement: VideoWindow.Placement, on screen: CGSize) {
        guard screen.width >= 1, screen.height >= 1 else { return }
        let left = Double(placement.x + placement.width / 2) < screen.width / 2
        let top = Double(placement.y + placement.height / 2) < screen.height / 2
        preferredCorner = top ? (left ? .topLeft : .topRight) : (left ? .bottomLeft : .bottomRight)
    }
}
