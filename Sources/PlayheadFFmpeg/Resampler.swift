import CFFmpeg

/// Converts decoded audio frames of any layout, rate and sample format to interleaved 32-bit float at a fixed
/// rate and channel count (libswresample), reconfiguring itself when the input format changes.
///
/// Used by one thread at a time (the engine's audio decode thread).
public final class Resampler: @unchecked Sendable {
    private var context: OpaquePointer?
    private var inputKey: (rate: Int32, format: Int32, channels: Int32, order: UInt32)?
    /// Output samples per second.
    public let outputRate: Int
    /// Output channels, interleaved.
    public let outputChannels: Int

    /// A resampler to `rate` Hz with `channels` interleaved float channels.
    public init(outputRate rate: Int = 48_000, outputChannels channels: Int = 2) {
        outputRate = rate
        outputChannels = channels
    }

    deinit { swr_free(&context) }

    /// Appends the converted samples of `frame` to `output` and returns the number of frames appended.
    @discardableResult
    public func convert(_ frame: Frame, into output: inout [Float]) throws(FFmpegError) -> Int {
        let f = frame.pointer
        try configure(for: f)
        let inCount = f.pointee.nb_samples
        let capacity = Int(swr_get_out_samples(context, inCount)) + 32
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: capacity * outputChannels))
        let produced: Int32 = output.withUnsafeMutableBufferPointer { buf in
            var outPtr: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(buf.baseAddress! + start)
                .assumingMemoryBound(to: UInt8.self)
            let ins = UnsafeMutableRawPointer(f.pointee.extended_data!).assumingMemoryBound(
                to: UnsafePointer<UInt8>?.self)
            return swr_convert(context, &outPtr, Int32(capacity), ins, inCount)
        }
        if produced < 0 {
            output.removeLast(capacity * outputChannels)
            throw FFmpegError(code: produced, function: "swr_convert")
        }
        output.removeLast((capacity - Int(produced)) * outputChannels)
        return Int(produced)
    }

    /// The samples still held inside the resampler (its delay), flushed at the end of a stream.
    public func drain(into output: inout [Float]) {
        guard let context else { return }
        let capacity = 4096
        let start = output.count
        output.append(contentsOf: repeatElement(0, count: capacity * outputChannels))
        let produced: Int32 = output.withUnsafeMutableBufferPointer { buf in
            var outPtr: UnsafeMutablePointer<UInt8>? = UnsafeMutableRawPointer(buf.baseAddress! + start)
                .assumingMemoryBound(to: UInt8.self)
            return swr_convert(context, &outPtr, Int32(capacity), nil, 0)
        }
        output.removeLast((capacity - max(0, Int(produced))) * outputChannels)
    }

    /// Forgets buffered input, as after a seek.
    public func reset() {
        swr_free(&context)
        inputKey = nil
    }

    private func configure(for f: UnsafeMutablePointer<AVFrame>) throws(FFmpegError) {
        let key = (
            f.pointee.sample_rate, f.pointee.format, f.pointee.ch_layout.nb_channels, f.pointee.ch_layout.order.rawValue
        )
        if let k = inputKey, context != nil, k == key { return }
        swr_free(&context)
        var outLayout = AVChannelLayout()
        ph_channel_layout_default(&outLayout, Int32(outputChannels))
        var inLayout = AVChannelLayout()
        if f.pointee.ch_layout.order == AV_CHANNEL_ORDER_UNSPEC || f.pointee.ch_layout.nb_channels == 0 {
            ph_channel_layout_default(&inLayout, max(1, f.pointee.ch_layout.nb_channels))
        } else {
            av_channel_layout_copy(&inLayout, &f.pointee.ch_layout)
        }
        defer {
            av_channel_layout_uninit(&inLayout)
            av_channel_layout_uninit(&outLayout)
        }
        try check(
            swr_alloc_set_opts2(
                &context, &outLayout, AV_SAMPLE_FMT_FLT, Int32(outputRate), &inLayout,
                AVSampleFormat(rawValue: f.pointee.format), f.pointee.sample_rate, 0, nil),
            "swr_alloc_set_opts2")
        try check(swr_init(context), "swr_init")
        inputKey = key
    }
}
