import CFFmpeg
import CFFmpegFilter

/// Changes the speed of interleaved float audio without changing its pitch, with libavfilter's `atempo`
/// (chained for factors below 0.5).
///
/// Used by one thread at a time (the engine's audio decode thread). Build a new one when the rate changes.
public final class TempoFilter: @unchecked Sendable {
    private var graph: UnsafeMutablePointer<AVFilterGraph>?
    private var source: UnsafeMutablePointer<AVFilterContext>?
    private var sink: UnsafeMutablePointer<AVFilterContext>?
    private let channels: Int
    private let sampleRate: Int
    private let frame: UnsafeMutablePointer<AVFrame>
    /// The speed factor: 2 plays twice as fast.
    public let tempo: Double

    /// A filter for `channels` interleaved float channels at `sampleRate` Hz, playing at `tempo` (0.25 to 100).
    public init(tempo: Double, sampleRate: Int, channels: Int) throws(FFmpegError) {
        self.tempo = tempo
        self.channels = channels
        self.sampleRate = sampleRate
        try Self.loadLibrary()
        guard let f = av_frame_alloc() else { throw FFmpegError(code: ph_averror(ENOMEM), function: "av_frame_alloc") }
        frame = f
        guard let g = ph_avfilter_graph_alloc() else {
            throw FFmpegError(code: ph_averror(ENOMEM), function: "avfilter_graph_alloc")
        }
        graph = g
        g.pointee.nb_threads = 1
        let layout = channels == 1 ? "mono" : (channels == 2 ? "stereo" : "\(channels)c")
        let args = "sample_rate=\(sampleRate):sample_fmt=flt:channel_layout=\(layout):time_base=1/\(sampleRate)"
        try check(
            ph_avfilter_graph_create_filter(&source, ph_avfilter_get_by_name("abuffer"), "in", args, nil, g), "abuffer")
        try check(
            ph_avfilter_graph_create_filter(&sink, ph_avfilter_get_by_name("abuffersink"), "out", nil, nil, g),
            "abuffersink")
        var last = source
        // atempo accepts 0.5...100 per instance; chain halves for slower rates.
        var remaining = tempo
        var stages: [Double] = []
        while remaining < 0.5 {
            stages.append(0.5)
            remaining /= 0.5
        }
        stages.append(remaining)
        for (i, stage) in stages.enumerated() {
            var ctx: UnsafeMutablePointer<AVFilterContext>?
            try check(
                ph_avfilter_graph_create_filter(
                    &ctx, ph_avfilter_get_by_name("atempo"), "tempo\(i)", "tempo=\(stage)", nil, g),
                "atempo")
            try check(ph_avfilter_link(last, 0, ctx, 0), "avfilter_link")
            last = ctx
        }
        try check(ph_avfilter_link(last, 0, sink, 0), "avfilter_link")
        try check(ph_avfilter_graph_config(g, nil), "avfilter_graph_config")
    }

    /// Loads libavfilter on first use (any thread; once per process): it is not linked, as loading it and its
    /// dependencies would cost every launch about 25 ms.
    static func loadLibrary() throws(FFmpegError) {
        guard ph_avfilter_load() != 0 else { return }
        let why = ph_avfilter_load_error().map { String(cString: $0) } ?? "unknown"
        throw FFmpegError(code: ph_averror(ENOSYS), function: "dlopen libavfilter (\(why))")
    }

    deinit {
        ph_avfilter_graph_free(&graph)
        var f: UnsafeMutablePointer<AVFrame>? = frame
        av_frame_free(&f)
    }

    /// Feeds `input` (interleaved frames) and appends what the filter gives back to `output`. Pass an empty
    /// input with `flush: true` at the end of a stream to take the filter's tail.
    public func process(_ input: UnsafeBufferPointer<Float>, flush: Bool = false, into output: inout [Float])
        throws(FFmpegError)
    {
        let count = input.count / channels
        if count > 0 {
            guard let f = av_frame_alloc() else {
                throw FFmpegError(code: ph_averror(ENOMEM), function: "av_frame_alloc")
            }
            var fp: UnsafeMutablePointer<AVFrame>? = f
            defer { av_frame_free(&fp) }
            f.pointee.nb_samples = Int32(count)
            f.pointee.format = AV_SAMPLE_FMT_FLT.rawValue
            f.pointee.sample_rate = Int32(sampleRate)
            ph_channel_layout_default(&f.pointee.ch_layout, Int32(channels))
            try check(av_frame_get_buffer(f, 0), "av_frame_get_buffer")
            f.pointee.data.0!.withMemoryRebound(to: Float.self, capacity: input.count) { dst in
                dst.update(from: input.baseAddress!, count: input.count)
            }
            try check(ph_av_buffersrc_add_frame_flags(source, f, 0), "av_buffersrc_add_frame")
        }
        if flush { try check(ph_av_buffersrc_add_frame_flags(source, nil, 0), "av_buffersrc_add_frame") }
        while true {
            let r = ph_av_buffersink_get_frame(sink, frame)
            if r == FFmpegError.tryAgain || r == FFmpegError.endOfFile { break }
            try check(r, "av_buffersink_get_frame")
            let n = Int(frame.pointee.nb_samples) * channels
            frame.pointee.data.0!.withMemoryRebound(to: Float.self, capacity: n) { src in
                output.append(contentsOf: UnsafeBufferPointer(start: src, count: n))
            }
            av_frame_unref(frame)
        }
    }
}
