import CSDL2

/// Draws lines of text for the controls with SDL2_ttf, keeping the recent ones (the labels repeat from one paint to
/// the next). When SDL2_ttf or a font is missing, nothing is drawn and `failure` says why.
///
/// Threads: the display thread only (SDL2_ttf is not thread-safe).
final class TextRenderer {
    private struct Key: Hashable {
        var text: String
        var pixels: Int
        var bold: Bool
    }
    private var cache: [Key: TextImage] = [:]
    /// Why text cannot be drawn, nil while it can.
    private(set) var failure: String?

    /// `text` drawn `pixels` high; nil when it cannot be drawn.
    func image(_ text: String, pixels: Int, bold: Bool = false) -> TextImage? {
        let key = Key(text: text, pixels: pixels, bold: bold)
        if let cached = cache[key] { return cached }
        guard failure == nil, !text.isEmpty else { return nil }
        var w: Int32 = 0
        var h: Int32 = 0
        guard let drawn = ph_text_render(text, Int32(pixels), bold ? 1 : 0, &w, &h) else {
            failure = String(cString: ph_text_error())
            return nil
        }
        defer { ph_text_free(drawn) }
        let image = TextImage(
            width: Int(w), height: Int(h), pixels: Array(UnsafeBufferPointer(start: drawn, count: Int(w) * Int(h) * 4)))
        if cache.count >= 128 { cache.removeAll(keepingCapacity: true) }
        cache[key] = image
        return image
    }
}
