import CFFmpeg

/// A font a file carries for its subtitles (a Matroska attachment: TrueType or OpenType), which its ASS styles may
/// name. A value type (the bytes are shared, not copied), safe on any thread.
public struct EmbeddedFont: Sendable {
    /// The attachment's file name ("Title.ttf").
    public let name: String
    /// The font file's bytes.
    public let data: [UInt8]

    /// The font attached as `stream`, nil when it is no attachment or no font. Opening thread.
    static func attached(_ stream: UnsafeMutablePointer<AVStream>) -> EmbeddedFont? {
        let par = stream.pointee.codecpar.pointee
        guard par.codec_type == AVMEDIA_TYPE_ATTACHMENT, let bytes = par.extradata, par.extradata_size > 0 else {
            return nil
        }
        let codec = String(cString: avcodec_get_name(par.codec_id))
        let mime = (MediaMetadata.tag("mimetype", in: stream.pointee.metadata) ?? "").lowercased()
        let name = MediaMetadata.tag("filename", in: stream.pointee.metadata) ?? "font \(stream.pointee.index)"
        let lowerName = name.lowercased()
        let isFont =
            codec == "ttf" || codec == "otf" || mime.contains("font") || mime.contains("opentype")
            || lowerName.hasSuffix(".ttf") || lowerName.hasSuffix(".otf") || lowerName.hasSuffix(".ttc")
        guard isFont else { return nil }
        return EmbeddedFont(name: name, data: Array(UnsafeBufferPointer(start: bytes, count: Int(par.extradata_size))))
    }
}
