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
}

extension ChainedByteSource {
    /// Clear media.
    public var sampleDecryptionKey: [UInt8]? { nil }
}

/// How the packets of a chained input's current part map onto the streams of its first part.
struct ChainState {
    /// The first part's stream for each stream of the current part (nil: not carried over).
    var streamMap: [Int: Int] = [:]
    /// Time bases of the current part's streams, by their index.
    var timeBases: [Int: AVRational] = [:]
    /// Streams (of the first part) whose next packet carries the current part's codec extradata, so a decoder
    /// kept from before takes the new codec parameters (`AV_PKT_DATA_NEW_EXTRADATA`).
    var refreshing: Set<Int>
    /// The current part's extradata, by first-part stream.
    var extradata: [Int: [UInt8]] = [:]

    init(refreshing: [Int]) { self.refreshing = Set(refreshing) }
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
                buffer.assumingMemoryBound(to: UInt8.self), size, opaque, ByteSourceBridge.read, nil)
        else {
            av_free(buffer)
            throw FFmpegError(code: ph_averror(ENOMEM), function: "avio_alloc_context")
        }
        ioContext = io
        try open(url: nil, options: openOptions, readingInfo: false)
        guard let c = context else { return false }
        // The extradata each stream's decoder has now: a part that brings the same (an fMP4 stream demuxed segment
        // by segment) refreshes nothing.
        let known = chain?.extradata ?? [:]
        var state = ChainState(refreshing: [])
        var used = Set<Int>()
        for i in 0..<Int(c.pointee.nb_streams) {
            guard let s = c.pointee.streams[i], let par = s.pointee.codecpar else { continue }
            let info = StreamInfo(s)
            // The first unused stream of the first part with the same kind and codec.
            guard
                let match = streams.first(where: {
                    !used.contains($0.index) && $0.mediaType == info.mediaType && $0.codecName == info.codecName
                })
            else { continue }
            used.insert(match.index)
            state.streamMap[i] = match.index
            state.timeBases[i] = s.pointee.time_base
            if let data = par.pointee.extradata, par.pointee.extradata_size > 0 {
                let bytes = Array(UnsafeBufferPointer(start: data, count: Int(par.pointee.extradata_size)))
                state.extradata[match.index] = bytes
                if known[match.index] != bytes { state.refreshing.insert(match.index) }
            }
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
        if state.refreshing.remove(target) != nil, let extra = state.extradata[target],
            let side = av_packet_new_side_data(p, AV_PKT_DATA_NEW_EXTRADATA, extra.count)
        {
            extra.withUnsafeBufferPointer { side.update(from: $0.baseAddress!, count: extra.count) }
        }
        chain = state
        return true
    }
}
