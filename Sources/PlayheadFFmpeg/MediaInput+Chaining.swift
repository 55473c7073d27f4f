import CFFmpeg
import Foundation
import PlayheadCore

/// A byte source whose bytes may change format part-way (an HLS fMP4 variant switch brings a new init section):
/// `read` returns 0 at the end of one part, and `beginNextPart` says whether another follows. `MediaInput` then
/// opens the next part in place, with the same streams, so its reader never sees the change.
public protocol ChainedByteSource: ByteSource {
    /// Called on the demux thread after `read` returned 0 and the demuxer drained: true when more bytes follow in a
    /// new part (reading continues with the next `read`), false at the real end.
    func beginNextPart() -> Bool
    /// The key the demuxer decrypts the next part's samples with (MP4 Common Encryption, `cenc`: FFmpeg's
    /// `decryption_key`); nil for clear media. Read on the demux thread before each part is opened.
    var sampleDecryptionKey: [UInt8]? { get }
    /// Whether each part is a stream of its own (the links of a chained Ogg file), whose decoding starts afresh
    /// (`Packet.startsStream`), rather than the same stream cut into parts (HLS segments and variants).
    var partsAreSeparateStreams: Bool { get }
}

extension ChainedByteSource {
    /// Clear media.
    public var sampleDecryptionKey: [UInt8]? { nil }
    /// One stream cut into parts.
    public var partsAreSeparateStreams: Bool { false }
}

/// How the packets of a chained input's current part map onto the streams of its first part.
struct ChainState {
    /// The first part's stream for each stream of the current part (nil: not carried over).
    var streamMap: [Int: Int] = [:]
    /// Time bases of the current part's streams, by their index.
    var timeBases: [Int: AVRational] = [:]
    /// Streams (of the first part) whose next packet carries the current part's codec extradata, so a decoder
    /// kept from before takes the new codec parameters (`AV_PKT_DATA_NEW_EXTRADATA`).
    var refreshing: Set<Int> = []
    /// Each first-part stream's codec parameters as the latest part that had it brings them: what its packets
    /// carry (`Packet.codec`, followed by the decoders) and new decoders are opened from.
    var parameters: [Int: CodecParameters] = [:]
    /// Streams (of the first part) whose next packet starts a stream of its own (`Packet.startsStream`).
    var starting: Set<Int> = []

    /// The state of a chained input's first part, whose packets need no mapping: its streams' parameters.
    init(firstPart c: UnsafeMutablePointer<AVFormatContext>) {
        for i in 0..<Int(c.pointee.nb_streams) {
            guard let par = c.pointee.streams[i]?.pointee.codecpar else { continue }
            parameters[i] = CodecParameters(copying: par)
        }
    }

    /// The current codec of first-part stream `index`.
    func codecName(_ index: Int, first: [StreamInfo]) -> String {
        parameters[index]?.codecName ?? first[index].codecName
    }
}

extension MediaInput {
    /// Opens the next part of a chained source in place; false when there is none or it cannot stand in for the
    /// first (different kinds of streams).
    func openNextPart() throws(FFmpegError) -> Bool {
        guard chain != nil, let bridge, let source = bridge.source as? any ChainedByteSource, source.beginNextPart()
        else { return false }
        return try openPartInPlace(bridge)
    }

    /// Starts reading a chained source again where it now stands (it moved itself, for a seek) as a new part,
    /// opened in place with the first part's streams: the demuxer is not probed again and the decoders are kept.
    /// False when the input is not chained or the new part cannot stand in for the first. On the thread that owns
    /// the input.
    public func restartPart() throws(FFmpegError) -> Bool {
        guard chain != nil, let bridge, bridge.source is any ChainedByteSource else { return false }
        // The link a seek lands in tells its tags again: changes read ahead before the seek may never have shown.
        if bridge.source is OggChainSource { metadata.tags = [:] }
        return try openPartInPlace(bridge)
    }

    private func openPartInPlace(_ bridge: ByteSourceBridge) throws(FFmpegError) -> Bool {
        closeContext()
        let size: Int32 = 64 * 1024
        guard let buffer = av_malloc(Int(size)) else {
            throw FFmpegError(code: ph_averror(ENOMEM), function: "av_malloc")
        }
        let opaque = Unmanaged.passUnretained(bridge).toOpaque()
        guard
            let io = ph_avio_alloc_read(
                buffer.assumingMemoryBound(to: UInt8.self), size, opaque, ByteSourceBridge.read,
                bridge.source.size == nil ? nil : ByteSourceBridge.seek)
        else {
            av_free(buffer)
            throw FFmpegError(code: ph_averror(ENOMEM), function: "avio_alloc_context")
        }
        ioContext = io
        try open(url: nil, options: openOptions, readingInfo: false)
        // Each link of a chained Ogg file is a song with its own comments: they are the input's tags from now on.
        if bridge.source is OggChainSource { partBroughtTags = true }
        return mapCurrentPart()
    }

    /// Adds a stream that the first part of a chained input lacks and a later part brings (an HLS stream that opens
    /// with a pre-roll of pictures alone, whose variant's `CODECS` name a sound codec too), known by its decoder's
    /// name (and a picture's size) only: it takes the packets of the first stream of its kind in a later part, and
    /// its decoder their codec parameters. Nil when the input is not chained or FFmpeg has no such decoder. Before
    /// the input is read, on the thread that owns it.
    public func declareStream(
        _ type: StreamInfo.MediaType, decoder name: String, width: Int = 0, height: Int = 0
    ) -> StreamInfo? {
        guard chain != nil, let parameters = CodecParameters(decoderNamed: name) else { return nil }
        var info = StreamInfo(
            describing: type, index: streams.count, codecName: parameters.codecName, isDecodable: true)
        info.width = width
        info.height = height
        chain?.parameters[info.index] = parameters
        streams.append(info)
        return info
    }

    /// Maps the streams of the part just opened onto the first part's; false when none can stand in for one.
    func mapCurrentPart() -> Bool {
        guard let c = context, var state = chain else { return false }
        state.streamMap = [:]
        state.timeBases = [:]
        state.refreshing = []
        state.starting = []
        let separate = (bridge?.source as? any ChainedByteSource)?.partsAreSeparateStreams == true
        var used = Set<Int>()
        for i in 0..<Int(c.pointee.nb_streams) {
            guard let s = c.pointee.streams[i], let par = s.pointee.codecpar,
                let parameters = CodecParameters(copying: par)
            else { continue }
            let info = StreamInfo(s)
            // The first unused stream of the first part of the same kind, in the same codec if there is one (an
            // ad after a discontinuity may be coded otherwise: its decoder then reopens, `Decoder.decode`).
            let candidates = streams.filter { !used.contains($0.index) && $0.mediaType == info.mediaType }
            guard
                let match = candidates.first(where: { state.codecName($0.index, first: streams) == info.codecName })
                    ?? candidates.first
            else { continue }
            used.insert(match.index)
            state.streamMap[i] = match.index
            state.timeBases[i] = s.pointee.time_base
            let known = state.parameters[match.index]
            // The same codec with other extradata (an fMP4 variant's init section) is refreshed in the decoder
            // kept; a part that brings the same (an fMP4 stream demuxed segment by segment) refreshes nothing.
            if known?.codecID == parameters.codecID, !parameters.extradata.isEmpty,
                known?.extradata != parameters.extradata
            {
                state.refreshing.insert(match.index)
            }
            state.parameters[match.index] = parameters
            if separate { state.starting.insert(match.index) }
        }
        guard !state.streamMap.isEmpty else { return false }
        chain = state
        return true
    }

    /// Moves a packet of the current part onto its first-part stream: index, time base, new extradata on the first
    /// packet after a change. False for a packet of a stream the first part did not have (dropped).
    func mapChained(_ packet: Packet) -> Bool {
        guard var state = chain else { return true }
        let p = packet.pointer
        let index = Int(p.pointee.stream_index)
        // Still the first part: nothing to map.
        if state.streamMap.isEmpty { return true }
        guard let target = state.streamMap[index], let from = state.timeBases[index], streams.indices.contains(target)
        else { return false }
        let to = AVRational(num: streams[target].timeBase.num, den: streams[target].timeBase.den)
        av_packet_rescale_ts(p, from, to)
        p.pointee.stream_index = Int32(target)
        packet.codec = state.parameters[target]
        packet.startsStream = state.starting.remove(target) != nil
        if state.refreshing.remove(target) != nil, let extra = packet.codec?.extradata,
            let side = av_packet_new_side_data(p, AV_PKT_DATA_NEW_EXTRADATA, extra.count)
        {
            extra.withUnsafeBufferPointer { side.update(from: $0.baseAddress!, count: extra.count) }
        }
        chain = state
        return true
    }
}
