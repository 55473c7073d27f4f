/// A picture an app puts over the video in a window (a logo, a caption of its own, a drawing), with where it goes.
/// A value type, safe anywhere.
public struct OverlayImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// Blue, green, red, alpha bytes (straight alpha: colours not multiplied by it), row after row.
    public let pixels: [UInt8]
    /// Where its top-left corner goes, in the window's drawable pixels (the video's area is
    /// `PlayerLayer.videoRect`).
    public let x: Int
    /// Where its top edge goes.
    public let y: Int

    /// An image of `width` x `height` from its BGRA `pixels` at (`x`, `y`); nil when the sizes do not agree, a
    /// size is not positive or larger than 16384, or a coordinate is beyond ±65536.
    public init?(width: Int, height: Int, pixels: [UInt8], x: Int = 0, y: Int = 0) {
        guard width > 0, height > 0, width <= 16384, height <= 16384, pixels.count == width * height * 4,
            abs(x) <= 65536, abs(y) <= 65536
        else { return nil }
        (self.width, self.height, self.pixels, self.x, self.y) = (width, height, pixels, x, y)
    }
}
