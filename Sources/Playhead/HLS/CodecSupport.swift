import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// Which RFC 6381 codec strings FFmpeg can decode here.
enum CodecSupport {
    private static let names: [String: String] = [
        "avc1": "h264", "avc3": "h264", "hvc1": "hevc", "hev1": "hevc", "mp4a": "aac", "ac-3": "ac3",
        "ec-3": "eac3", "vp09": "vp9", "av01": "av1", "opus": "opus", "flac": "flac", "mp3": "mp3",
    ]
    private static let audioNames: Set<String> = ["aac", "ac3", "eac3", "opus", "flac", "mp3"]

    /// FFmpeg's decoder name for an RFC 6381 codec string ("mp4a.40.2": "aac"); nil when unknown here.
    static func decoderName(_ codec: String) -> String? {
        let lowered = codec.lowercased()
        if let name = mp4aObjectTypes[lowered] { return name }
        return names[lowered.split(separator: ".").first.map(String.init) ?? ""]
    }

    /// `mp4a` codec strings of other codecs than AAC (RFC 6381 object types; Apple names MP3 "mp4a.40.34").
    private static let mp4aObjectTypes: [String: String] = [
        "mp4a.40.34": "mp3", "mp4a.6b": "mp3", "mp4a.69": "mp3", "mp4a.a5": "ac3", "mp4a.a6": "eac3",
    ]

    /// Subtitle and caption formats (WebVTT, IMSC1, timed text, CEA-608/708): they never make a variant
    /// unplayable; a rendition in a format Playhead cannot show is left out on its own.
    private static let textCodecs: Set<String> = ["wvtt", "stpp", "tx3g", "c608", "c708"]

    /// Whether a variant with `codec` in its `CODECS` can play: FFmpeg decodes it, or it is a text format.
    static func isDecodable(_ codec: String) -> Bool {
        let fourCC = codec.split(separator: ".").first.map { $0.lowercased() } ?? ""
        if textCodecs.contains(fourCC) { return true }
        guard let name = decoderName(codec) else { return false }
        return FFmpegLibrary.hasDecoder(named: name)
    }

    /// The decoder name of the first sound codec in a `CODECS` list, nil when it names none Playhead knows.
    static func audioDecoderName(inCodecs codecs: String?) -> String? {
        decoderNames(inCodecs: codecs).first { audioNames.contains($0) }
    }

    /// The decoder name of the first video codec in a `CODECS` list, nil when it names none Playhead knows.
    static func videoDecoderName(inCodecs codecs: String?) -> String? {
        decoderNames(inCodecs: codecs).first { !audioNames.contains($0) }
    }

    private static func decoderNames(inCodecs codecs: String?) -> [String] {
        (codecs ?? "").split(separator: ",").compactMap { decoderName($0.trimmingCharacters(in: .whitespaces)) }
    }
}
