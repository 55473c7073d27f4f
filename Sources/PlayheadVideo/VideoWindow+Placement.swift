import CSDL2
import Foundation

/// Where a window is and how it shows: position, size, hidden or minimized, above others, floating (no
/// decorations, moved by dragging anywhere). Picture in Picture and layout changes use these.
extension VideoWindow {
    /// Where a window is on the screen and how large it is, in window coordinates, and whether it shows.
    public struct Placement: Sendable, Equatable {
        /// The top-left corner on the screen.
        public var x: Int
        /// The top-left corner on the screen.
        public var y: Int
        /// The size in window coordinates.
        public var width: Int
        /// The size in window coordinates.
        public var height: Int
        /// Whether it is hidden or minimized.
        public var isHidden: Bool
        /// Whether it stays above other windows.
        public var isOnTop: Bool
    }

    /// The window's placement as the display thread reads it now; nil once the window is gone. Any thread or
    /// actor (waits for the display thread without blocking).
    public func placement() async -> Placement? {
        let id = id
        return await withCheckedContinuation { continuation in
            DisplayThread.shared.submit(starting: false) { display in
                var result: Placement?
                display?.withHandle(id: id) { handle in
                    var x: Int32 = 0
                    var y: Int32 = 0
                    var w: Int32 = 0
                    var h: Int32 = 0
                    ph_window_position(handle, &x, &y)
                    ph_window_size(handle, &w, &h)
                    result = Placement(
                        x: Int(x), y: Int(y), width: Int(w), height: Int(h),
                        isHidden: ph_window_is_hidden(handle) != 0, isOnTop: ph_window_is_on_top(handle) != 0)
                }
                continuation.resume(returning: result)
            }
        }
    }

    /// Moves the window's top-left corner to `x`, `y` on the screen. Any thread.
    public func move(x: Int, y: Int) {
        let (px, py) = (Int32(clamping: x), Int32(clamping: y))
        onDisplay { ph_window_set_position($0, px, py) }
    }

    /// Sets the window's size in window coordinates (at least 1 x 1). Any thread.
    public func resize(width: Int, height: Int) {
        let (w, h) = (Int32(clamping: max(1, min(width, 16384))), Int32(clamping: max(1, min(height, 16384))))
        onDisplay { ph_window_set_size($0, w, h) }
    }

    /// Hides the window; it keeps its size and place for `show()`. Any thread.
    public func hide() { onDisplay { ph_window_hide($0) } }

    /// Shows a hidden window, or restores a minimized one, at its size and place. Any thread.
    public func show() {
        onDisplay {
            ph_window_restore($0)
            ph_window_show($0)
        }
    }

    /// Minimizes the window (to the taskbar or the window manager's list). Any thread.
    public func minimize() { onDisplay { ph_window_minimize($0) } }

    /// The width in pixels of a floating window's resizing edges (`makeFloating`'s default, and a window opened
    /// `floating`). Any thread.
    public static let floatingEdge = 8

    /// Takes the window's decorations off: it is moved by dragging anywhere in it and resized from its edges
    /// (`edge` pixels wide). Any thread.
    public func makeFloating(edge: Int = VideoWindow.floatingEdge) {
        let e = Int32(clamping: max(1, edge))
        onDisplay { _ = ph_window_make_floating($0, e) }
    }

    /// The areas of a floating window (in drawable pixels, as `ControlsLayout` gives them) where a press is a
    /// click, not the start of a drag: its buttons. Any thread.
    public func setClickableAreas(_ rects: [CGRect]) {
        let areas = Array(rects.prefix(Int(PH_CLICKABLE_MAX)))
        onDisplay { handle in
            var w: Int32 = 0
            var h: Int32 = 0
            var dw: Int32 = 0
            var dh: Int32 = 0
            ph_window_size(handle, &w, &h)
            ph_window_drawable_size(handle, &dw, &dh)
            let (sx, sy) = (Double(w) / Double(max(1, dw)), Double(h) / Double(max(1, dh)))
            let xywh = areas.flatMap { r in
                [r.minX * sx, r.minY * sy, r.width * sx, r.height * sy].map { Int32(clamping: Int($0.rounded())) }
            }
            ph_window_set_clickable(handle, xywh, Int32(areas.count))
        }
    }

    /// The usable area of the screen (without panels), in window coordinates; nil without a display. Any thread
    /// or actor.
    public static func usableScreenSize() async -> CGSize? {
        await withCheckedContinuation { continuation in
            DisplayThread.shared.submit { display in
                var w: Int32 = 0
                var h: Int32 = 0
                guard display != nil, ph_sdl_usable_bounds(&w, &h) == 0, w > 0, h > 0 else {
                    continuation.resume(returning: nil)
                    return
                }
                continuation.resume(returning: CGSize(width: Int(w), height: Int(h)))
            }
        }
    }
}
