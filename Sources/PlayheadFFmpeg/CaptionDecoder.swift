import CFFmpeg

/// FFmpeg's CEA-608 decoder (`cc_dec`, `AV_CODEC_ID_EIA_608`) for the captions of field 1 (CC1), fed the `cc_data`
/// of each picture in presentation order (`Frame.closedCaptionData`).
///
/// It runs in FFmpeg's real-time mode: each time the caption on screen changes (a pop-on caption flipped on by
/// its end-of-caption code, an erase, a roll-up line), the packet that changed it yields the whole screen as one
/// ASS event. (In its default mode it yields a caption only once it has left the screen, with its start and end:
/// too late for a player that decodes a few pictures ahead.) The change happens at the picture that carried it:
/// the caller stamps it with that picture's time (FFmpeg 5.1 gives the previous change's time in `pts`).
///
/// Used by one thread at a time (the engine's video decode thread).
public final class CaptionDecoder: @unchecked Sendable {
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private let packet: Packet

    /// Opens a CEA-608 decoder for the first field's captions. Throws when this FFmpeg has none.
    public init() throws(FFmpegError) {
        guard let codec = avcodec_find_decoder(AV_CODEC_ID_EIA_608) else {
            throw FFmpegError(code: ph_averror_decoder_not_found(), function: "avcodec_find_decoder")
        }
        guard let ctx = avcodec_alloc_context3(codec) else {
            throw FFmpegError(code: ph_averror(ENOMEM), function: "avcodec_alloc_context3")
        }
        var c: UnsafeMutablePointer<AVCodecContext>? = ctx
        var options: OpaquePointer? = nil
        defer { av_dict_free(&options) }
        av_dict_set(&options, "real_time", "1", 0)
        // Every change as it comes (by default at most one each 200 ms, a later picture's time for the next).
        av_dict_set(&options, "real_time_latency_msec", "0", 0)
        av_dict_set(&options, "data_field", "first", 0)
        ctx.pointee.pkt_timebase = AVRational(num: 1, den: 90_000)
        let r = avcodec_open2(ctx, codec, &options)
        if r < 0 {
            avcodec_free_context(&c)
            throw FFmpegError(code: r, function: "avcodec_open2")
        }
        context = ctx
        packet = try Packet()
        FFmpegCounters.decoderCreated()
    }

    deinit { avcodec_free_context(&context) }

    /// Decodes one picture's `cc_data` (`seconds`: its time, for the decoder's own bookkeeping). Returns the
    /// screen's ASS event ("ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text") when the caption on
    /// screen changed with it, its text empty when the screen was erased; nil when nothing changed.
    public func decode(_ ccData: [UInt8], seconds: Double) throws(FFmpegError) -> String? {
        guard !ccData.isEmpty else { return nil }
        let p = packet.pointer
        av_packet_unref(p)
        try check(av_new_packet(p, Int32(ccData.count)), "av_new_packet")
        ccData.withUnsafeBufferPointer { source in
            guard let base = source.baseAddress else { return }
            p.pointee.data.update(from: base, count: ccData.count)
        }
        p.pointee.pts = seconds.isFinite ? Int64((seconds * 90_000).rounded()) : ph_nopts_value()
        var subtitle = AVSubtitle()
        var got: Int32 = 0
        let r = avcodec_decode_subtitle2(context, &subtitle, &got, p)
        av_packet_unref(p)
        try check(r, "avcodec_decode_subtitle2")
        guard got != 0 else { return nil }
        defer { avsubtitle_free(&subtitle) }
        var events: [String] = []
        for i in 0..<Int(subtitle.num_rects) {
            guard let rect = subtitle.rects[i], let ass = rect.pointee.ass else { continue }
            events.append(String(cString: ass))
        }
        return events.first ?? ""
    }

    /// Forgets the screen and everything loaded, as after a seek.
    public func flush() { avcodec_flush_buffers(context) }
}
