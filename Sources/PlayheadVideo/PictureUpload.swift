import CFFmpeg
import CSDL2
import Foundation
import PlayheadFFmpeg

/// Puts decoded pictures into a window's texture: 8-bit 4:2:0 (I420, NV12) in BT.601 or BT.709 limited range, or
/// BT.601 full range, goes to the GPU as it is (SDL converts to RGB there); every other layout, depth or matrix
/// (10-bit, 4:2:2, 4:4:4, RGB, full-range BT.709, BT.2020) is converted to BGRA by swscale first.
///
/// Threads: the display thread of the window it uploads for, only.
final class PictureUpload {
    private let converter = FrameConverter(.bgra)
    private let twoStep = TwoStepConverter()

    /// Copies `frame` into `window`'s texture; returns the texture's size, nil (with nothing shown) when the
    /// picture cannot be converted or uploaded. A picture larger than the renderer's largest texture is scaled
    /// down to fit it (swscale), its aspect ratio kept. With `size` (a renderer without a GPU), it is converted
    /// and scaled by swscale to that size, to be drawn 1:1.
    func upload(_ frame: Frame, to window: OpaquePointer, size: (Int, Int)? = nil) -> (width: Int, height: Int)? {
        guard frame.width > 0, frame.height > 0 else { return nil }
        var maxW: Int32 = 0
        var maxH: Int32 = 0
        ph_window_max_texture(window, &maxW, &maxH)
        let wanted = size.map { (max(1, min($0.0, 16384)), max(1, min($0.1, 16384))) } ?? (frame.width, frame.height)
        let (width, height) = Self.fitted(wanted.0, wanted.1, Int(maxW), Int(maxH))
        let scaled = size != nil || width != frame.width || height != frame.height
        if !scaled, let direct = Self.directLayout(of: frame) {
            var planes: [UnsafePointer<UInt8>?] = [nil, nil, nil]
            var pitches: [Int32] = [0, 0, 0]
            for i in 0..<3 {
                frame.withPlane(i) { data, stride in
                    planes[i] = data
                    pitches[i] = Int32(stride)
                }
            }
            // The planes stay valid: `frame` holds its buffers for the whole call.
            let done = planes.withUnsafeBufferPointer { p in
                ph_window_upload(
                    window, direct.layout, direct.matrix, Int32(width), Int32(height), p.baseAddress, pitches)
            }
            return done == 0 ? (width, height) : nil
        }
        // swscale writes straight into the texture's rows (the software renderer's own memory: no copy more). Its
        // conversions without scaling write rows in blocks of 16 pixels: the texture is as much wider (not drawn).
        var pixels: UnsafeMutablePointer<UInt8>?
        var pitch: Int32 = 0
        var rows: Int32 = 0
        guard ph_window_lock_picture(window, Int32(width), Int32(height), &pixels, &pitch, &rows) == 0, let pixels
        else { return nil }
        defer { ph_window_unlock_picture(window) }
        if twoStep.convert(frame, to: width, height, into: pixels, pitch: Int(pitch), rows: Int(rows)) {
            return (width, height)
        }
        return converter.convert(frame, to: width, height, into: pixels, pitch: Int(pitch)) ? (width, height) : nil
    }

    /// `width` x `height` scaled down (aspect kept, at least 1x1) to fit `maxWidth` x `maxHeight` (0: no limit).
    static func fitted(_ width: Int, _ height: Int, _ maxWidth: Int, _ maxHeight: Int) -> (Int, Int) {
        var scale = 1.0
        if maxWidth > 0, width > maxWidth { scale = min(scale, Double(maxWidth) / Double(width)) }
        if maxHeight > 0, height > maxHeight { scale = min(scale, Double(maxHeight) / Double(height)) }
        guard scale < 1 else { return (width, height) }
        return (max(1, Int(Double(width) * scale)), max(1, Int(Double(height) * scale)))
    }

    /// The texture layout and YUV matrix for a picture SDL can take as it is, nil for one swscale must convert.
    static func directLayout(of frame: Frame) -> (layout: Int32, matrix: Int32)? {
        let format = frame.format
        let layout: Int32
        switch format {
        case AV_PIX_FMT_YUV420P.rawValue, AV_PIX_FMT_YUVJ420P.rawValue: layout = Int32(PH_PICTURE_I420)
        case AV_PIX_FMT_NV12.rawValue: layout = Int32(PH_PICTURE_NV12)
        default: return nil
        }
        switch (frame.matrix, frame.isFullRange) {
        case (.bt601, false): return (layout, Int32(PH_MATRIX_BT601))
        case (.bt709, false): return (layout, Int32(PH_MATRIX_BT709))
        case (.bt601, true): return (layout, Int32(PH_MATRIX_JPEG))
        default: return nil
        }
    }
}
