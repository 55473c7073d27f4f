import CFFmpeg
import Foundation
import PlayheadFFmpeg

/// Scales 8-bit 4:2:0 pictures and converts them to BGRA in two steps, each on one of swscale's SIMD paths: scaled
/// in YUV first (each plane at its own resolution, into planes it keeps), then converted to BGRA at that size.
/// Scaling straight to BGRA runs swscale's generic vertical filter for every output pixel: about twice the time
/// (1280x720 to 1152x648 on the project machine: 2.6 ms a picture against 1.4 ms).
///
/// The conversion runs at even sizes (swscale converts odd ones in plain C, slower than one step) and writes each
/// row in blocks of 16 pixels, past the row's end: a picture of odd width or height is converted one column or row
/// larger (from the scaled planes' padding), and the memory it goes to must have room for `rowRoom(width)` pixels
/// a row and `rows(height)` rows. Only the picture's own pixels are right; the rest is not to be shown.
///
/// Threads: one at a time (its owner's).
final class TwoStepConverter {
    private var scaler: OpaquePointer?
    private var converter: OpaquePointer?
    private var key: Key?
    /// The scaled YUV planes (owned here, with room to read past each row), and each one's bytes per row.
    private var planes: [UnsafeMutableRawPointer] = []
    private var strides: [Int] = []

    private struct Key: Equatable {
        var format: Int32
        var width, height, outWidth, outHeight: Int
        var space: UInt32
        var full: Bool
    }

    deinit {
        sws_freeContext(scaler)
        sws_freeContext(converter)
        for plane in planes { plane.deallocate() }
    }

    /// The pixels a row of a converted picture `width` wide must have room for.
    static func rowRoom(_ width: Int) -> Int { (width + 15) / 16 * 16 }

    /// The rows a converted picture `height` high must have room for.
    static func rows(_ height: Int) -> Int { (height + 1) / 2 * 2 }

    /// Whether `frame` scaled to `width` x `height` takes the two steps: an 8-bit 4:2:0 picture whose size changes.
    static func handles(_ frame: Frame, _ width: Int, _ height: Int) -> Bool {
        guard width > 0, height > 0 else { return false }
        guard width != frame.width || height != frame.height else { return false }
        return middleFormat(frame.format) != nil
    }

    /// The layout a picture of `format` is scaled in: its own planar one (the range kept as it is), nil for a
    /// format this converter does not take.
    private static func middleFormat(_ format: Int32) -> AVPixelFormat? {
        switch format {
        case AV_PIX_FMT_YUV420P.rawValue, AV_PIX_FMT_NV12.rawValue, AV_PIX_FMT_NV21.rawValue: AV_PIX_FMT_YUV420P
        case AV_PIX_FMT_YUVJ420P.rawValue: AV_PIX_FMT_YUVJ420P
        default: nil
        }
    }

    /// Scales `frame` to `width` x `height` and converts it to BGRA into `pixels` (`rows` rows `pitch` bytes apart);
    /// false when it cannot (nothing written), or when there is less room than `rowRoom(width)` pixels a row and
    /// `rows(height)` rows.
    func convert(
        _ frame: Frame, to width: Int, _ height: Int, into pixels: UnsafeMutablePointer<UInt8>, pitch: Int, rows: Int
    ) -> Bool {
        let evenHeight = Self.rows(height)
        guard Self.handles(frame, width, height), pitch >= Self.rowRoom(width) * 4, rows >= evenHeight,
            prepare(frame, width, height), let scaler, let converter
        else { return false }
        var middle = planes.map { UnsafeMutablePointer<UInt8>?($0.assumingMemoryBound(to: UInt8.self)) } + [nil]
        var middleStrides = strides.map { Int32($0) } + [0]
        let scaled = frame.withUnsafeAVFrame { f -> Int32 in
            withUnsafePointer(to: f.pointee.data) { data in
                withUnsafePointer(to: f.pointee.linesize) { lines in
                    data.withMemoryRebound(to: UnsafePointer<UInt8>?.self, capacity: 8) { src in
                        lines.withMemoryRebound(to: Int32.self, capacity: 8) { stride in
                            sws_scale(scaler, src, stride, 0, Int32(frame.height), &middle, &middleStrides)
                        }
                    }
                }
            }
        }
        guard scaled == Int32(height) else { return false }
        var source = middle.map { $0.map { UnsafePointer<UInt8>($0) } }
        var out: [UnsafeMutablePointer<UInt8>?] = [pixels, nil, nil, nil]
        var outStrides: [Int32] = [Int32(pitch), 0, 0, 0]
        return sws_scale(converter, &source, &middleStrides, 0, Int32(evenHeight), &out, &outStrides)
            == Int32(evenHeight)
    }

    /// Makes the scaler, the converter and the planes for `frame` to `width` x `height` when they changed.
    private func prepare(_ frame: Frame, _ width: Int, _ height: Int) -> Bool {
        let k = Key(
            format: frame.format, width: frame.width, height: frame.height, outWidth: width, outHeight: height,
            space: frame.colorSpace, full: frame.isFullRange)
        guard key != k else { return scaler != nil && converter != nil }
        sws_freeContext(scaler)
        sws_freeContext(converter)
        (scaler, converter, key) = (nil, nil, nil)
        for plane in planes { plane.deallocate() }
        planes = []
        guard let middle = Self.middleFormat(frame.format) else { return false }
        let (w, h) = (Int32(width), Int32(height))
        let (ew, eh) = (Int32((width + 1) / 2 * 2), Int32(Self.rows(height)))
        // Same range in and out: the scaler leaves the values as they are; the converter reads them as the
        // picture's own.
        scaler = sws_getContext(
            Int32(frame.width), Int32(frame.height), AVPixelFormat(frame.format), w, h, middle, SWS_BILINEAR, nil, nil,
            nil)
        converter = sws_getContext(ew, eh, middle, ew, eh, AV_PIX_FMT_BGRA, SWS_BILINEAR, nil, nil, nil)
        guard scaler != nil, let converter else { return false }
        frame.describeColours(to: converter)
        let chroma = Self.rowRoom((width + 1) / 2)
        strides = [Self.rowRoom(width), chroma, chroma]
        // A row more than the picture's (the converter's even height, and it reads rows in blocks of 16 pixels).
        let rows = [height + 1, (height + 1) / 2 + 1, (height + 1) / 2 + 1]
        planes = zip(strides, rows).map { stride, rows in
            let plane = UnsafeMutableRawPointer.allocate(byteCount: stride * rows, alignment: 64)
            plane.initializeMemory(as: UInt8.self, repeating: 0, count: stride * rows)
            return plane
        }
        key = k
        return true
    }
}
