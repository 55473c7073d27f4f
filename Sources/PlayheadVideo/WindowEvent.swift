import CSDL2
import Foundation

/// What a person did to a window, as the window reports it. A value type, safe on any thread.
public enum WindowEvent: Sendable, Equatable {
    /// Asked to close the window (its close button, the window manager's close).
    case closeRequested
    /// A key: a typed character, or one of the keys that type none.
    case key(WindowKey)
    /// The window's drawable area changed to this size, in pixels.
    case resized(width: Int, height: Int)
    /// The window became visible (shown, restored from minimized).
    case shown
    /// The window became invisible (hidden, minimized).
    case hidden
    /// A mouse button went down at a point of the window (in drawable pixels, as every point here) (button 1 left, 2 middle, 3 right; `clicks` 2 for a
    /// double click).
    case buttonDown(x: Int, y: Int, button: Int, clicks: Int)
    /// A mouse button went up at a point of the window.
    case buttonUp(x: Int, y: Int, button: Int)
    /// The mouse moved to a point of the window.
    case mouseMoved(x: Int, y: Int)
    /// The mouse left the window.
    case mouseLeft
    /// The wheel turned by `steps` (positive: away from the person).
    case wheel(steps: Int)
    /// The display connection is going away: the window is gone.
    case displayLost
    /// Something the window cannot draw, in one line (libass missing: no subtitles; SDL2_ttf or a font missing:
    /// the controls without their text). Reported once per process for each cause, to the window that met it.
    case problem(String)
}

/// A key pressed in a window. A value type, safe on any thread.
public enum WindowKey: Sendable, Equatable {
    /// A typed character (layout and shift applied: `#`, `>`, `[`).
    case character(Character)
    /// The left arrow.
    case left
    /// The right arrow.
    case right
    /// The up arrow.
    case up
    /// The down arrow.
    case down
    /// Page Up.
    case pageUp
    /// Page Down.
    case pageDown
    /// Escape.
    case escape
    /// Return or Enter.
    case enter
    /// Backspace.
    case backspace

    /// The key an SDL key press names, nil for keys that type a character (they come as text) and keys the
    /// player has no use for.
    init?(keycode: Int32) {
        switch keycode {
        case Int32(PH_KEY_LEFT): self = .left
        case Int32(PH_KEY_RIGHT): self = .right
        case Int32(PH_KEY_UP): self = .up
        case Int32(PH_KEY_DOWN): self = .down
        case Int32(PH_KEY_PAGEUP): self = .pageUp
        case Int32(PH_KEY_PAGEDOWN): self = .pageDown
        case Int32(PH_KEY_ESCAPE): self = .escape
        case Int32(PH_KEY_RETURN), 0x4000_0058: self = .enter  // Return, keypad Enter
        case Int32(PH_KEY_BACKSPACE): self = .backspace
        default: return nil
        }
    }
}

extension WindowEvent {
    /// The event an SDL event decodes to, nil for those a window does not report.
    init?(_ e: ph_sdl_event) {
        switch Int(e.kind) {
        case Int(PH_EVENT_CLOSE): self = .closeRequested
        case Int(PH_EVENT_RESIZED): self = .resized(width: Int(e.x), height: Int(e.y))
        case Int(PH_EVENT_SHOWN): self = .shown
        case Int(PH_EVENT_HIDDEN): self = .hidden
        case Int(PH_EVENT_LEAVE): self = .mouseLeft
        case Int(PH_EVENT_MOTION): self = .mouseMoved(x: Int(e.x), y: Int(e.y))
        case Int(PH_EVENT_WHEEL): self = .wheel(steps: Int(e.y))
        case Int(PH_EVENT_BUTTON_DOWN):
            self = .buttonDown(x: Int(e.x), y: Int(e.y), button: Int(e.button), clicks: Int(e.clicks))
        case Int(PH_EVENT_BUTTON_UP): self = .buttonUp(x: Int(e.x), y: Int(e.y), button: Int(e.button))
        case Int(PH_EVENT_KEY):
            guard let key = WindowKey(keycode: e.key) else { return nil }
            self = .key(key)
        case Int(PH_EVENT_TEXT):
            let text = withUnsafeBytes(of: e.text) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            guard let c = text.first, text.count == 1 else { return nil }
            self = .key(.character(c))
        default: return nil
        }
    }
}
