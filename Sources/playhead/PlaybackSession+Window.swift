import Foundation
import Playhead

/// The video window: opened when the first item with pictures starts (with `--vo=auto`, only where a display is
/// named), showing every item after it; its keys are the terminal's, closing it quits. Main actor.
extension PlaybackSession {
    /// Opens the window for the current item when it has pictures and none is open or being opened.
    func openWindowIfWanted() {
        guard windowState == .none, let item = player.currentItem, wantsWindow(for: item) else { return }
        windowState = .opening
        fittedPicture = item.presentationSize
        let title = windowTitle()
        let video = options.video
        Task { @MainActor [weak self] in
            guard let self else { return }
            do throws(DisplayError) {
                let window = try await PlayerWindow.open(
                    player: player, title: title, width: video.size?.width, height: video.size?.height,
                    position: video.position, fullscreen: video.fullscreen, onTop: video.onTop)
                window.keyHandler = { [weak self] key in self?.handleWindowKey(key) ?? false }
                window.closeHandler = { [weak self] in self?.requestQuit() }
                window.problemHandler = { printError($0) }
                window.displayLostHandler = { [weak self] in
                    self?.windowState = .failed
                    self?.pictureInPicture = nil
                    self?.withdrawWindowFromMPRIS()
                    printError("the display went away: playing on without pictures")
                }
                window.playerLayer.showsSubtitles = !subtitlesHidden
                windowState = .open(window)
                offerWindowOverMPRIS(window)
                let pip = PictureInPictureController(playerWindow: window)
                pip.logHandler = { printError($0) }
                let logger = PictureInPictureLog(log: log)
                // Back from Picture in Picture or fullscreen, the window takes the size of what plays now.
                logger.stopped = { [weak self] in self?.fitWindowToPicture() }
                window.fullscreenChanged = { [weak self] on in self?.windowFullscreenChanged(on) }
                pictureInPictureLog = logger
                pip.delegate = logger
                pictureInPicture = pip
                if video.pictureInPicture { pip.startPictureInPicture() }
                if options.verbose {
                    printError("window: \(window.drawnBy.driver) video, \(window.drawnBy.renderer) renderer")
                }
            } catch {
                windowState = .failed
                printError("\(error.description) (playing without pictures)")
            }
        }
    }

    /// Whether `item` gets a window when none is open: it has pictures, and the options and the display allow one.
    private func wantsWindow(for item: PlayerItem) -> Bool {
        guard !options.noVideo, options.video.output != .null, item.tracks.contains(where: { $0.mediaType == .video })
        else { return false }
        return options.video.output != .auto || PlayerWindow.displayIsNamed
    }

    /// Whether the window shows `item`'s subtitles, or is about to, so that the terminal leaves them out: while it
    /// is open or opening, and, before it is asked for, while `item` is not yet known here to have no pictures (its
    /// tracks and the event that opens the window come after its first cue can, on a loaded machine) and when it
    /// has pictures and will ask for it.
    func windowShowsSubtitles(of item: PlayerItem) -> Bool {
        switch windowState {
        case .open, .opening: return true
        case .failed, .closed: return false
        case .none: return item.status == .unknown || wantsWindow(for: item)
        }
    }

    /// A video of another size than the last one sizes the window for it, as mpv does for each entry of a playlist
    /// (`auto-window-resize`): unless `--geometry` gave a size, the window is fullscreen or in Picture in Picture.
    /// A video of the same size leaves the window as the user made it; an audio entry leaves it alone.
    func fitWindowToPicture() {
        guard case .open(let window) = windowState, options.video.size == nil,
            let size = player.currentItem?.presentationSize, size.width >= 1, size.height >= 1, size != fittedPicture,
            !window.isFullscreen, pictureInPicture?.isPictureInPictureActive != true
        else { return }
        fittedPicture = size
        Task { await window.fit(to: size) }
    }

    /// `i`: into Picture in Picture, or back to the window; without a window, why not.
    func togglePictureInPicture() {
        guard case .open = windowState, let pip = pictureInPicture else {
            return terminal.message(noWindow("Picture in Picture"))
        }
        if pip.isPictureInPictureActive { pip.stopPictureInPicture() } else { pip.startPictureInPicture() }
    }

    /// `f` on the terminal (the window takes its own): fullscreen on or off; without a window, why not.
    func toggleFullscreen() {
        guard case .open(let window) = windowState else { return terminal.message(noWindow("fullscreen")) }
        window.isFullscreen.toggle()
    }

    /// Why `what` cannot be done for want of a window, for the status line.
    func noWindow(_ what: String) -> String {
        switch windowState {
        case .opening: return "\(what): the window is opening"
        case .failed: return "\(what): no window (no display)"
        case .open, .none, .closed:
            // The option that turned the window off, as given.
            let off = [options.video.output == .null ? "--vo=null" : nil, options.noVideo ? "--no-video" : nil]
                .compactMap { $0 }
            if !off.isEmpty { return "\(what): no window (\(off.joined(separator: ", ")))" }
            let hasPictures = player.currentItem?.tracks.contains { $0.mediaType == .video } ?? false
            return hasPictures ? "\(what): no window (no display)" : "\(what): this entry has no pictures"
        }
    }

    /// The window's title for the item playing now.
    func windowTitle() -> String {
        guard let c = current else { return "playhead" }
        return "\(shown(title(of: c.item, slot: c.slot))) - playhead"
    }

    /// Names the new item in the window's title.
    func retitleWindow() {
        if case .open(let window) = windowState { window.title = windowTitle() }
    }

    /// Closes the window (at the end of the session).
    func closeWindow() {
        pictureInPicture?.pictureInPictureWindow?.close()
        pictureInPicture = nil
        if case .open(let window) = windowState { window.close() }
        windowState = .closed
        withdrawWindowFromMPRIS()
    }

    /// MPRIS `Raise` shows the window, `Fullscreen` follows and sets it (`CanRaise`, `CanSetFullscreen` true).
    private func offerWindowOverMPRIS(_ window: PlayerWindow) {
        guard let center = nowPlaying?.nowPlayingInfoCenter else { return }
        center.raiseHandler = { [weak window] in window?.raise() }
        center.fullscreenHandler = { [weak window] on in window?.isFullscreen = on }
        center.isFullscreen = window.isFullscreen
    }

    /// The window went into fullscreen or out: the desktop's controls hear it; out of it, the window takes the size
    /// of what plays now (a video of another size may have started meanwhile).
    private func windowFullscreenChanged(_ on: Bool) {
        if case .open = windowState, let center = nowPlaying?.nowPlayingInfoCenter { center.isFullscreen = on }
        if !on { fitWindowToPicture() }
    }

    private func withdrawWindowFromMPRIS() {
        guard let center = nowPlaying?.nowPlayingInfoCenter else { return }
        center.raiseHandler = nil
        center.fullscreenHandler = nil
        center.isFullscreen = false
    }

    /// A key typed in the window: the terminal's keys, except those the window handles itself (fullscreen).
    private func handleWindowKey(_ key: WindowKey) -> Bool {
        switch key {
        case .character("f"), .escape: return false
        case .character(let c): handle(.char(c))
        case .left: handle(.left)
        case .right: handle(.right)
        case .up: handle(.up)
        case .down: handle(.down)
        case .pageUp: handle(.pageUp)
        case .pageDown: handle(.pageDown)
        case .enter: handle(.char("\n"))
        case .backspace: handle(.char("\u{7F}"))
        }
        return true
    }
}

/// Where the session's window is.
enum WindowState: Equatable {
    case none, opening, failed, closed
    case open(PlayerWindow)

    static func == (a: WindowState, b: WindowState) -> Bool {
        switch (a, b) {
        case (.none, .none), (.opening, .opening), (.failed, .failed), (.closed, .closed): return true
        case (.open(let x), .open(let y)): return x === y
        default: return false
        }
    }
}
