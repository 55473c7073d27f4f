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
            // Only a regular file: a FIFO (or a device) named like subtitles would be opened and read twice, and
            // the second open waits for a writer for good.
            guard isRegularFile(path) else {
                let reason = FileManager.default.fileExists(atPath: path) ? "not a regular file" : "no such file"
                problems.append(PlaybackError(.unsupported, source: path, reason: reason))
                continue
            }
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
                switch parsedCues(path, codec: input.streams.first?.codecName ?? "") {
                case .success(let cues): part.cueFile = cues
                case .failure(let error):
                    // FFmpeg takes a .vtt file without the signature as an empty track: said, not shown.
                    problems.append(
                        PlaybackError(.parsing, source: path, reason: "not a WebVTT file: \(error.message)"))
                    continue
                }
                parts.append(part)
            } catch {
                problems.append(PlaybackError(opening: path, error: error))
            }
        }
        return (parts, problems)
    }

    /// The largest subtitle file read whole (a film's subtitles are well under 1 MB).
    static let largestParsedFile = 32 << 20

    /// The cues of a WebVTT or SubRip file by Playhead's parsers: nil for other formats or a file too large
    /// (FFmpeg's samples are read then); the WebVTT parser's error for a file it refuses. A SubRip file in UTF-16
    /// (with its byte-order mark) or in Windows-1252 (not UTF-8: older files from Western Europe) is read as text
    /// in that encoding, as mpv and VLC read them.
    static func parsedCues(_ path: String, codec: String) -> Result<[SubtitleCue]?, SubtitleParseError> {
        guard ["webvtt", "subrip", "srt"].contains(codec),
            let size = (try? FileManager.default.attributesOfItem(atPath: path))?[.size] as? Int,
            size <= largestParsedFile, let bytes = FileManager.default.contents(atPath: path)
        else { return .success(nil) }
        if codec == "webvtt" {
            do {
                return .success(try WebVTTParser.parse(bytes).cues)
            } catch {
                return .failure(error)
            }
        }
        return .success(SRTParser.parse(utf8(bytes)).cues)
    }

    /// Subtitle text as UTF-8: UTF-16 with a byte-order mark converted, text that is not UTF-8 read as
    /// Windows-1252, UTF-8 as it is.
    static func utf8(_ data: Data) -> Data {
        if data.starts(with: [0xFF, 0xFE]) || data.starts(with: [0xFE, 0xFF]),
            let text = String(data: data, encoding: .utf16)
        {
            return Data(text.utf8)
        }
        if String(data: data, encoding: .utf8) == nil, let text = String(data: data, encoding: .windowsCP1252) {
            return Data(text.utf8)
        }
        return data
    }

    /// Whether `path` names a regular file (a link to one counts).
    static func isRegularFile(_ path: String) -> Bool {
        var st = stat()
        return stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFREG
    }

    /// `source` with `parts` read beside it (its own parts first when it is merged already).
    static func adding(_ parts: [any MediaSource], to source: any MediaSource) -> any MediaSource {
        guard !parts.isEmpty else { return source }
        if let merged = source as? MergedSource { return MergedSource(merged.parts + parts) }
        return MergedSource([source] + parts)
    }
}
