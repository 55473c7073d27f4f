import Foundation
import PlayheadCore
import PlayheadFFmpeg

/// Subtitle files shown beside an item's own tracks (`URLAsset.OptionKey.subtitleFiles`, `playhead --sub-file`):
/// each opened by FFmpeg (SubRip, WebVTT, ASS...) as a part of the item's source, its cues on the item's timeline.
/// A file that cannot be read or holds anything but text subtitles is left out, with the reason.
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
                parts.append(DemuxerSource(input: input, follower: nil))
            } catch {
                problems.append(PlaybackError(opening: path, error: error))
            }
        }
        return (parts, problems)
    }

    /// `source` with `parts` read beside it (its own parts first when it is merged already).
    static func adding(_ parts: [any MediaSource], to source: any MediaSource) -> any MediaSource {
        guard !parts.isEmpty else { return source }
        if let merged = source as? MergedSource { return MergedSource(merged.parts + parts) }
        return MergedSource([source] + parts)
    }
}
