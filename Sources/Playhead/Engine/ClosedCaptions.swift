import Foundation
import PlayheadFFmpeg
import PlayheadHLS
import PlayheadSubtitles

/// Closed captions carried in the video (CEA-608 in ATSC A/53 `cc_data`) as text tracks of a source: a track has
/// no samples of its own; the engine's video decode thread produces its cues from the pictures it decodes
/// (`CaptionCueMaker`) while the track is the one shown. Only the first channel of the first field (CC1) is
/// decoded; other channels are listed and not playable. Pure functions; any thread.
enum ClosedCaptions {
    /// The codec name of a caption track (FFmpeg's name for CEA-608).
    static let codecName = "eia_608"
    /// The first caption track's identifier in its source: above any stream index, below `MergedSource`'s stride.
    static let firstTrackID = 900
    /// What a caption track is for, as `MediaCharacteristic` raw values (as AVFoundation marks CEA-608).
    static let characteristics = [
        MediaCharacteristic.transcribesSpokenDialogForAccessibility.rawValue,
        MediaCharacteristic.describesMusicAndSoundForAccessibility.rawValue,
    ]

    /// The caption track of a file's video track `video` (FFmpeg's probe saw captions in it), named "CC1".
    static func track(of video: MediaTrack) -> MediaTrack {
        let language = video.stream.language == "und" ? nil : video.stream.language
        return track(id: firstTrackID, of: video, name: "CC1", language: language, isDecodable: true)
    }

    /// The caption tracks of an HLS variant's `CLOSED-CAPTIONS` group (`renditions`), in its video track `video`:
    /// named by `NAME`, in `LANGUAGE`; playable when `INSTREAM-ID` is "CC1".
    static func tracks(of video: MediaTrack, renditions: [Rendition]) -> [MediaTrack] {
        renditions.enumerated().map { k, r in
            track(
                id: firstTrackID + k, of: video, name: r.name, language: r.language,
                isDecodable: r.instreamID?.uppercased() == "CC1")
        }
    }

    private static func track(id: Int, of video: MediaTrack, name: String, language: String?, isDecodable: Bool)
        -> MediaTrack
    {
        var stream = StreamInfo(
            describing: .subtitle, index: id, codecName: codecName, isDecodable: isDecodable, language: language,
            title: name)
        stream.characteristics = characteristics
        return MediaTrack(id: id, kind: .text, stream: stream, timelineOffset: video.timelineOffset)
    }

    /// Whether a text stream's cues can reach legible outputs: a text format `TextCueReader` reads, or captions
    /// Playhead decodes.
    static func plays(_ stream: StreamInfo) -> Bool {
        stream.codecName == codecName ? stream.isDecodable : TextCueReader.supports(stream.codecName)
    }

    /// The cue for a screen `cc_dec` gave as an ASS event, shown from `start` until `end`; nil for an empty
    /// screen. Styles (italics, colours) are dropped; rows become lines; a caption in the upper half of the screen
    /// is placed at the top (`{\an8}`), else at the bottom.
    static func cue(event: String, start: Double, end: Double) -> SubtitleCue? {
        // "ReadOrder,Layer,Style,Name,MarginL,MarginR,MarginV,Effect,Text"
        var index = event.startIndex
        for _ in 0..<8 {
            guard let comma = event[index...].firstIndex(of: ",") else { return nil }
            index = event.index(after: comma)
        }
        let raw = String(event[index...])
        var top = false
        if let pos = raw.range(of: #"\\pos\(\d+,\d+\)"#, options: .regularExpression) {
            let numbers = raw[pos].dropFirst(5).dropLast().split(separator: ",")
            // cc_dec's script is 288 lines high.
            if numbers.count == 2, let y = Int(numbers[1]) { top = y < 144 }
        }
        let plain = raw.replacingOccurrences(of: #"\{[^}]*\}"#, with: "", options: .regularExpression)
            .replacingOccurrences(of: "\\N", with: "\n").replacingOccurrences(of: "\\h", with: " ")
        let lines = plain.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        guard !lines.isEmpty else { return nil }
        let text = (top ? "{\\an8}" : "") + lines.joined(separator: "\n")
        let settings = top ? SRTCueTextParser.positionOverride(in: Array(text.utf8)[...]) : nil
        return SubtitleCue(
            id: "", startTime: start, endTime: end, text: text, markup: .subRip, settings: settings ?? CueSettings())
    }
}

extension MediaTrack {
    /// Whether this is a caption track whose cues the video decoder makes.
    var isClosedCaptions: Bool { kind == .text && stream.codecName == ClosedCaptions.codecName }
}
