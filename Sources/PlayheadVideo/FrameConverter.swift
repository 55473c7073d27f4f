import CFFmpeg
import Foundation
import PlayheadFFmpeg

/// Converts decoded pictures to one pixel layout and size with swscale (the picture's own matrix and range taken
/// into account), into buffers it keeps: BGRA (one plane) or 8-bit planar YUV 4:2:0 (three planes). The scaler is
/// made again only when the picture's format, size or colours change.
///
/// Threads: one at a time (its owner's thread or lock).
final class FrameConverter {
    /// A layout pictures are converted to.
    enum Target: Equatable {
        /// Blue, green, red, alpha bytes (`AV_PIX_FMT_BGRA`).
        case bgra
        /// Y, then U and V at half the width and height (`AV_PIX_FMT_YUV420P`).
        case yuv420p
    }

    let target: Target
    private var scaler: OpaquePointer?
    private var key: Key?
    /// The converted picture's planes (owned here, valid until the next conversion), and each one's bytes per row.
    private(set) var planes: [UnsafeMutableBufferPointer<UInt8>] = []
    private(set) var strides: [Int] = []

    private struct Key: Equatable {
        var format: Int32
        var width, height, outWidth, outHeight: Int
        var space: UInt32
        var full: Bool
    }

    init(_ target: Target) { self.target = target }

    deinit {
        sws_freeContext(scaler)
        for plane in planes { plane.deallocate() }
    }

    /// Converts `frame` to `width` x `height` of the target layout into `planes`; false when swscale cannot.
    func convert(_ frame: Frame, to width: Int, _ height: Int) -> Bool {
        guard prepare(frame, width, height) else { return false }
        return scale(frame, height, into: planes.map { $0.baseAddress }, strides: strides)
    }

    /// Converts `frame` to `width` x `height` BGRA straight into `pixels` (rows `pitch` bytes apart: a locked
    /// texture's memory); false when swscale cannot.
    func convert(_ frame: Frame, to width: Int, _ height: Int, into pixels: UnsafeMutablePointer<UInt8>, pitch: Int)
        -> Bool
    {
        guard target == .bgra, prepare(frame, width, height) else { return false }
        return scale(frame, height, into: [pixels], strides: [pitch])
    }

    /// Makes the scaler (and the planes) for `frame` to `width` x `height` when they changed.
    private func prepare(_ frame: Frame, _ width: Int, _ height: Int) -> Bool {
        guard frame.width > 0, frame.height > 0, width > 0, height > 0 else { return false }
        let k = Key(
            format: frame.format, width: frame.width, height: frame.height, outWidth: width, outHeight: height,
            space: frame.colorSpace, full: frame.isFullRange)
        guard key != k else { return scaler != nil }
        sws_freeContext(scaler)
        let format = target == .bgra ? AV_PIX_FMT_BGRA : AV_PIX_FMT_YUV420P
        scaler = sws_getContext(
            Int32(frame.width), Int32(frame.height), AVPixelFormat(frame.format), Int32(width), Int32(height),
            format, SWS_BILINEAR, nil, nil, nil)
        guard let scaler else {
            key = nil
            return false
        }
        frame.describeColours(to: scaler)
        key = k
        let (cw, ch) = ((width + 1) / 2, (height + 1) / 2)
        strides = target == .bgra ? [width * 4] : [width, cw, cw]
        let rows = target == .bgra ? [height] : [height, ch, ch]
        for plane in planes { plane.deallocate() }
        // 64 bytes more: swscale's conversions without scaling write each row in blocks of 16 pixels, the last
        // one's past the end.
        planes = zip(strides, rows).map { stride, rows in
            let plane = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: stride * rows + 64)
            plane.initialize(repeating: 0)
            return UnsafeMutableBufferPointer(rebasing: plane[..<(stride * rows)])
        }
        return true
    }

    /// Runs the scaler from `frame` into `destination` (one pointer and stride per plane).
    private func scale(
        _ frame: Frame, _ height: Int, into destination: [UnsafeMutablePointer<UInt8>?], strides: [Int]
    ) -> Bool {
        guard let scaler else { return false }
        var out = destination + [UnsafeMutablePointer<UInt8>?](repeating: nil, count: 4 - destination.count)
        var lineSizes = strides.map { Int32($0) } + [Int32](repeating: 0, count: 4 - strides.count)
        return frame.withUnsafeAVFrame { f -> Bool in
            let rows = withUnsafePointer(to: f.pointee.data) { data in
                withUnsafePointer(to: f.pointee.linesize) { lines in
                    data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { src in
                        lines.withMemoryRebound(to: Int32.self, capacity: 8) { stride in
                            sws_scale(scaler, src, stride, 0, Int32(frame.height), &out, &lineSizes)
                        }
                    }
                }
            }
            return rows == Int32(height)
        }
    }
}
