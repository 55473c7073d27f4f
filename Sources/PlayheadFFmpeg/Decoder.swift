import CFFmpeg

/// What one call to `Decoder.receive()` produced.
enum DecodeResult: Sendable {
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
    /// The stream this decoder decodes (as its input first described it).
    public let stream: StreamInfo
    private let threads: Int
    /// The parameters of the part the last packet came from (a chained input's), to see a codec change.
    private var parameters: CodecParameters?

    /// Opens a decoder for stream `index` of `input`; `threads` 0 lets FFmpeg choose.
    public init(input: MediaInput, stream index: Int, threads: Int = 0) throws(FFmpegError) {
        stream = input.streams[index]
        self.threads = threads
        let timeBase = AVRational(num: stream.timeBase.num, den: stream.timeBase.den)
        let made: Result<UnsafeMutablePointer<AVCodecContext>, FFmpegError> =
            input.withCodecParameters(stream: index) { par in
                Result { () throws(FFmpegError) in try Self.open(par, timeBase: timeBase, threads: threads) }
            } ?? .failure(FFmpegError(code: ph_averror(EINVAL), function: "avcodec_parameters_to_context"))
        context = try made.get()
        FFmpegCounters.decoderCreated()
    }

    deinit { avcodec_free_context(&context) }

    private static func open(
        _ par: UnsafePointer<AVCodecParameters>, timeBase: AVRational, threads: Int
    ) throws(FFmpegError) -> UnsafeMutablePointer<AVCodecContext> {
        guard let codec = avcodec_find_decoder(par.pointee.codec_id) else {
            throw FFmpegError(code: ph_averror_decoder_not_found(), function: "avcodec_find_decoder")
        }
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw FFmpegError(code: ph_averror(ENOMEM), function: "avcodec_alloc_context3")
        }
        var c: UnsafeMutablePointer<AVCodecContext>? = ctx
        var r = avcodec_parameters_to_context(ctx, par)
        if r >= 0 {
            ctx.pointee.pkt_timebase = timeBase
            ctx.pointee.thread_count = Int32(threads)
            r = avcodec_open2(ctx, codec, nil)
        }
        if r < 0 {
            avcodec_free_context(&c)
            throw FFmpegError(code: r, function: "avcodec_open2")
        }
        return ctx
    }

    /// Sends one packet, or nil to drain. Throws on a real decoding error; returns false when the decoder must
    /// first give out frames (`EAGAIN`).
    private func send(_ packet: Packet?) throws(FFmpegError) -> Bool {
        let r = avcodec_send_packet(context, packet?.pointer)
        if r == FFmpegError.tryAgain { return false }
        if r == FFmpegError.endOfFile { return true }
        try check(r, "avcodec_send_packet")
        return true
    }

    /// Takes the next decoded frame, if any.
    private func receive() throws(FFmpegError) -> DecodeResult {
        let frame = try Frame()
        let r = avcodec_receive_frame(context, frame.pointer)
        if r == FFmpegError.tryAgain { return .needsInput }
        if r == FFmpegError.endOfFile { return .endOfStream }
        try check(r, "avcodec_receive_frame")
        return .frame(frame)
    }

    /// When `packet` comes from a part of a chained input whose stream changed codec (an HLS discontinuity into
    /// another codec), gives out what the old codec still holds and opens the new one in its place. False when
    /// `body` asked to stop while the old codec was being drained.
    private func followCodec(of packet: Packet?, _ body: (Frame) throws -> Bool) throws -> Bool {
        guard let packet, let next = packet.codec, next !== parameters || packet.startsStream else { return true }
        guard let context,
            packet.startsStream || next.codecID != context.pointee.codec_id || Self.needsReopening(context, for: next)
        else {
            parameters = next
            return true
        }
        _ = try send(nil)
        while case .frame(let frame) = try receive() {
            if try !body(frame) { return false }
        }
        let timeBase = AVRational(num: stream.timeBase.num, den: stream.timeBase.den)
        let opened = try Self.open(next.pointer, timeBase: timeBase, threads: threads)
        avcodec_free_context(&self.context)
        self.context = opened
        parameters = next
        FFmpegCounters.decoderCreated()
        return true
    }

    /// Whether a part in the same codec must open a new decoder: a codec whose whole setup is in its headers
    /// (Vorbis's codebooks, Opus's pre-skip and channel mapping, FLAC's stream info), brought as other extradata
    /// (the next song of a chained Ogg file, encoded otherwise). FFmpeg's decoders of these ignore new extradata
    /// handed with a packet and go on with the old setup: a Vorbis song at 48 kHz after one at 44.1 kHz played
    /// at the wrong pitch. Others (H.264, AAC) take it with the packet, and keep their state.
    private static func needsReopening(_ context: UnsafeMutablePointer<AVCodecContext>, for next: CodecParameters)
        -> Bool
    {
        let setupInHeaders: Set<AVCodecID> = [
            AV_CODEC_ID_VORBIS, AV_CODEC_ID_OPUS, AV_CODEC_ID_FLAC, AV_CODEC_ID_SPEEX,
        ]
        guard setupInHeaders.contains(next.codecID) else { return false }
        let current =
            context.pointee.extradata.map {
                [UInt8](UnsafeBufferPointer(start: $0, count: Int(context.pointee.extradata_size)))
            } ?? []
        return current != next.extradata
    }

    /// Decodes `packet` (nil drains at the end of the stream) and hands every frame it yields to `body`, feeding
    /// again after taking frames when the decoder is full (`EAGAIN`), so no packet is ever dropped. `body` returns
    /// false to stop early (the remaining frames stay in the decoder). A packet in another codec than the one
    /// decoding (a chained input's new part, `Packet.codec`) first drains the old codec into `body`, then opens
    /// the new one in its place.
    public func decode(_ packet: Packet?, _ body: (Frame) throws -> Bool) throws {
        if let packet, packet.startsStream, packet.codec == nil {
            guard try drainAndFlush(body) else { return }
        }
        guard try followCodec(of: packet, body) else { return }
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

    /// Gives out what the decoder holds, then drops its state (a stream of its own begins, `Packet.startsStream`).
    /// False when `body` asked to stop first.
    private func drainAndFlush(_ body: (Frame) throws -> Bool) throws -> Bool {
        _ = try send(nil)
        while case .frame(let frame) = try receive() {
            if try !body(frame) { return false }
        }
        avcodec_flush_buffers(context)
        return true
    }

    /// Drops all buffered state, as after a seek.
    public func flush() { avcodec_flush_buffers(context) }
}
