import CFFmpeg

/// A copy of one stream's codec parameters (`AVCodecParameters`), owned: what a decoder is opened from. A chained
/// input hands one with the first packet of a part whose stream changed codec (an HLS discontinuity into an ad
/// coded otherwise), and the decoder reopens itself with it (`Decoder.decode`).
///
/// Not mutated after it is made, so it may cross threads (demux thread to decode thread).
public final class CodecParameters: @unchecked Sendable {
    let pointer: UnsafeMutablePointer<AVCodecParameters>

    /// A copy of `parameters`; nil when out of memory.
    init?(copying parameters: UnsafePointer<AVCodecParameters>) {
        guard let p = avcodec_parameters_alloc() else { return nil }
        guard avcodec_parameters_copy(p, parameters) >= 0 else {
            var freed: UnsafeMutablePointer<AVCodecParameters>? = p
            avcodec_parameters_free(&freed)
            return nil
        }
        pointer = p
    }

    /// Parameters that name only a codec, by its FFmpeg decoder's name (a stream known from an HLS variant's
    /// `CODECS` before any of its media was read): the decoder takes the rest from the stream (headers in band, or
    /// the extradata of the part that brings the stream). Nil when FFmpeg has no such decoder, or out of memory.
    init?(decoderNamed name: String) {
        guard let codec = avcodec_find_decoder_by_name(name), let p = avcodec_parameters_alloc() else { return nil }
        p.pointee.codec_type = codec.pointee.type
        p.pointee.codec_id = codec.pointee.id
        pointer = p
    }

    deinit {
        var p: UnsafeMutablePointer<AVCodecParameters>? = pointer
        avcodec_parameters_free(&p)
    }

    /// The codec's FFmpeg name ("aac", "mp2", "h264"). Any thread.
    public var codecName: String { String(cString: avcodec_get_name(pointer.pointee.codec_id)) }

    /// The codec's identifier.
    var codecID: AVCodecID { pointer.pointee.codec_id }

    /// The codec's extra data (an AAC AudioSpecificConfig, an H.264 avcC), empty when there is none.
    var extradata: [UInt8] {
        guard let data = pointer.pointee.extradata, pointer.pointee.extradata_size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(pointer.pointee.extradata_size)))
    }
}
