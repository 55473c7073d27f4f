import Foundation

/// Pictures to check on screen. Safe from any thread.
extension Fixtures {
    /// How a colour-bar clip is encoded.
    public enum BarEncoding: String, Sendable, CaseIterable {
        /// BT.709, limited (video) range: a YUV texture converted on the GPU.
        case bt709Limited = "709-tv"
        /// BT.601, full range: a YUV texture with the JPEG matrix.
        case bt601Full = "601-pc"
        /// BT.709, full range: converted to RGB by swscale first (SDL has no such matrix).
        case bt709Full = "709-pc"
    }

    /// The colours of `colourBars`' four bars, left to right: red, green, blue, white.
    public static let barColours: [(Int, Int, Int)] = [(255, 0, 0), (0, 255, 0), (0, 0, 255), (255, 255, 255)]

    /// 4 s of a 320x240 25 fps H.264 picture of four vertical bars 80 pixels wide (`barColours`), encoded and
    /// tagged as `encoding` says; no sound.
    public static func colourBars(_ encoding: BarEncoding = .bt709Limited) throws -> URL {
        let (matrix, range) =
            switch encoding {
            case .bt709Limited: ("bt709", "tv")
            case .bt601Full: ("bt470bg", "pc")
            case .bt709Full: ("bt709", "pc")
            }
        let sizeMatrix = matrix == "bt709" ? "bt709" : "bt601"
        let bars = ["red", "lime", "blue", "white"].enumerated().map { i, c in
            "color=c=\(c):s=80x240:r=25:d=4 [b\(i)]"
        }
        let graph =
            bars.joined(separator: "; ")
            + "; [b0][b1][b2][b3] hstack=inputs=4, scale=out_color_matrix=\(sizeMatrix):out_range=\(range), "
            + "format=yuv420p [out0]"
        return try make(
            "bars-\(encoding.rawValue).mp4",
            [
                "-f", "lavfi", "-i", graph, "-c:v", "libx264", "-preset", "veryfast", "-crf", "12", "-g", "25",
                "-colorspace", matrix, "-color_primaries", matrix == "bt709" ? "bt709" : "bt470bg",
                "-color_trc", matrix == "bt709" ? "bt709" : "gamma28", "-color_range", range,
            ])
    }
}
