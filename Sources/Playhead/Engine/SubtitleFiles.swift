import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadSubtitles

/// Subtitle files shown beside an item's own tracks (`URLAsset.OptionKey.subtitleFiles`, `playhead --sub-file`):
/// each opened by FFmpeg (SubRip, WebVTT, ASS...) as a part of the item's source, its cues on the item's timeline.
/// WebVTT and SubRip files are read whole by Playhead's own parsers instead of through FFmpeg's samples: their cue
/// settings and regions place the cues (FFmpeg drops them, and reads no cue at all from a WebVTT file with a
/// region), and every cue is known from the start (one showing where a seek lands shows at once). A file named
/// with a language before its extension (`Film.fr.srt`) has that language unless it gives one. A file that
/// cannot be read or holds anything but text subtitles is left out, with the reason.
///
/// Threads: the thread opening the item (the demux thread, or the asset's loading).
enum SubtitleFiles {
    /// The parts for `paths`, and one error for each file left out.
    static func open(_ paths: [String]) -> (parts: [any MediaSource], problems: [PlaybackError]) {
        var parts: [any MediaSource] = []
        var problems: [PlaybackError] = []
        for path in paths {
            do {
                let input = try MediaInput(location: path)
                let kinds = Set(input.streams.map(\.mediaType))
                guard kinds == [.subtitle], input.streams.allSatisfy({ TextCueReader.supports($0.codecName) }) else {
                    let holds = kinds.subtracting([.subtitle]).map(\.rawValue).sorted().joined(separator: " and ")
                    let reason =
                        holds.isEmpty
                        ? "its subtitles are not text Playhead can show" : "not a subtitle file (it holds \(holds))"
                    problems.append(PlaybackError(.unsupported, source: path, reason: reason))
                    continue
                }
                // Named by the file in menus and messages ("Track 1" said nothing), unless it names itself.
                input.nameUntitledStreams((path as NSString).lastPathComponent)
                // `Film.fr.srt` is French, unless the file says otherwise.
                if let language = SubtitleFileNames.language(of: (path as NSString).lastPathComponent) {
                    input.setUnknownLanguage(language)
                }
                let part = DemuxerSource(input: input, follower: nil)
                part.cueFile = parsedCues(path, codec: input.streams.first?.codecName ?? "")
                parts.append(part)
            } catch {
                problems.append(PlaybackError(opening: path, error: error))
            }
        }
        return (parts, problems)
    }

    /// The largest subtitle file read whole (a film's subtitles are well under 1 MB).
    static let largestParsedFile = 32 << 20

    /// The cues of a WebVTT or SubRip file by Playhead's parsers; nil for other formats, a file too large or one
    /// the WebVTT parser refuses (FFmpeg's samples are read then).
    static func parsedCues(_ path: String, codec: String) -> [SubtitleCue]? {
        guard ["webvtt", "subrip", "srt"].contains(codec),
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int,
            size <= largestParsedFile, let bytes = FileManager.default.contents(atPath: path)
        else { return nil }
        if codec == "webvtt" { return try? WebVTTParser.parse(bytes).cues }
        return SRTParser.parse(bytes).cues
    }

    /// `source` with `parts` read beside it (its own parts first when it is merged already).
    static func adding(_ parts: [any MediaSource], to source: any MediaSource) -> any MediaSource {
        guard !parts.isEmpty else { return source }
        if let merged = source as? MergedSource { return MergedSource(merged.parts + parts) }
        return MergedSource([source] + parts)
    }
}
