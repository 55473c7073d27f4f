import Foundation
import PlayheadCore
import PlayheadSubtitles

/// What the window shows and how: the pictures handed to it, the subtitles, the app's overlay and the player
/// controls over them, the picture's gravity and area, and the background. Each change is drawn by the display
/// thread, woken for it.
extension VideoWindow {
    /// Hands `frame` to the display thread, which draws it at once; a picture not yet drawn when the next one
    /// comes is replaced (counted in `picturesReplaced`). Any thread.
    public func present(_ frame: VideoFrame) {
        let wake = state.withLock { s -> Bool in
            guard !s.closed else { return false }
            if s.pending != nil { s.picturesReplaced += 1 }
            s.pending = frame
            s.needsDraw = true
            return true
        }
        if wake { DisplayThread.shared.wake() }
    }

    /// Keeps the picture on screen. Any thread.
    public func flush() {}

    /// Shows `cues` over the picture (in its rectangle, at its bottom unless their settings place them), drawn by
    /// libass; empty shows none. Any thread.
    public func showSubtitles(_ cues: [SubtitleCue]) {
        redraw { $0.cues = cues }
    }

    /// Shows `cues` as `showSubtitles(_:)` does, active at `seconds` of their own time, which runs `delay` seconds
    /// behind the pictures' (`PlayerItem.subtitleDelay`): an ASS event that moves, fades or sweeps karaoke is drawn
    /// anew at each picture's time. Any thread.
    public func showSubtitles(_ cues: [SubtitleCue], at seconds: Double, delay: Double) {
        redraw {
            $0.cues = cues
            $0.cueClock = (seconds.isFinite ? seconds : nil, delay.isFinite ? delay : 0)
        }
    }

    /// Shows the player controls painted from `controls` (laid out by `ControlsLayout` for the window's size) over the
    /// picture and the subtitles; nil hides them. Painted again only when they or the window's size changed. Any
    /// thread.
    public func showControls(_ controls: ControlsState?) {
        guard state.current.controls != controls else { return }
        redraw { $0.controls = controls }
    }

    /// Shows `image` over the picture and the subtitles and below the controls (the app's own drawing, like
    /// `AVPlayerViewController.contentOverlayView`); nil shows none. Any thread.
    public func showContent(_ image: OverlayImage?) {
        redraw {
            $0.content = image
            $0.contentVersion += 1
        }
    }

    /// Takes the picture off the screen: the background shows until the next picture. Any thread.
    public func clear() { clear(unlessFrom: nil) }

    /// Takes the picture off the screen unless it belongs to `item` (a picture of it waiting to be drawn stays
    /// too): after an item change, the last picture of the one before must not stand for the new one. Any thread.
    package func clear(unlessFrom item: ObjectIdentifier?) {
        redraw { s in
            if item == nil || s.pending?.item != item { s.pending = nil }
            if item == nil || s.shown?.item != item {
                s.shown = nil
                s.clearPicture = true
            }
        }
    }

    /// The window's drawable size in pixels. Any thread.
    public var displaySize: CGSize { state.current.drawableSize }

    /// How pictures fill the window; drawn again at once when changed. Any thread.
    public var gravity: VideoGravity {
        get { state.current.gravity }
        set { redraw { $0.gravity = newValue } }
    }

    /// The part of the window the picture (with its gravity) and its subtitles go in, in drawable pixels; nil (the
    /// default) for the whole window. The rest shows the background, the app's overlay and the controls. Any
    /// thread.
    public var videoArea: CGRect? {
        get { state.current.videoArea }
        set { redraw { $0.videoArea = newValue } }
    }

    /// The colour around and behind the picture (red, green, blue); black by default. Any thread.
    public var background: (red: UInt8, green: UInt8, blue: UInt8) {
        get { state.current.background }
        set { redraw { $0.background = (newValue.red, newValue.green, newValue.blue) } }
    }

    private func redraw(_ change: (inout State) -> Void) {
        state.withLock {
            change(&$0)
            $0.needsDraw = true
        }
        DisplayThread.shared.wake()
    }
}
