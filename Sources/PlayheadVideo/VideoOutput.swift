import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadSubtitles

/// One decoded picture and the media time it is shown at. A value type over a reference-counted frame, safe to
/// pass between threads; its pixels are read-only.
public struct VideoFrame: Sendable {
    /// The decoded picture (planar YUV as decoded, usually `yuv420p`).
    public let frame: Frame
    /// The presentation time in the item's timeline.
    public let time: MediaTime
    /// The item the picture belongs to (set by the engine that decoded it), so that a layer knows when the
    /// first picture of a new item is on screen.
    package var item: ObjectIdentifier?
    /// How far the picture must be turned clockwise to be upright (0, 90, 180 or 270 degrees; its stream's display
    /// matrix).
    public var rotation = 0

    /// A frame shown at `time`.
    public init(frame: Frame, time: MediaTime) {
        self.frame = frame
        self.time = time
    }

    /// Width in pixels.
    public var width: Int { frame.width }
    /// Height in pixels.
    public var height: Int { frame.height }

    /// The size the picture is shown at, in square pixels: its width stretched by the sample aspect ratio, turned
    /// upright (width and height swapped for 90 and 270 degrees).
    public var presentationSize: CGSize {
        let w = Double(frame.width) * frame.sampleAspectRatio
        let h = Double(frame.height)
        return rotation % 180 == 0 ? CGSize(width: w, height: h) : CGSize(width: h, height: w)
    }

    /// The luma (Y) value at pixel (x, y), 0...255, for formats whose first plane is 8-bit luma.
    public func luma(x: Int, y: Int) -> UInt8 {
        frame.withPlane(0) { data, stride in data[y * stride + x] } ?? 0
    }
}

/// Where the player's pictures go: a window, a Picture-in-Picture window, a capture for tests, nothing.
/// One player may feed several outputs.
///
/// Threads: `present` and `flush` are called one at a time, in presentation order, at the time each frame should
/// be seen: on the player's video thread, except the first picture of an output attached while an item shows one,
/// which comes at once on the thread that attached it. An output must return quickly (copy or upload, never wait
/// for vsync for long).
public protocol VideoOutput: AnyObject, Sendable {
    /// Shows `frame` now.
    func present(_ frame: VideoFrame)
    /// Forgets queued pictures after a seek or item change (the last shown picture may stay on screen).
    func flush()
    /// The size in pixels at which the output shows video now (a window's drawable area); `.zero` when it shows
    /// no picture to anyone (a capture, `--vo=null`). An HLS item picks no variant much larger than the largest
    /// of its outputs' sizes, unless it sets `preferredMaximumResolution`. Read from the engine's demux thread
    /// before each segment: any thread, and quick.
    var displaySize: CGSize { get }
}

extension VideoOutput {
    /// `.zero`: an output that shows no picture to anyone does not cap the HLS variant.
    public var displaySize: CGSize { .zero }
}

/// A video output that shows nothing, for `--vo=null`: frames are still decoded and paced. Safe from any thread.
public final class NullVideoOutput: VideoOutput, Sendable {
    private let count = Locked(0)

    /// A new null output.
    public init() {}

    /// Counts the frame.
    public func present(_ frame: VideoFrame) { count.withLock { $0 += 1 } }
    /// Nothing to forget.
    public func flush() {}
    /// How many frames were presented.
    public var presentedCount: Int { count.current }
}

extension VideoFrame {
    /// The picture as a PNG file's bytes, as it is shown: at its presentation size (the sample aspect ratio
    /// applied) and upright, with `subtitles` drawn over it as a window draws them (libass; none when libass is
    /// missing): an animated ASS event where it is at this picture's time less `subtitleDelay` (the item's
    /// `subtitleDelay`). Throws when it cannot be converted or encoded. Any thread (it takes a moment for a large
    /// picture: not on the main actor).
    public func pngData(subtitles: [SubtitleCue] = [], subtitleDelay: Double = 0) throws(FFmpegError) -> [UInt8] {
        let width = max(1, Int((Double(frame.width) * frame.sampleAspectRatio).rounded()))
        guard !subtitles.isEmpty else {
            return try PictureEncoder.png(frame, width: width, height: frame.height, rotation: rotation)
        }
        return try PictureEncoder.png(frame, width: width, height: frame.height, rotation: rotation) { rgb, w, h in
            let script = ASSScript.script(for: subtitles, width: w, height: h)
            let fonts = ASSScript.fonts(for: subtitles)
            let at = ASSScript.drawTime(for: subtitles, at: time.seconds - subtitleDelay)
            guard
                let bgra = SubtitleRenderer.forPictures.withLock({
                    $0.render(script, at: at, width: w, height: h, fonts: fonts)
                })
            else {
                return
            }
            // Straight-alpha BGRA over RGB.
            for i in 0..<(w * h) {
                let a = Int(bgra[i * 4 + 3])
                guard a > 0 else { continue }
                for c in 0..<3 {
                    let over = Int(bgra[i * 4 + 2 - c])
                    rgb[i * 3 + c] = UInt8((over * a + Int(rgb[i * 3 + c]) * (255 - a) + 127) / 255)
                }
            }
        }
    }
}
