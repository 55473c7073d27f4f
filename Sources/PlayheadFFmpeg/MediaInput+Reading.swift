import CFFmpeg
import Foundation
import PlayheadCore

/// Reading an open input: packets (their time stamps shifted where the byte source says) and seeks, on the thread
/// that reads it (the engine's demux thread); a blocking call interrupted, or the input cancelled, from any thread.
extension MediaInput {
    /// Reads the next packet; nil at the end of the input. Throws `FFmpegError.exit` when interrupted.
    public func readPacket() throws(FFmpegError) -> Packet? {
        guard let c = context else { return nil }
        let packet = try Packet()
        var r = av_read_frame(c, packet.pointer)
        // "Call again": the MPEG-TS demuxer says so after skipping up to 64 KiB without a sync byte (a run of zeros
        // or text inside a stream), having read on; as FFmpeg's own tools do, read again while that moves on.
        var position = bytesRead
        var stuck = 0
        while r == FFmpegError.tryAgain, stuck < 100 {
            stuck = bytesRead == position ? stuck + 1 : 0
            position = bytesRead
            r = av_read_frame(c, packet.pointer)
        }
        if r == FFmpegError.endOfFile {
            // A chained source may go on in a new format part (an HLS variant with another init section).
            return try openNextPart() ? try readPacket() : nil
        }
        // An HTTP body of no announced length ends when the server closes the connection (RFC 9112, 6.3); FFmpeg
        // takes that close for a body cut short, and a whole file failed at its end (or before its first sample,
        // when the probe had read it all).
        if r == FFmpegError.ioError, endsWhenTheServerCloses { return nil }
        // A radio whose connection failed (a reset, a time-out) is opened again, and plays on.
        if r < 0, r != FFmpegError.exit, isRadio, reconnectRadio() { return try readPacket() }
        try check(r, "av_read_frame")
        if chain != nil, !mapChained(packet) { return try readPacket() }
        if let source = bridge?.source as? any TimestampAdjustingSource { adjust(packet, by: source) }
        if formatName == "ogg" || isRadio, streams.indices.contains(packet.streamIndex),
            streams[packet.streamIndex].mediaType == .audio
        {
            let restarted = timeline.linearize(packet, timeBase: streams[packet.streamIndex].timeBase)
            // An Ogg chain's next song is a stream of its own: its decoder starts afresh (flushed), not on from the
            // last song's state. Its setup came in its header packets, which the decoder took in band.
            if restarted, formatName == "ogg" { packet.startsStream = true }
        } else if allowsJumps, streams.indices.contains(packet.streamIndex) {
            let stream = streams[packet.streamIndex]
            discontinuities.correct(packet, timeBase: stream.timeBase, type: stream.mediaType)
        }
        return packet
    }

    /// Whether the container lets time stamps jump (MPEG-TS, FLV) and nothing else makes them go on: not for
    /// Playhead's HLS client (whose playlist places each segment) or any other byte source of its own.
    private var allowsJumps: Bool {
        guard bridge == nil, let format = context?.pointee.iformat else { return false }
        return format.pointee.flags & AVFMT_TS_DISCONT != 0
    }

    /// Whether the input is an HTTP body that announced no length (FFmpeg's own protocol; not chunked, whose end
    /// is marked): its end is the server closing the connection.
    private var endsWhenTheServerCloses: Bool {
        guard bridge == nil, name.hasPrefix("http://") || name.hasPrefix("https://"),
            let pb = context?.pointee.pb
        else { return false }
        return avio_size(pb) < 0
    }

    /// Tags the stream changed while it was read, once: an internet radio's song title (its ICY `StreamTitle`),
    /// the comments of a chained Ogg stream's next song. Nil when none changed since the last call. On the
    /// reading thread.
    public func takeMetadataUpdate() -> MediaMetadata? {
        guard let c = context else { return nil }
        let newPart = partBroughtTags
        partBroughtTags = false
        let containerFlagged = c.pointee.event_flags & AVFMT_EVENT_FLAG_METADATA_UPDATED != 0
        c.pointee.event_flags &= ~AVFMT_EVENT_FLAG_METADATA_UPDATED
        var streamFlagged = false
        for i in 0..<Int(c.pointee.nb_streams) {
            guard let s = c.pointee.streams[i], s.pointee.event_flags & AVSTREAM_EVENT_FLAG_METADATA_UPDATED != 0
            else { continue }
            s.pointee.event_flags &= ~AVSTREAM_EVENT_FLAG_METADATA_UPDATED
            streamFlagged = true
        }
        guard newPart || containerFlagged || streamFlagged else { return nil }
        let tags = Self.tags(of: c)
        guard tags != metadata.tags else { return nil }
        metadata.tags = tags
        // A song of its own (a chained Ogg link, FFmpeg's or ours) brings its own loudness correction, or none; a
        // container's update (an ICY title) leaves the stream's as it was.
        if newPart {
            let audio = (0..<Int(c.pointee.nb_streams)).first {
                c.pointee.streams[$0]?.pointee.codecpar.pointee.codec_type == AVMEDIA_TYPE_AUDIO
            }
            metadata.replayGain = ReplayGain.read(audio.flatMap { c.pointee.streams[$0] }, tags: tags)
        } else if streamFlagged {
            metadata.replayGain = ReplayGain.fromTags(tags)
        }
        return metadata
    }

    /// Shifts a packet's time stamps by what its source says (an HLS discontinuity).
    private func adjust(_ packet: Packet, by source: any TimestampAdjustingSource) {
        guard streams.indices.contains(packet.streamIndex), let ts = packet.dts ?? packet.pts else { return }
        let stream = streams[packet.streamIndex]
        let offset = source.timestampOffset(position: packet.pointer.pointee.pos, seconds: stream.seconds(ts))
        guard offset != 0, stream.timeBase.num > 0 else { return }
        let delta = Self.int64((offset * Double(stream.timeBase.den) / Double(stream.timeBase.num)).rounded())
        if packet.pts != nil { packet.pointer.pointee.pts += delta }
        if packet.dts != nil { packet.pointer.pointee.dts += delta }
    }

    /// Seeks so that the next packets start at the keyframe at or before `seconds` (in the container's timeline);
    /// with `orAfter`, at the first one after it when there is none before (a subtitle file whose first cue comes
    /// later: FFmpeg's subtitle readers refuse a seek before it).
    public func seek(toSeconds seconds: Double, orAfter: Bool = false) throws(FFmpegError) {
        guard let c = context else { return }
        let ts = Self.int64(seconds * Double(ph_time_base()))
        timeline.reset()
        discontinuities.reset()
        try check(avformat_seek_file(c, -1, Int64.min, ts, orAfter ? Int64.max : ts, 0), "avformat_seek_file")
    }

    /// How far into the resource the input has read, in bytes (its I/O context's position).
    public var bytesRead: Int64 { context?.pointee.pb?.pointee.pos ?? 0 }

    /// Lets reading go on after the end of the resource was reached, for a file that has grown since.
    public func continueAfterEndOfFile() { context?.pointee.pb?.pointee.eof_reached = 0 }

    /// Whether the input can seek (a file, or an HTTP resource that accepts ranges).
    public var isSeekable: Bool {
        guard let pb = context?.pointee.pb else { return false }
        return pb.pointee.seekable != 0
    }

    /// Aborts a blocking open, read or seek from any thread; later calls fail with `FFmpegError.exit` until
    /// `resume()`.
    public func interrupt() { interruptFlag.interrupt() }

    /// Aborts for good, as `interrupt()` does, and also cancels a custom byte source's blocking work (a segment
    /// download): for stopping, not for seeking.
    public func cancel() {
        interruptFlag.interrupt()
        bridge?.source.interrupt()
    }

    /// Allows blocking calls again after `interrupt()`.
    public func resume() {
        interruptFlag.reset()
        // A read the interruption ended leaves FFmpeg's byte reader at "end of file" with the interruption as its
        // error, so every later read would fail at once the same way (the demux thread spun on it, a hang): clear
        // both, so the next read goes on where this one stopped.
        if let pb = context?.pointee.pb, pb.pointee.error == FFmpegError.exit {
            pb.pointee.error = 0
            pb.pointee.eof_reached = 0
        }
    }
}
