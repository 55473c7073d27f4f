import CFFmpeg
import Foundation
import PlayheadCore
import PlayheadFFmpeg

/// A picture copied out for an app to draw with its own toolkit, like the `CVPixelBuffer` that
/// `AVPlayerItemVideoOutput` hands out: the pixels in the layout asked for, at the decoded size, with the time it
/// belongs to. A value type that owns its bytes, safe anywhere.
public struct PixelBuffer: Sendable {
    /// A layout of pixels.
    public enum Format: Sendable, Hashable {
        /// 8-bit Y, U and V planes, U and V at half the width and height (I420), with the picture's matrix
        /// (`matrix`); in its own range when it was decoded as I420, else converted to full range (`isFullRange`).
        case yuv420Planar
        /// One plane of blue, green, red and alpha bytes per pixel (opaque), converted with the picture's own
        /// matrix and range.
        case bgra
    }

    /// One plane: its bytes, `bytesPerRow` for each of its `height` rows.
    public struct Plane: Sendable {
        /// The rows, one after the other.
        public let bytes: [UInt8]
        /// Bytes from one row to the next (at least the row's pixels).
        public let bytesPerRow: Int
        /// Rows.
        public let height: Int
    }

    /// The layout of `planes`.
    public let format: Format
    /// The picture's decoded size in pixels.
    public let width: Int
    /// The picture's decoded height in pixels.
    public let height: Int
    /// Y, U, V for `.yuv420Planar`; one for `.bgra`.
    public let planes: [Plane]
    /// When the picture is shown, on its item's timeline.
    public let presentationTime: MediaTime
    /// The size to show it at, in square pixels, upright (the sample aspect ratio and rotation applied).
    public let presentationSize: CGSize
    /// How far to turn it clockwise to show it upright (0, 90, 180 or 270 degrees).
    public let rotation: Int
    /// The YUV matrix of the picture's planes (`.yuv420Planar`).
    public let matrix: Frame.Matrix
    /// Whether the YUV planes use the full 0...255 range (`.yuv420Planar`).
    public let isFullRange: Bool

    /// `frame` in `format`, converted by `converter` (its target must match) and scaled to `size` (nil: its own);
    /// nil when it cannot be converted.
    init?(_ frame: VideoFrame, format: Format, converter: FrameConverter, size: (width: Int, height: Int)? = nil) {
        let f = frame.frame
        let planar = f.format == AV_PIX_FMT_YUV420P.rawValue || f.format == AV_PIX_FMT_YUVJ420P.rawValue
        let (w, h) = size ?? (f.width, f.height)
        let scaled = w != f.width || h != f.height
        var planes: [Plane] = []
        if format == .yuv420Planar, planar, !scaled {
            // As decoded: copy the three planes.
            let rows = [f.height, (f.height + 1) / 2, (f.height + 1) / 2]
            for i in 0..<3 {
                guard
                    let plane = f.withPlane(
                        i,
                        { data, stride in
                            Plane(
                                bytes: Array(UnsafeBufferPointer(start: data, count: stride * rows[i])),
                                bytesPerRow: stride,
                                height: rows[i])
                        })
                else { return nil }
                planes.append(plane)
            }
        } else {
            guard converter.convert(f, to: w, h) else { return nil }
            let rows = converter.target == .bgra ? [h] : [h, (h + 1) / 2, (h + 1) / 2]
            planes = zip(converter.planes, zip(converter.strides, rows)).map { plane, layout in
                Plane(bytes: Array(plane), bytesPerRow: layout.0, height: layout.1)
            }
        }
        self.format = format
        self.planes = planes
        width = w
        height = h
        presentationTime = frame.time
        presentationSize =
            scaled
            ? (frame.rotation % 180 == 0 ? CGSize(width: w, height: h) : CGSize(width: h, height: w))
            : frame.presentationSize
        rotation = frame.rotation
        // Converted YUV keeps the picture's matrix (swscale converts no matrix between YUV layouts) in full range
        // (`describeColours` asks swscale for full-range output).
        matrix = f.matrix
        isFullRange = format == .yuv420Planar && planar && !scaled ? f.isFullRange : true
    }
}

/// Makes `PixelBuffer`s of one format from pictures, converting with a scaler it keeps. Safe from any thread (one
/// conversion at a time).
package final class PixelBufferMaker: Sendable {
    private let converter: Locked<FrameConverter>
    /// The format made.
    package let format: PixelBuffer.Format

    /// A maker of `format` buffers.
    package init(_ format: PixelBuffer.Format) {
        self.format = format
        converter = Locked(FrameConverter(format == .bgra ? .bgra : .yuv420p))
    }

    /// `frame` copied out in the format; nil when it cannot be converted.
    package func make(_ frame: VideoFrame) -> PixelBuffer? {
        converter.withLock { PixelBuffer(frame, format: format, converter: $0) }
    }

    /// `frame` copied out in the format, in square pixels scaled down to fit `maximumSize` (upright sizes; the
    /// picture's rotation is left to the caller as in `make(_:)`); `.zero`: at its own size, as `make(_:)`.
    package func make(_ frame: VideoFrame, fitting maximumSize: CGSize) -> PixelBuffer? {
        guard maximumSize.width >= 1, maximumSize.height >= 1 else { return make(frame) }
        let upright = frame.presentationSize
        guard upright.width >= 1, upright.height >= 1 else { return make(frame) }
        let scale = min(1, maximumSize.width / upright.width, maximumSize.height / upright.height)
        // Even sizes keep 4:2:0 planes whole.
        let fitted = (
            width: max(2, Int((upright.width * scale / 2).rounded()) * 2),
            height: max(2, Int((upright.height * scale / 2).rounded()) * 2)
        )
        let size = frame.rotation % 180 == 0 ? fitted : (fitted.height, fitted.width)
        return converter.withLock { PixelBuffer(frame, format: format, converter: $0, size: size) }
    }
}
