import CAss
import Foundation
import PlayheadCore
import PlayheadSubtitles

/// libass on the display thread: draws cues as an ASS script into a straight-alpha BGRA picture for a window's
/// overlay. Made when the first cue is drawn (finding the fonts may take a moment then); when libass cannot be
/// loaded, nothing is drawn and `failure` says why.
///
/// Threads: the display thread only; `forPictures`, the one for screenshots, under its lock.
final class SubtitleRenderer {
    /// The renderer that draws subtitles into pictures saved (screenshots), made at the first.
    static let forPictures = Locked(SubtitleRenderer())

    private var renderer: OpaquePointer?
    private var tried = false
    /// The fonts given to libass, by name and size.
    private var loadedFonts: Set<String> = []
    /// Why libass could not start, nil while it works (or was not needed yet).
    private(set) var failure: String?

    deinit { ph_subtitles_destroy(renderer) }

    /// The picture of `script` (an `ASSScript`) at `ASSScript.drawnAt`, `width` x `height` BGRA, with `fonts` (a
    /// track's attached fonts) known to libass; nil when nothing shows (no cue, nothing drawn, no libass).
    func render(_ script: String, width: Int, height: Int, fonts: ASSFonts? = nil) -> [UInt8]? {
        guard width > 0, height > 0 else { return nil }
        if !tried {
            tried = true
            renderer = ph_subtitles_create()
            if renderer == nil { failure = String(cString: ph_subtitles_error()) }
        }
        guard let renderer else { return nil }
        if let fonts { add(fonts, to: renderer) }
        var bgra = [UInt8](repeating: 0, count: width * height * 4)
        let drawn = bgra.withUnsafeMutableBufferPointer { out in
            ph_subtitles_render(
                renderer, script, Int64(ASSScript.drawnAt), Int32(width), Int32(height), out.baseAddress)
        }
        return drawn == 1 ? bgra : nil
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
