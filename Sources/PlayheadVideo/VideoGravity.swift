import Foundation

/// How a picture fills the rectangle it is shown in, like `AVLayerVideoGravity`. A value type, safe on any thread.
public enum VideoGravity: String, Sendable, CaseIterable {
    /// The whole picture, its aspect ratio kept, centred; bands of the background above and below or beside it.
    case resizeAspect
    /// The whole rectangle filled, the aspect ratio kept; the picture's overflowing edges are cut off.
    case resizeAspectFill
    /// The picture stretched to the rectangle.
    case resize
}

/// Where a picture goes in a rectangle. Pure functions; any thread.
public enum VideoGeometry {
    /// The rectangle in `bounds` that a picture of `size` (its presentation size: sample aspect ratio applied)
    /// covers under `gravity`; may extend past `bounds` for `.resizeAspectFill`. Empty when either is empty.
    public static func rect(for size: CGSize, in bounds: CGRect, gravity: VideoGravity) -> CGRect {
        guard size.width > 0, size.height > 0, bounds.width > 0, bounds.height > 0 else { return .zero }
        if gravity == .resize { return bounds }
        let fit = min(bounds.width / size.width, bounds.height / size.height)
        let fill = max(bounds.width / size.width, bounds.height / size.height)
        let scale = gravity == .resizeAspect ? fit : fill
        let width = size.width * scale
        let height = size.height * scale
        return CGRect(
            x: bounds.minX + (bounds.width - width) / 2, y: bounds.minY + (bounds.height - height) / 2,
            width: width, height: height)
    }

    /// `rect`, in whole pixels: the edges rounded to the nearest pixel, so that two bands of a letterbox differ by
    /// one pixel at most.
    public static func pixelRect(for size: CGSize, in bounds: CGRect, gravity: VideoGravity) -> (
        x: Int, y: Int, width: Int, height: Int
    ) {
        let r = rect(for: size, in: bounds, gravity: gravity)
        let x0 = Int(r.minX.rounded())
        let y0 = Int(r.minY.rounded())
        let x1 = Int(r.maxX.rounded())
        let y1 = Int(r.maxY.rounded())
        return (x0, y0, x1 - x0, y1 - y0)
    }

    /// The size to open a window at for a picture of `size`: the picture's own size, scaled down (aspect kept) to
    /// fit in `limit`, and at least 64 pixels wide.
    public static func windowSize(for size: CGSize, within limit: CGSize) -> (width: Int, height: Int) {
        guard size.width > 0, size.height > 0 else { return (640, 360) }
        var scale = 1.0
        if limit.width > 0, limit.height > 0 {
            scale = min(1, limit.width / size.width, limit.height / size.height)
        }
        let width = max(64, Int((size.width * scale).rounded()))
        let height = max(36, Int((size.height * scale).rounded()))
        return (width, height)
    }
}
