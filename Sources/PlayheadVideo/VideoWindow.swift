import CSDL2
import Foundation
import PlayheadCore
import PlayheadSubtitles

/// Why a window could not be opened. A value type, safe on any thread.
public struct DisplayError: Error, Sendable, CustomStringConvertible {
    /// One line: what failed and why (SDL's own reason).
    public let description: String
}

/// An SDL window on the desktop that shows pictures: a `VideoOutput` that any player or layer presents to, drawn
/// by the process's display thread with the picture's aspect ratio (`gravity`) on a background colour, and the
/// person's input reported through `onEvent`.
///
/// Pictures go to the GPU as YUV textures (I420, NV12) and are converted to RGB there; other formats are converted
/// by swscale. A window nobody holds closes.
///
/// Threads: any. `present` only hands the picture over and wakes the display thread, which draws it; the
/// window's event handler and `onPictureShown` run on the display thread and must return quickly.
public final class VideoWindow: VideoOutput, @unchecked Sendable {
    struct State {
        var pending: VideoFrame?
        var shown: VideoFrame?
        var needsDraw = false
        /// Take the picture off the screen at the next draw (the background shows).
        var clearPicture = false
        /// The subtitle cues to show over the picture.
        var cues: [SubtitleCue] = []
        /// The cues' own time when they were handed over (nil: not known), and how far it runs behind the
        /// pictures' (the subtitle delay): an animated ASS event is drawn at each picture's time less the delay.
        var cueClock: (at: Double?, delay: Double) = (nil, 0)
        /// The player controls to show over the picture and the subtitles, nil for none.
        var controls: ControlsState?
        /// What the app draws over the video, below the controls; `contentVersion` counts its changes.
        var content: OverlayImage?
        var contentVersion = 0
        var gravity = VideoGravity.resizeAspect
        /// The part of the window pictures and subtitles go in (drawable pixels); nil for all of it.
        var videoArea: CGRect?
        var background: (UInt8, UInt8, UInt8) = (0, 0, 0)
        var drawableSize = CGSize.zero
        var title = ""
        var fullscreen = false
        var closed = false
        var onEvent: (@Sendable (WindowEvent) -> Void)?
        var onPictureShown: (@Sendable (VideoFrame) -> Void)?
        var picturesShown = 0
        var picturesReplaced = 0
    }
    let state = Locked(State())
    /// The window's SDL ID (0 once closed).
    let id: UInt32
    /// The video driver and the renderer drawing the window ("x11" and "opengl", "wayland" and "software"...).
    public let drawnBy: (driver: String, renderer: String)

    private init(id: UInt32, size: CGSize, title: String, fullscreen: Bool, drawnBy: (String, String)) {
        self.id = id
        self.drawnBy = drawnBy
        state.withLock {
            $0.drawableSize = size
            $0.title = title
            $0.fullscreen = fullscreen
        }
    }

    deinit {
        guard !state.current.closed else { return }
        let id = id
        DisplayThread.shared.submit(starting: false) { display in display?.remove(id: id) }
    }

    /// Opens a window of `width` x `height` (window coordinates) titled `title`, at `position` (nil: where the
    /// window manager puts it), in desktop fullscreen when `fullscreen`, above other windows when `onTop`. Waits
    /// for the display thread to open it, without blocking the caller's thread. Throws when there is no display or
    /// SDL cannot open a window there. With `fitScreen`, a size larger than 90 % of the screen's usable area is
    /// scaled down to it, the aspect ratio kept. A `floating` window has no decorations from the start and is moved
    /// and resized as `makeFloating()` says. Any thread or actor.
    public static func open(
        title: String, width: Int, height: Int, position: (x: Int, y: Int)? = nil, fullscreen: Bool = false,
        onTop: Bool = false, fitScreen: Bool = true, floating: Bool = false
    ) async throws(DisplayError) -> VideoWindow {
        let x = position.map { Int32(clamping: $0.x) } ?? Int32.min
        let y = position.map { Int32(clamping: $0.y) } ?? Int32.min
        let result: Result<VideoWindow, DisplayError> = await withCheckedContinuation { continuation in
            DisplayThread.shared.submit { display in
                guard let display else {
                    let why = DisplayThread.shared.lastFailure ?? "no display"
                    continuation.resume(
                        returning: .failure(
                            DisplayError(description: DisplayThread.windowFailure(why))))
                    return
                }
                var limit = CGSize(width: 16384, height: 16384)
                var sw: Int32 = 0
                var sh: Int32 = 0
                if fitScreen, ph_sdl_usable_bounds(&sw, &sh) == 0, sw > 0, sh > 0 {
                    limit = CGSize(width: Double(sw) * 0.9, height: Double(sh) * 0.9)
                }
                let size = VideoGeometry.windowSize(
                    for: CGSize(width: max(1, min(width, 16384)), height: max(1, min(height, 16384))), within: limit)
                let (w, h) = (Int32(size.width), Int32(size.height))
                guard
                    let handle = ph_window_create(
                        title, x, y, w, h, fullscreen ? 1 : 0, onTop ? 1 : 0, 0, floating ? 1 : 0)
                else {
                    let why = String(cString: ph_sdl_error())
                    continuation.resume(
                        returning: .failure(
                            DisplayError(description: DisplayThread.windowFailure(why))))
                    return
                }
                if floating { _ = ph_window_make_floating(handle, Int32(Self.floatingEdge)) }
                var dw: Int32 = 0
                var dh: Int32 = 0
                ph_window_drawable_size(handle, &dw, &dh)
                let window = VideoWindow(
                    id: ph_window_id(handle), size: CGSize(width: Int(dw), height: Int(dh)), title: title,
                    fullscreen: fullscreen,
                    drawnBy: (String(cString: ph_sdl_driver()), String(cString: ph_window_renderer(handle))))
                display.add(
                    WindowSurface(
                        handle: handle, owner: window, text: display.text,
                        report: { display.reportedProblems.insert($0).inserted }))
                continuation.resume(returning: .success(window))
            }
        }
        return try result.get()
    }

    /// Whether SDL can open windows in this process's environment: a display is named (`DISPLAY` or
    /// `WAYLAND_DISPLAY`). Does not connect. Any thread.
    public static var displayIsNamed: Bool {
        let env = ProcessInfo.processInfo.environment
        return !(env["DISPLAY"] ?? "").isEmpty || !(env["WAYLAND_DISPLAY"] ?? "").isEmpty
    }

    /// Waits until the display connection is closed: after the last window closed, the display thread stops SDL
    /// and ends. At most `seconds`; true when it is closed (false while a window is still open). Any thread or
    /// actor (waits on a background thread).
    public static func waitUntilDisplayClosed(upTo seconds: Double) async -> Bool {
        let deadline = Date().addingTimeInterval(max(0, min(seconds, 3600)))
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: DisplayThread.shared.waitUntilStopped(before: deadline))
            }
        }
    }

    /// True once the display went away while a window was open (see `PlayerWindow.displayWasLost`). Any thread.
    public static var displayWasLost: Bool { DisplayThread.shared.wasLost }

    /// Called on the display thread with each input event. Any thread.
    public func setEventHandler(_ handler: (@Sendable (WindowEvent) -> Void)?) {
        state.withLock { $0.onEvent = handler }
    }

    /// Called on the display thread after each picture is on screen (drawn and shown). Any thread.
    public func setPictureShownHandler(_ handler: (@Sendable (VideoFrame) -> Void)?) {
        state.withLock { $0.onPictureShown = handler }
    }

    /// Pictures put on screen so far, and pictures replaced by a newer one before they could be drawn. Any thread.
    public var counts: (shown: Int, replaced: Int) {
        let s = state.current
        return (s.picturesShown, s.picturesReplaced)
    }

    /// The picture on screen now, nil before the first. Any thread.
    public var shownPicture: VideoFrame? { state.current.shown }

    /// Whether the window covers the screen (desktop fullscreen). Any thread.
    public var isFullscreen: Bool { state.current.fullscreen }

    /// Makes the window cover the screen, or returns it to its size. Any thread.
    public func setFullscreen(_ on: Bool) {
        state.withLock { $0.fullscreen = on }
        onDisplay { ph_window_set_fullscreen($0, on ? 1 : 0) }
    }

    /// Sets the window's title. Any thread.
    public func setTitle(_ title: String) {
        state.withLock { $0.title = title }
        onDisplay { ph_window_set_title($0, title) }
    }

    /// Brings the window to the front and gives it the focus, restoring it when minimized (a hidden one stays
    /// hidden). Any thread.
    public func raise() { onDisplay { ph_window_raise($0) } }

    /// Closes the window now; nothing more is drawn or reported. Any thread.
    public func close() {
        let wasOpen = state.withLock { s -> Bool in
            defer {
                s.closed = true
                s.onEvent = nil
                s.onPictureShown = nil
                s.pending = nil
            }
            return !s.closed
        }
        guard wasOpen else { return }
        let id = id
        DisplayThread.shared.submit(starting: false) { display in display?.remove(id: id) }
    }

    func onDisplay(_ body: @escaping @Sendable (OpaquePointer) -> Void) {
        let id = id
        DisplayThread.shared.submit(starting: false) { display in display?.withHandle(id: id, body) }
    }
}
