import CFFmpeg

/// What one call to `Decoder.receive()` produced.
public enum DecodeResult: Sendable {
    /// A decoded frame.
    case frame(Frame)
    /// The decoder needs another packet before it can produce a frame.
    case needsInput
    /// The decoder has been drained (after `send(nil)`) and will produce nothing more until `flush()`.
    case endOfStream
}

/// A decoder for one stream of a `MediaInput`, owning its `AVCodecContext`.
///
/// Used by one thread at a time (the engine's audio or video decode thread).
public final class Decoder: @unchecked Sendable {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    /// The stream this decoder decodes.
    public let stream: StreamInfo

    /// Opens a decoder for stream `index` of `input`; `threads` 0 lets FFmpeg choose.
    public init(input: MediaInput, stream index: Int, threads: Int = 0) throws(FFmpegError) {
        stream = input.streams[index]
        let made: Result<UnsafeMutablePointer<AVCodecContext>, FFmpegError> =
            input.withCodecParameters(stream: index) { par in
                guard let codec = avcodec_find_decoder(par.pointee.codec_id) else {
                    return .failure(FFmpegError(code: ph_averror_decoder_not_found(), function: "avcodec_find_decoder"))
                }
                guard let ctx = avcodec_alloc_context3(codec) else {
                    return .failure(FFmpegError(code: ph_averror(ENOMEM), function: "avcodec_alloc_context3"))
                }
                var c: UnsafeMutablePointer<AVCodecContext>? = ctx
                var r = avcodec_parameters_to_context(ctx, par)
                if r >= 0 {
                    ctx.pointee.pkt_timebase = AVRational(num: stream.timeBase.num, den: stream.timeBase.den)
                    ctx.pointee.thread_count = Int32(threads)
                    r = avcodec_open2(ctx, codec, nil)
                }
                if r < 0 {
                    avcodec_free_context(&c)
                    return .failure(FFmpegError(code: r, function: "avcodec_open2"))
                }
                return .success(ctx)
            } ?? .failure(FFmpegError(code: ph_averror(EINVAL), function: "avcodec_parameters_to_context"))
        context = try made.get()
        FFmpegCounters.decoderCreated()
    }

    deinit { avcodec_free_context(&context) }

    /// Sends one packet, or nil to drain. Throws on a real decoding error; returns false when the decoder must
    /// first give out frames (`EAGAIN`).
    @discardableResult
    public func send(_ packet: Packet?) throws(FFmpegError) -> Bool {
        let r = avcodec_send_packet(context, packet?.pointer)
        if r == FFmpegError.tryAgain { return false }
        if r == FFmpegError.endOfFile { return true }
        try check(r, "avcodec_send_packet")
        return true
    }

    /// Takes the next decoded frame, if any.
    public func receive() throws(FFmpegError) -> DecodeResult {
        let frame = try Frame()
        let r = avcodec_receive_frame(context, frame.pointer)
        if r == FFmpegError.tryAgain { return .needsInput }
        if r == FFmpegError.endOfFile { return .endOfStream }
        try check(r, "avcodec_receive_frame")
        return .frame(frame)
    }

    /// Decodes `packet` (nil drains at the end of the stream) and hands every frame it yields to `body`, feeding
    /// again after taking frames when the decoder is full (`EAGAIN`), so no packet is ever dropped. `body` returns
    /// false to stop early (the remaining frames stay in the decoder).
    public func decode(_ packet: Packet?, _ body: (Frame) throws -> Bool) throws {
        var sent = false
        while true {
            if !sent { sent = try send(packet) }
            switch try receive() {
            case .frame(let frame):
                if try !body(frame) { return }
            case .needsInput, .endOfStream:
                if sent { return }
            }
        }
    }

    /// Drops all buffered state, as after a seek.
    public func flush() { avcodec_flush_buffers(context) }
}
