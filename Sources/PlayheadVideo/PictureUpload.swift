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
    private var scaler: OpaquePointer?
    private var bgra: [UInt8] = []
    private var scalerKey: Key?

    /// What a scaler was made for.
    private struct Key: Equatable {
        var format: Int32
        var width, height, outWidth, outHeight: Int
        var space: UInt32
        var full: Bool
    }

    deinit { sws_freeContext(scaler) }

    /// Copies `frame` into `window`'s texture; returns the texture's size, nil (with nothing shown) when the
    /// picture cannot be converted or uploaded. A picture larger than the renderer's largest texture is scaled
    /// down to fit it (swscale), its aspect ratio kept.
    func upload(_ frame: Frame, to window: OpaquePointer) -> (width: Int, height: Int)? {
        guard frame.width > 0, frame.height > 0 else { return nil }
        var maxW: Int32 = 0
        var maxH: Int32 = 0
        ph_window_max_texture(window, &maxW, &maxH)
        let (width, height) = Self.fitted(frame.width, frame.height, Int(maxW), Int(maxH))
        let scaled = width != frame.width || height != frame.height
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
        guard convert(frame, to: width, height) else { return nil }
        let done = bgra.withUnsafeBufferPointer { buffer -> Int32 in
            let planes: [UnsafePointer<UInt8>?] = [buffer.baseAddress, nil, nil]
            let pitches: [Int32] = [Int32(width * 4), 0, 0]
            return planes.withUnsafeBufferPointer { p in
                ph_window_upload(
                    window, Int32(PH_PICTURE_BGRA), Int32(PH_MATRIX_BT601), Int32(width), Int32(height),
                    p.baseAddress, pitches)
            }
        }
        return done == 0 ? (width, height) : nil
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

    /// Converts `frame` to BGRA of `width` x `height` in `bgra` with its own matrix and range.
    private func convert(_ frame: Frame, to width: Int, _ height: Int) -> Bool {
        let space = frame.colorSpace
        let full = frame.isFullRange
        let key = Key(
            format: frame.format, width: frame.width, height: frame.height, outWidth: width, outHeight: height,
            space: space, full: full)
        if scalerKey != key {
            sws_freeContext(scaler)
            scaler = sws_getContext(
                Int32(frame.width), Int32(frame.height), AVPixelFormat(frame.format), Int32(width), Int32(height),
                AV_PIX_FMT_BGRA, SWS_BILINEAR, nil, nil, nil)
            guard let scaler else {
                scalerKey = nil
                return false
            }
            frame.describeColours(to: scaler)
            scalerKey = key
            bgra = [UInt8](repeating: 0, count: width * height * 4)
        }
        guard let scaler else { return false }
        return frame.withUnsafeAVFrame { f -> Bool in
            bgra.withUnsafeMutableBufferPointer { out -> Bool in
                var destination: [UnsafeMutablePointer<UInt8>?] = [out.baseAddress, nil, nil, nil]
                var strides: [Int32] = [Int32(width * 4), 0, 0, 0]
                let rows = withUnsafePointer(to: f.pointee.data) { data in
                    withUnsafePointer(to: f.pointee.linesize) { lines in
                        data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { src in
                            lines.withMemoryRebound(to: Int32.self, capacity: 8) { stride in
                                sws_scale(scaler, src, stride, 0, Int32(frame.height), &destination, &strides)
                            }
                        }
                    }
                }
                return rows == Int32(height)
            }
        }
    }
}
