import CSDL2
import Foundation
import PlayheadSubtitles

/// A window's SDL side: its handle, texture and drawing, kept by the display thread. The `VideoWindow` it draws
/// for is held weakly: once nobody holds the window, the surface is destroyed at the thread's next turn.
///
/// Threads: the display thread only.
final class WindowSurface {
    let handle: OpaquePointer
    let id: UInt32
    private weak var owner: VideoWindow?
    private let upload = PictureUpload()
    /// The size of the picture in the texture, the size it is shown at (upright) and its turn; nil before the
    /// first.
    private var picture: (width: Int, height: Int, shownAs: CGSize, rotation: Int)?

    /// This window's libass renderer (its own: libass says what changed since the picture it drew last).
    private let subtitles = SubtitleRenderer()
    /// The cues and the area of the overlay on screen, whether an event among them is animated, and the script
    /// time they were drawn at.
    private var overlay: (cues: [SubtitleCue], area: CGRect, animated: Bool, time: Int) = ([], .zero, false, 0)
    /// The controls painted, and for which drawable size.
    private var controls: (state: ControlsState?, size: CGSize) = (nil, .zero)
    private let painter: ControlsPainter
    /// The version of the app's overlay on screen.
    private var contentVersion = 0

    /// Reports a problem once per process (the display thread's set), through the window's event handler.
    private let report: (String) -> Bool

    init(
        handle: OpaquePointer, owner: VideoWindow, text: TextRenderer, report: @escaping (String) -> Bool
    ) {
        self.report = report
        self.painter = ControlsPainter(text: text)
        self.handle = handle
        self.id = owner.id
        self.owner = owner
    }

    func destroy() { ph_window_destroy(handle) }

    /// The display went away: the window is closed without touching SDL, and its event handler hears it.
    func displayLost() {
        guard let owner else { return }
        let handler = owner.state.withLock { s -> (@Sendable (WindowEvent) -> Void)? in
            defer {
                s.closed = true
                s.onEvent = nil
                s.onPictureShown = nil
                s.pending = nil
            }
            return s.closed ? nil : s.onEvent
        }
        handler?(.displayLost)
    }

    /// Draws the window when its picture, gravity, size or background changed. Returns false when the window is
    /// gone (closed, or nobody holds it).
    func drawIfNeeded() -> Bool {
        guard let owner else { return false }
        let s = owner.state.withLock { s -> VideoWindow.State? in
            guard !s.closed else { return nil }
            defer {
                // The picture taken is the one on screen from now on: an item change while it is drawn keeps it
                // when it is the new item's (`clear(unlessFrom:)` looked at the picture before it, cleared the
                // screen after the draw, and a paused player showed black until play).
                if let taken = s.pending { s.shown = taken }
                s.pending = nil
                s.needsDraw = false
                s.clearPicture = false
            }
            return s
        }
        guard let s else { return false }
        guard s.needsDraw else { return true }
        var w: Int32 = 0
        var h: Int32 = 0
        ph_window_drawable_size(handle, &w, &h)
        let window = CGRect(x: 0, y: 0, width: Int(w), height: Int(h))
        // Pictures and subtitles go in the video area; the controls and the app's overlay cover the window.
        let bounds = s.videoArea.map { $0.integral.intersection(window) }.flatMap { $0.isEmpty ? nil : $0 } ?? window
        if bounds != window {
            ph_window_set_video_area(
                handle, Int32(bounds.minX), Int32(bounds.minY), Int32(bounds.width), Int32(bounds.height))
        } else {
            ph_window_set_video_area(handle, 0, 0, 0, 0)
        }
        var uploaded: VideoFrame?
        if s.clearPicture { picture = nil }
        // Without a GPU the picture is converted and scaled by swscale to the size it is drawn at, and drawn 1:1:
        // the one on screen again when that size changed (a resize, another gravity).
        let onCPU = ph_window_scales_on_cpu(handle) != 0
        let again = onCPU && s.pending == nil && picture != nil ? s.shown : nil
        if let frame = s.pending ?? again {
            let size = onCPU ? Self.destination(frame.presentationSize, frame.rotation, bounds, s.gravity) : nil
            let drawnSize = size.map { ($0.width, $0.height) }
            let stale = picture.map { p in drawnSize.map { $0 != (p.width, p.height) } ?? false } ?? true
            if s.pending != nil || stale,
                let texture = upload.upload(frame.frame, to: handle, size: drawnSize)
            {
                picture = (texture.width, texture.height, frame.presentationSize, frame.rotation)
                if s.pending != nil { uploaded = frame }
            }
        }
        let (r, g, b) = s.background
        // The cues' time now: the picture's less the subtitle delay (the one coming, else the one on screen),
        // or theirs when they were handed over before any picture.
        let cueTime = (s.pending ?? s.shown).map { $0.time.seconds - s.cueClock.delay } ?? s.cueClock.at
        updateOverlay(
            s.cues, at: cueTime, bounds: bounds, gravity: s.gravity,
            controls: s.controls, window: window.size)
        updateControls(s.controls, size: window.size)
        if s.contentVersion != contentVersion {
            contentVersion = s.contentVersion
            updateContent(s.content)
        }
        if let picture {
            let d = Self.destination(picture.shownAs, picture.rotation, bounds, s.gravity)
            ph_window_draw(
                handle, 1, 0, 0, Int32(picture.width), Int32(picture.height), Int32(d.x), Int32(d.y),
                Int32(d.width), Int32(d.height), Int32(picture.rotation), r, g, b)
        } else {
            ph_window_draw(handle, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, r, g, b)
        }
        guard let uploaded else { return true }
        let shown = owner.state.withLock { s -> (@Sendable (VideoFrame) -> Void)? in
            s.shown = uploaded
            s.picturesShown += 1
            return s.onPictureShown
        }
        shown?(uploaded)
        return true
    }

    /// Draws `cues` anew when they or the picture's place changed, and whenever their time (`seconds`, now) moved
    /// while an ASS event among them is animated (a new picture, another subtitle delay): in the part of the
    /// window the picture covers (all of it before the first picture). While the controls' bar shows, plain cues go
    /// above it at their size (the area ends at the bar, the text is sized for the whole picture); an ASS track
    /// keeps the whole picture, whose coordinates its events use (the bar covers its bottom for the moment it
    /// shows, as in mpv).
    private func updateOverlay(
        _ cues: [SubtitleCue], at seconds: Double?, bounds: CGRect, gravity: VideoGravity,
        controls: ControlsState?, window: CGSize
    ) {
        var area = bounds
        if let picture {
            let r = VideoGeometry.pixelRect(for: picture.shownAs, in: bounds, gravity: gravity)
            area = bounds.intersection(CGRect(x: r.x, y: r.y, width: r.width, height: r.height))
        }
        let sizing = Int(area.height)
        if let controls, !cues.contains(where: { $0.assEvent != nil }) {
            let top = ControlsLayout(size: window, state: controls).bar.minY
            if top > area.minY + 1 { area.size.height = min(area.height, top - area.minY) }
        }
        let changed = cues != overlay.cues || area != overlay.area
        let time = ASSScript.drawTime(for: cues, at: seconds)
        // An animation is drawn again when its time moved: a new picture, or the subtitle delay changed.
        guard changed || (overlay.animated && time != overlay.time) else { return }
        overlay.time = time
        let (w, h) = (Int(area.width), Int(area.height))
        if changed {
            overlay = (cues, area, ASSScript.isAnimated(cues), time)
            if !cues.isEmpty {
                let script = ASSScript.script(for: cues, width: w, height: h, sizingHeight: sizing)
                subtitles.load(script, fonts: ASSScript.fonts(for: cues))
                if let failure = subtitles.failure { tell("subtitles cannot be drawn: \(failure)") }
            }
        }
        let drawing =
            cues.isEmpty
            ? .nothing
            : subtitles.draw(at: time, width: w, height: h, force: changed)
        switch drawing {
        case .same: return
        case .nothing: ph_window_set_overlay(handle, Int32(PH_OVERLAY_SUBTITLES), nil, 0, 0, 0, 0)
        case .picture(let bgra, let box):
            bgra.withUnsafeBufferPointer { p in
                _ = ph_window_set_overlay(
                    handle, Int32(PH_OVERLAY_SUBTITLES), p.baseAddress, Int32(box.width), Int32(box.height),
                    Int32(Int(area.minX) + box.x), Int32(Int(area.minY) + box.y))
            }
        }
    }

    /// Puts the app's overlay on screen (or takes it off).
    private func updateContent(_ image: OverlayImage?) {
        guard let image else {
            ph_window_set_overlay(handle, Int32(PH_OVERLAY_CONTENT), nil, 0, 0, 0, 0)
            return
        }
        image.pixels.withUnsafeBufferPointer { p in
            _ = ph_window_set_overlay(
                handle, Int32(PH_OVERLAY_CONTENT), p.baseAddress, Int32(image.width), Int32(image.height),
                Int32(image.x), Int32(image.y))
        }
    }

    /// Where a picture of `shownAs` (upright) turned `rotation` degrees goes in `bounds`, in the shape SDL draws it
    /// before turning it about its centre (width and height swapped for 90 and 270 degrees).
    static func destination(_ shownAs: CGSize, _ rotation: Int, _ bounds: CGRect, _ gravity: VideoGravity)
        -> (x: Int, y: Int, width: Int, height: Int)
    {
        let d = VideoGeometry.pixelRect(for: shownAs, in: bounds, gravity: gravity)
        guard rotation % 180 != 0 else { return d }
        return (d.x + (d.width - d.height) / 2, d.y + (d.height - d.width) / 2, d.height, d.width)
    }

    /// Paints the controls anew when they or the window's size changed.
    private func updateControls(_ state: ControlsState?, size: CGSize) {
        guard state != controls.state || size != controls.size else { return }
        controls = (state, size)
        guard let state, size.width >= 1, size.height >= 1 else {
            ph_window_set_overlay(handle, Int32(PH_OVERLAY_CONTROLS), nil, 0, 0, 0, 0)
            return
        }
        let (canvas, origin) = painter.paint(state, ControlsLayout(size: size, state: state))
        if let failure = painter.text.failure { tell("the controls are drawn without text: \(failure)") }
        canvas.pixels.withUnsafeBufferPointer { p in
            _ = ph_window_set_overlay(
                handle, Int32(PH_OVERLAY_CONTROLS), p.baseAddress, Int32(canvas.width), Int32(canvas.height),
                Int32(origin.x), Int32(origin.y))
        }
    }

    /// Tells the window's event handler about `problem`, unless the process heard it already.
    private func tell(_ problem: String) {
        guard report(problem), let owner else { return }
        let handler = owner.state.withLock { $0.onEvent }
        handler?(.problem(problem))
    }

    /// Handles an input or window event for this window: a new size or an exposure draws again; the person's
    /// input goes to the window's event handler.
    func handle(_ e: ph_sdl_event) {
        guard let owner else { return }
        var event = WindowEvent(e)
        switch Int(e.kind) {
        case Int(PH_EVENT_RESIZED):
            var w: Int32 = 0
            var h: Int32 = 0
            ph_window_drawable_size(handle, &w, &h)
            let size = CGSize(width: Int(w), height: Int(h))
            owner.state.withLock {
                $0.drawableSize = size
                $0.needsDraw = true
            }
            event = .resized(width: Int(w), height: Int(h))
        case Int(PH_EVENT_EXPOSED), Int(PH_EVENT_SHOWN):
            owner.state.withLock { $0.needsDraw = true }
        default: break
        }
        guard var event else { return }
        event = inPixels(event)
        let handler = owner.state.withLock { $0.onEvent }
        handler?(event)
    }

    /// `event` with its point in drawable pixels (SDL reports the mouse in window coordinates, which a HiDPI
    /// screen scales).
    private func inPixels(_ event: WindowEvent) -> WindowEvent {
        var (ww, wh, dw, dh): (Int32, Int32, Int32, Int32) = (0, 0, 0, 0)
        ph_window_size(handle, &ww, &wh)
        ph_window_drawable_size(handle, &dw, &dh)
        guard ww > 0, wh > 0, ww != dw || wh != dh else { return event }
        let (sx, sy) = (Double(dw) / Double(ww), Double(dh) / Double(wh))
        let px = { (x: Int) in Int((Double(x) * sx).rounded()) }
        let py = { (y: Int) in Int((Double(y) * sy).rounded()) }
        switch event {
        case .mouseMoved(let x, let y): return .mouseMoved(x: px(x), y: py(y))
        case .buttonDown(let x, let y, let button, let clicks):
            return .buttonDown(x: px(x), y: py(y), button: button, clicks: clicks)
        case .buttonUp(let x, let y, let button): return .buttonUp(x: px(x), y: py(y), button: button)
        default: return event
        }
    }
}
