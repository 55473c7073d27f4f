import CFFmpeg
import CFFmpegProbe
import Foundation
import PlayheadCore

/// An opened media input: a file, an `http(s)` URL read by FFmpeg's own protocols, or a custom `ByteSource`,
/// owning its `AVFormatContext`.
///
/// Opening blocks (bounded by `OpenOptions.timeout` for network inputs). After opening, one thread (the engine's
/// demux thread) calls `readPacket` and `seek`; `interrupt()` may be called from any thread to abort a blocking
/// read.
public final class MediaInput: @unchecked Sendable {
    /// How to open an input.
    public struct OpenOptions: Sendable {
        /// The longest any single network wait may take, in seconds.
        public var timeout: Double = 10
        /// A container name to force ("mpegts", "mp4", "aac"), or nil to probe.
        public var formatName: String?
        /// The `User-Agent` sent with HTTP requests.
        public var userAgent = "Playhead/0.1"
        /// The name the user knows the input by, when the location opened has lost its extension (a file named in
        /// another encoding than UTF-8, opened as `/proc/self/fd/N`): a format FFmpeg recognizes only by its
        /// extension (raw µ-law `.ul`, `.g722`) is tried by it when probing finds none.
        public var shownName: String?
        /// Default options: 10 s network time-out, probed format.
        public init() {}
    }

    var context: UnsafeMutablePointer<AVFormatContext>?
    let interruptFlag = InterruptFlag()
    var bridge: ByteSourceBridge?
    var ioContext: UnsafeMutablePointer<AVIOContext>?
    /// How it was opened, for the next part of a chained source.
    var openOptions = OpenOptions()
    /// Parts of a chained source after the first: the current part's streams mapped onto the first part's.
    var chain: ChainState?
    /// The audio time stamps of a chained Ogg stream or a reconnected radio, made to go on across its chains.
    var timeline = RestartingTimeline()
    /// The time stamps of a container that lets them jump (MPEG-TS), made to go on across the jumps.
    var discontinuities = DiscontinuousTimeline()
    /// A part was opened whose tags `takeMetadataUpdate` gives next if they differ (a chained Ogg file's link).
    var partBroughtTags = false
    /// An internet radio (its server sent ICY headers): a connection that fails is opened again
    /// (`reconnectRadio`).
    var isRadio = false
    /// When the radio was last opened again (monotonic seconds), and the wait before the next attempt.
    var radioRetry = (last: -Double.infinity, delay: 0.0)

    /// What is being read, as given: a path or URL string, or the byte source's name.
    public let name: String
    /// The streams of the input.
    public internal(set) var streams: [StreamInfo] = []
    /// The container's tags and cover art; the tags follow what the stream changes while it is read
    /// (`takeMetadataUpdate`).
    public internal(set) var metadata = MediaMetadata()
    /// The container's duration, `.invalid` when unknown (as for live or unbounded streams).
    public private(set) var duration: MediaTime = .invalid
    /// The container's short format name, such as "mov,mp4,m4a,3gp,3g2,mj2" or "mpegts"; a chained source's is
    /// its current part's.
    public private(set) var formatName = ""
    /// Total bit rate in bits per second, 0 when unknown.
    public private(set) var bitRate = 0
    /// The container's first time stamp in seconds (MPEG-TS starts far from 0); players subtract it.
    public private(set) var startSeconds: Double = 0

    /// Opens `location` (a file path or URL string) and reads its stream information.
    public init(location: String, options: OpenOptions = OpenOptions()) throws(FFmpegError) {
        FFmpegLibrary.initialize()
        name = location
        openOptions = options
        do {
            try open(url: location, options: options)
        } catch  where error.code == FFmpegError.invalidData && options.formatName == nil {
            guard let format = options.shownName.flatMap(Self.formatKnownByExtension) else { throw error }
            var forced = options
            forced.formatName = format
            openOptions = forced
            try open(url: location, options: forced)
        }
        isRadio = sendsICYHeaders
    }

    /// Opens a custom byte source, as the HLS client does for segments; `name` is used in errors.
    public init(source: any ByteSource, name: String, options: OpenOptions = OpenOptions()) throws(FFmpegError) {
        FFmpegLibrary.initialize()
        self.name = name
        let bridge = ByteSourceBridge(source)
        self.bridge = bridge
        let size: Int32 = 64 * 1024
        guard let buffer = av_malloc(Int(size)) else {
            throw FFmpegError(code: ph_averror(ENOMEM), function: "av_malloc")
        }
        let opaque = Unmanaged.passUnretained(bridge).toOpaque()
        guard
            let io = ph_avio_alloc_read(
                buffer.assumingMemoryBound(to: UInt8.self), size, opaque, ByteSourceBridge.read,
                source.size == nil ? nil : ByteSourceBridge.seek)
        else {
            av_free(buffer)
            throw FFmpegError(code: ph_averror(ENOMEM), function: "avio_alloc_context")
        }
        ioContext = io
        openOptions = options
        try open(url: nil, options: options)
        if source is any ChainedByteSource, let c = context { chain = ChainState(firstPart: c) }
    }

    deinit {
        closeContext()
    }

    /// Closes the format context and frees the custom I/O context.
    func closeContext() {
        if context != nil { avformat_close_input(&context) }
        if let io = ioContext {
            var buffer: UnsafeMutablePointer<UInt8>? = io.pointee.buffer
            av_freep(&buffer)
            var ioc: UnsafeMutablePointer<AVIOContext>? = io
            avio_context_free(&ioc)
        }
        ioContext = nil
    }

    /// Opens `url` (or the custom I/O context) and, with `readingInfo`, probes its streams and reads their info;
    /// without, only the header is read (a later part of a chained source). On the thread that owns the input.
    func open(url: String?, options: OpenOptions, readingInfo: Bool = true) throws(FFmpegError) {
        guard let ctx = avformat_alloc_context() else {
            throw FFmpegError(code: ph_averror(ENOMEM), function: "avformat_alloc_context")
        }
        ctx.pointee.interrupt_callback.callback = InterruptFlag.callback
        ctx.pointee.interrupt_callback.opaque = Unmanaged.passUnretained(interruptFlag).toOpaque()
        if let io = ioContext {
            ctx.pointee.pb = io
            ctx.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        }
        var dict: OpaquePointer? = nil
        defer { av_dict_free(&dict) }
        let micros = String(Self.int64(options.timeout * 1_000_000))
        av_dict_set(&dict, "rw_timeout", micros, 0)
        av_dict_set(&dict, "user_agent", options.userAgent, 0)
        // A connection cut mid-body is asked again from where it broke off, after 0, 1, 3, 7... s, while the wait
        // is within the network timeout: a server restarting or a link handing over is ridden out from the buffer
        // (with 2 s, an origin down for more than a second failed the item). An open that fails is not retried.
        av_dict_set(&dict, "reconnect", "1", 0)
        av_dict_set(&dict, "reconnect_delay_max", String(Int(min(max(options.timeout, 1), 3600))), 0)
        // Samples encrypted with Common Encryption are decrypted by the MP4 demuxer with the source's key.
        if let key = (bridge?.source as? any ChainedByteSource)?.sampleDecryptionKey {
            av_dict_set(&dict, "decryption_key", key.map { String(format: "%02x", $0) }.joined(), 0)
        }
        var format: UnsafePointer<AVInputFormat>? = nil
        if let f = options.formatName { format = av_find_input_format(f) }
        // The whole open, probing included, is bounded by the deadline when FFmpeg does the reading. A byte source
        // bounds its own waits (HLS: each request's time-out, its retries and failovers); a deadline here cut the
        // probe short while it retried a first segment, and the stream's start time went unread (its time stamps
        // then stood 1.4 s off the item's timeline).
        if ioContext == nil { interruptFlag.setDeadline(MonotonicClock.now() + options.timeout * 2) }
        defer { interruptFlag.setDeadline(nil) }
        var c: UnsafeMutablePointer<AVFormatContext>? = ctx
        ph_capture_errors_begin()
        let opened = avformat_open_input(&c, url, format, &dict)
        let logged = String(cString: ph_capture_errors_end())
        if opened < 0 {
            // The open ran out of time (a server that stopped sending mid-header): what the demuxer then says (an
            // MP4's "moov atom not found": cut short) is not what happened.
            if interruptFlag.deadlinePassed {
                throw FFmpegError(code: FFmpegError.timedOut, function: "avformat_open_input")
            }
            throw FFmpegError(code: opened, function: "avformat_open_input", detail: logged.isEmpty ? nil : logged)
        }
        context = c
        // The container of the part opened now (a chained source's later part may be another: TS, then fMP4).
        formatName = c?.pointee.iformat.map { String(cString: $0.pointee.name) } ?? formatName
        // A later part of a chained source (an fMP4 init section and its fragments) takes its streams from the
        // first part, and its init section has the codec parameters: probing its packets would wait for more of
        // them (a low-latency part holds a third of the frames FFmpeg wants to guess a frame rate from).
        guard readingInfo else { return }
        FFmpegCounters.probed()
        try check(avformat_find_stream_info(c, nil), "avformat_find_stream_info")
        readInfo(c!)
    }

    private func readInfo(_ c: UnsafeMutablePointer<AVFormatContext>) {
        formatName = c.pointee.iformat.map { String(cString: $0.pointee.name) } ?? ""
        bitRate = Int(c.pointee.bit_rate)
        if c.pointee.start_time != ph_nopts_value() {
            startSeconds = Double(c.pointee.start_time) / Double(ph_time_base())
        }
        if c.pointee.duration != ph_nopts_value(), c.pointee.duration > 0 {
            duration = MediaTime(value: c.pointee.duration, timescale: ph_time_base()).convertScale(600)
        }
        var fonts: [EmbeddedFont] = []
        for i in 0..<Int(c.pointee.nb_streams) {
            guard let s = c.pointee.streams[i] else { continue }
            if let font = EmbeddedFont.attached(s) { fonts.append(font) }
            var info = StreamInfo(s)
            if info.mediaType == .video { info.hasClosedCaptions = ph_stream_has_closed_captions(c, Int32(i)) != 0 }
            streams.append(info)
            if info.isAttachedPicture, metadata.artwork == nil, let data = s.pointee.attached_pic.data {
                metadata.artwork = Array(UnsafeBufferPointer(start: data, count: Int(s.pointee.attached_pic.size)))
            }
        }
        // The file's fonts go with its ASS tracks, whose styles name them.
        for i in streams.indices where streams[i].subtitleHeader != nil { streams[i].subtitleFonts = fonts }
        metadata.tags = Self.tags(of: c)
        metadata.chapters = MediaChapter.all(in: c, startSeconds: startSeconds)
        let audio = (0..<Int(c.pointee.nb_streams)).first {
            streams.indices.contains($0) && streams[$0].mediaType == .audio
        }
        metadata.replayGain = ReplayGain.read(audio.flatMap { c.pointee.streams[$0] }, tags: metadata.tags)
    }

    /// The container's tags, and those of its audio streams it does not have (Ogg, FLAC and Opus keep theirs on
    /// the stream).
    static func tags(of c: UnsafeMutablePointer<AVFormatContext>) -> [String: String] {
        var tags = MediaMetadata.all(in: c.pointee.metadata)
        for i in 0..<Int(c.pointee.nb_streams) {
            guard let s = c.pointee.streams[i], s.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO else {
                continue
            }
            for (k, v) in MediaMetadata.all(in: s.pointee.metadata) where tags[k] == nil { tags[k] = v }
        }
        return tags
    }

    /// The index of FFmpeg's best stream of `type` (`av_find_best_stream`), skipping cover pictures and streams
    /// with no decoder; nil when there is none.
    public func bestStream(_ type: StreamInfo.MediaType) -> Int? {
        guard let c = context else { return nil }
        let avType: AVMediaType =
            type == .audio ? AVMEDIA_TYPE_AUDIO : (type == .video ? AVMEDIA_TYPE_VIDEO : AVMEDIA_TYPE_SUBTITLE)
        let i = av_find_best_stream(c, avType, -1, -1, nil, 0)
        if i >= 0, !streams[Int(i)].isAttachedPicture { return Int(i) }
        return streams.first { $0.mediaType == type && !$0.isAttachedPicture && $0.isDecodable }?.index
    }

    /// `value` as an `Int64` for FFmpeg, clamped to ±9.0e18 (NaN is 0), so that no number an API user or a file
    /// gives can trap the conversion. Pure; any thread.
    static func int64(_ value: Double) -> Int64 {
        guard !value.isNaN else { return 0 }
        return Int64(min(max(value, -9.0e18), 9.0e18))
    }

    /// The stream's codec parameters, valid only inside `body`, for creating decoders: a chained input's as its
    /// latest part brings them.
    func withCodecParameters<R>(stream index: Int, _ body: (UnsafePointer<AVCodecParameters>) throws -> R) rethrows
        -> R?
    {
        if let chained = chain?.parameters[index] { return try body(chained.pointer) }
        guard let c = context, index < Int(c.pointee.nb_streams), let s = c.pointee.streams[index],
            let par = s.pointee.codecpar
        else { return nil }
        return try body(par)
    }

    /// Replaces the duration, for inputs whose container cannot know it but whose source does (an HLS playlist).
    public func setDuration(_ duration: MediaTime) { self.duration = duration }

    /// Names the streams that have no title `title` (a subtitle file's track by the file's name). Opening thread.
    public func nameUntitledStreams(_ title: String) {
        for i in streams.indices where streams[i].title?.isEmpty ?? true { streams[i].title = title }
    }

    /// Gives the streams that have no language `language` (a subtitle file named `Film.en.srt`). Opening thread.
    public func setUnknownLanguage(_ language: String) {
        for i in streams.indices where streams[i].language?.isEmpty ?? true { streams[i].language = language }
    }

    /// Replaces the first time stamp players subtract, for a source that knows where its bytes lie on a longer
    /// timeline (a live HLS stream starts inside its playlist's window, not at 0).
    public func setStartSeconds(_ seconds: Double) { startSeconds = seconds }

    /// The custom byte source this input reads, if any.
    public var byteSource: (any ByteSource)? { bridge?.source }

    /// The last error a custom byte source threw, for error messages.
    public var byteSourceError: (any Error)? { bridge?.lastError }
}
