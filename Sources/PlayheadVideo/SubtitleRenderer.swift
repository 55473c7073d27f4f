import CAss
import Foundation
import PlayheadCore
import PlayheadSubtitles

/// libass on the display thread: draws cues as an ASS script into a straight-alpha BGRA picture for a window's
/// overlay; each window has its own (libass tells what changed since that renderer's last picture). Made when the
/// first cue is drawn (finding the fonts may take a moment then); when libass cannot be loaded, nothing is drawn
/// and `failure` says why.
///
/// Threads: the display thread only; `forPictures`, the one for screenshots, under its lock.
final class SubtitleRenderer {
    /// The renderer that draws subtitles into pictures saved (screenshots), made at the first.
    static let forPictures = Locked(SubtitleRenderer())

    private var renderer: OpaquePointer?
    private var tried = false
    /// The fonts given to libass, by name and size.
    private var loadedFonts: Set<String> = []
    /// The picture drawn last.
    private var canvas: [UInt8] = []
    /// Why libass could not start, nil while it works (or was not needed yet).
    private(set) var failure: String?

    deinit { ph_subtitles_destroy(renderer) }

    /// What `draw` gave.
    enum Drawing {
        /// The same picture as the last draw's: the overlay on screen stays.
        case same
        /// Nothing shows.
        case nothing
        /// A new picture, straight-alpha BGRA, of the part of the frame the subtitles cover: `box`, in the frame's
        /// pixels (only that part is painted, uploaded and blended over each picture).
        case picture([UInt8], box: (x: Int, y: Int, width: Int, height: Int))
    }

    /// Keeps `script` (an `ASSScript`) as the track `draw` draws, with `fonts` (a track's attached fonts) known to
    /// libass; false when libass cannot start or cannot read the script (nothing is drawn then).
    @discardableResult
    func load(_ script: String, fonts: ASSFonts? = nil) -> Bool {
        if !tried {
            tried = true
            renderer = ph_subtitles_create()
            if renderer == nil { failure = String(cString: ph_subtitles_error()) }
        }
        guard let renderer else { return false }
        if let fonts { add(fonts, to: renderer) }
        return ph_subtitles_load(renderer, script) == 0
    }

    /// The loaded track's picture at `ms` (script time) in a `width` x `height` frame; `.same` when libass says
    /// nothing changed since the last draw and `force` is not set (a still event on the next video frame).
    func draw(at ms: Int, width: Int, height: Int, force: Bool) -> Drawing {
        guard width > 0, height > 0, let renderer else { return .nothing }
        var box: [Int32] = [0, 0, 0, 0]
        let drawn = box.withUnsafeMutableBufferPointer {
            ph_subtitles_draw(renderer, Int64(ms), Int32(width), Int32(height), force ? 1 : 0, $0.baseAddress)
        }
        switch drawn {
        case 2: return .same
        case 1:
            let (w, h) = (Int(box[2]), Int(box[3]))
            // One buffer, painted again at each picture of an animation (the picture handed out is let go by then).
            if canvas.count != w * h * 4 { canvas = [UInt8](repeating: 0, count: w * h * 4) }
            canvas.withUnsafeMutableBufferPointer { ph_subtitles_paint(renderer, $0.baseAddress) }
            return .picture(canvas, box: (Int(box[0]), Int(box[1]), w, h))
        default: return .nothing
        }
    }

    /// The picture of `script` at `ms` (script time: `ASSScript.drawTime`), the whole `width` x `height` frame in
    /// BGRA, with `fonts` known to libass; nil when nothing shows (no cue, nothing drawn, no libass).
    func render(_ script: String, at ms: Int, width: Int, height: Int, fonts: ASSFonts? = nil) -> [UInt8]? {
        guard width > 0, height > 0, load(script, fonts: fonts),
            case .picture(let part, let box) = draw(at: ms, width: width, height: height, force: true)
        else { return nil }
        var frame = [UInt8](repeating: 0, count: width * height * 4)
        for row in 0..<box.height {
            let from = row * box.width * 4
            let to = ((box.y + row) * width + box.x) * 4
            frame.replaceSubrange(to..<(to + box.width * 4), with: part[from..<(from + box.width * 4)])
        }
        return frame
    }

    /// Gives libass the fonts it has not been given yet (by name and size: a file opened again, or its next
    /// track, brings the same fonts in new objects).
    private func add(_ fonts: ASSFonts, to renderer: OpaquePointer) {
        for font in fonts.fonts where loadedFonts.insert("\(font.name):\(font.data.count)").inserted {
            font.data.withUnsafeBufferPointer {
                ph_subtitles_add_font(renderer, font.name, $0.baseAddress, Int32($0.count))
            }
        }
    }
}
