import CFFmpeg

/// One compressed packet read from an input, owning its `AVPacket`.
///
/// Created on the demux thread and handed to one decoder thread; not mutated after it is read, so it may cross
/// threads.
public final class Packet: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVPacket>
    /// The codec parameters of the part of a chained input this packet was read from (an HLS stream whose
    /// discontinuity changed codec), which its decoder follows; nil for other inputs. Set before the packet is
    /// handed out.
    public internal(set) var codec: CodecParameters?
    /// The first packet of a stream of its own (a chained Ogg file's next song): its decoder gives out what it
    /// holds and starts afresh, opened from `codec` when the packet carries parameters (a part opened on its own),
    /// else flushed (its setup came in band), instead of going on from the last song's state. Set before the packet
    /// is handed out.
    public internal(set) var startsStream = false

    /// An empty packet (for demuxers, and for tests that need a packet's identity, not its data). Any thread.
    package init() throws(FFmpegError) {
        guard let p = av_packet_alloc() else {
            throw FFmpegError(code: ph_averror(ENOMEM), function: "av_packet_alloc")
        }
        pointer = p
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        av_packet_free(&p)
    }

    /// The index of the stream in its input.
    public var streamIndex: Int { Int(pointer.pointee.stream_index) }
    /// The size in bytes of the compressed data.
    public var size: Int { Int(pointer.pointee.size) }
    /// Whether the packet starts a keyframe.
    public var isKeyframe: Bool { pointer.pointee.flags & ph_pkt_flag_key() != 0 }
    /// The presentation time stamp in stream time-base units, or nil when unknown.
    public var pts: Int64? { pointer.pointee.pts == ph_nopts_value() ? nil : pointer.pointee.pts }
    /// The decode time stamp in stream time-base units, or nil when unknown.
    public var dts: Int64? { pointer.pointee.dts == ph_nopts_value() ? nil : pointer.pointee.dts }
    /// The duration in stream time-base units (0 when unknown).
    public var duration: Int64 { pointer.pointee.duration }
    /// A copy of the payload (a subtitle packet's text, for instance).
    public var payload: [UInt8] {
        guard let data = pointer.pointee.data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }
    /// A WebVTT cue's settings ("line:0 position:20% align:start"), which FFmpeg's demuxers hand beside the cue
    /// text (`AV_PKT_DATA_WEBVTT_SETTINGS`: Matroska and WebM); nil when the packet carries none. Any thread.
    public var webVTTSettings: String? { sideDataText(AV_PKT_DATA_WEBVTT_SETTINGS) }
    /// A WebVTT cue's identifier (`AV_PKT_DATA_WEBVTT_IDENTIFIER`); nil when the packet carries none. Any thread.
    public var webVTTIdentifier: String? { sideDataText(AV_PKT_DATA_WEBVTT_IDENTIFIER) }

    private func sideDataText(_ type: AVPacketSideDataType) -> String? {
        var count = 0
        guard let data = av_packet_get_side_data(pointer, type, &count), count > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: data, count: count), as: UTF8.self)
    }
}

/// One decoded frame, owning its `AVFrame` (reference counted buffers).
///
/// Created on a decoder thread and then only read, so it may cross threads.
public final class Frame: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVFrame>

    /// An empty frame (for decoders, and for tests that need a frame's identity, not its pixels). Any thread.
    package init() throws(FFmpegError) {
        guard let f = av_frame_alloc() else { throw FFmpegError(code: ph_averror(ENOMEM), function: "av_frame_alloc") }
        pointer = f
    }

    deinit {
        var f: UnsafeMutablePointer<AVFrame>? = pointer
        av_frame_free(&f)
    }

    /// The best-effort presentation time stamp in the stream's time base, or nil when unknown.
    public var pts: Int64? {
        let t = pointer.pointee.best_effort_timestamp
        if t != ph_nopts_value() { return t }
        return pointer.pointee.pts == ph_nopts_value() ? nil : pointer.pointee.pts
    }
    /// The width in pixels (video).
    public var width: Int { Int(pointer.pointee.width) }
    /// The height in pixels (video).
    public var height: Int { Int(pointer.pointee.height) }
    /// Samples per channel (audio).
    public var sampleCount: Int { Int(pointer.pointee.nb_samples) }
    /// Audio samples per second (0 for video).
    public var sampleRate: Int { Int(pointer.pointee.sample_rate) }
    /// The `AVPixelFormat` or `AVSampleFormat` raw value.
    public var format: Int32 { pointer.pointee.format }
    /// The sample (pixel) aspect ratio as width over height of one pixel; 1 when unknown or invalid (video).
    public var sampleAspectRatio: Double {
        let r = pointer.pointee.sample_aspect_ratio
        guard r.num > 0, r.den > 0 else { return 1 }
        let value = Double(r.num) / Double(r.den)
        // A ratio beyond 1:100 or 100:1 is a broken header, not a picture anyone made.
        return value >= 0.01 && value <= 100 ? value : 1
    }
    /// The YUV matrix the picture was encoded with (`AVColorSpace` raw value; 2 when unspecified).
    public var colorSpace: UInt32 { pointer.pointee.colorspace.rawValue }
    /// True when the picture uses the full 0...255 range (JPEG range) instead of video's 16...235.
    public var isFullRange: Bool {
        pointer.pointee.color_range == AVCOL_RANGE_JPEG || format == AV_PIX_FMT_YUVJ420P.rawValue
            || format == AV_PIX_FMT_YUVJ422P.rawValue || format == AV_PIX_FMT_YUVJ444P.rawValue
    }
    /// The frame's duration in its stream's time base, 0 when unknown.
    public var duration: Int64 { pointer.pointee.pkt_duration }

    /// The closed caption bytes the picture carries (ATSC A/53 `cc_data` triplets, which the H.264, HEVC and
    /// MPEG-2 decoders export as `AV_FRAME_DATA_A53_CC` side data); nil when it carries none. A copy; any thread.
    public var closedCaptionData: [UInt8]? {
        guard let side = av_frame_get_side_data(pointer, AV_FRAME_DATA_A53_CC), let data = side.pointee.data,
            side.pointee.size > 0
        else { return nil }
        return Array(UnsafeBufferPointer(start: data, count: Int(side.pointee.size)))
    }

    /// Keeps only the first `count` samples of an audio frame (trimming encoder padding at a stream's end); a
    /// count not below `sampleCount` changes nothing. Call on the thread that owns the frame.
    public func keepSamples(_ count: Int) {
        guard count >= 0, count < sampleCount else { return }
        pointer.pointee.nb_samples = Int32(count)
    }

    /// Calls `body` with plane `index`'s bytes and its line size (bytes per row, may exceed the width).
    /// The pointer is valid only inside `body`.
    public func withPlane<R>(_ index: Int, _ body: (UnsafePointer<UInt8>, Int) throws -> R) rethrows -> R? {
        let data = withUnsafeBytes(of: pointer.pointee.data) {
            $0.load(fromByteOffset: index * 8, as: UnsafeMutablePointer<UInt8>?.self)
        }
        let line = withUnsafeBytes(of: pointer.pointee.linesize) { $0.load(fromByteOffset: index * 4, as: Int32.self) }
        guard let data else { return nil }
        return try body(UnsafePointer(data), Int(line))
    }

    /// The raw `AVFrame`, valid only inside `body`, for wrappers in this package and video renderers.
    public func withUnsafeAVFrame<R>(_ body: (UnsafePointer<AVFrame>) throws -> R) rethrows -> R {
        try body(pointer)
    }
}
