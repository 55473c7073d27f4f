import Foundation
import Playhead

/// `--alang`, `--aid`, `--slang`, `--sid` and `--no-sub`: which sound and subtitle tracks of each input play.
/// Parsed and validated before anything plays.
struct TrackOptions: Equatable {
    /// Preferred languages of the sound, most wanted first (`--alang=fr,en`).
    var audioLanguages: [String] = []
    /// The sound track by number among the input's sound tracks, from 1 (`--aid=N`); nil: by language or the
    /// media's choice.
    var audioTrack: Int?

    /// Preferred languages of the subtitles (`--slang=fr,en`).
    var subtitleLanguages: [String] = []
    /// The subtitle track by number among the input's subtitle tracks, from 1 (`--sid=N`); 0 for none (`--sid=no`,
    /// `--no-sub`); nil: by language or the media's choice.
    var subtitleTrack: Int?
    /// Subtitle files shown with every input (`--sub-file`, repeatable), the last one chosen.
    var subtitleFiles: [String] = []
    /// Whether subtitle files named after a local input (`Film.srt`, `Film.en.srt` beside `Film.mkv`) are shown
    /// with it, before the `--sub-file` ones (`--sub-auto=exact`, the default, as mpv's; `--sub-auto=no`).
    var autoSubtitles = true
    /// Seconds the subtitles show later than their time stamps say (`--sub-delay`, negative: earlier).
    var subtitleDelay: Double = 0

    /// Takes `--alang`, `--aid`, `--slang`, `--sid` or `--no-sub`; false for any other option.
    mutating func parse(_ name: String, _ value: String?) throws(Options.UsageError) -> Bool {
        switch name {
        case "--alang": audioLanguages = try Self.languages(name, value)
        case "--slang": subtitleLanguages = try Self.languages(name, value)
        case "--no-sub": subtitleTrack = 0
        case "--sub-file":
            let path = try Options.need(name, value)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue,
                FileManager.default.isReadableFile(atPath: path)
            else { throw Options.UsageError(description: "--sub-file: '\(path)' is not a readable file") }
            subtitleFiles.append(path)
        case "--sub-auto":
            let v = try Options.need(name, value)
            guard v == "exact" || v == "no" else {
                throw Options.UsageError(description: "--sub-auto: expected 'exact' or 'no', got '\(v)'")
            }
            autoSubtitles = v == "exact"
        case "--sid":
            let v = try Options.need(name, value)
            if v == "auto" {
                subtitleTrack = nil
            } else if v == "no" {
                subtitleTrack = 0
            } else if let n = Int(v), (1...1000).contains(n) {
                subtitleTrack = n
            } else {
                throw Options.UsageError(
                    description: "--sid: expected a track number from 1, 'no' or 'auto', got '\(v)'")
            }
        case "--sub-delay":
            let v = try Options.need(name, value)
            guard let d = Options.decimal(v), d.isFinite, abs(d) <= 3600 else {
                throw Options.UsageError(description: "--sub-delay: expected seconds from -3600 to 3600, got '\(v)'")
            }
            subtitleDelay = d
        case "--aid":
            let v = try Options.need(name, value)
            if v == "auto" {
                audioTrack = nil
            } else if let n = Int(v), (1...1000).contains(n) {
                audioTrack = n
            } else {
                throw Options.UsageError(description: "--aid: expected a track number from 1 or 'auto', got '\(v)'")
            }
        default: return false
        }
        return true
    }

    /// A comma-separated list of language tags.
    private static func languages(_ name: String, _ value: String?) throws(Options.UsageError) -> [String] {
        let tags = try Options.need(name, value).split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        for tag in tags where !isLanguageTag(tag) {
            throw Options.UsageError(description: "\(name): '\(tag)' is not a language tag (such as fr or fra)")
        }
        return tags
    }

    /// Letters, digits and dashes, starting with 2 or 3 letters (BCP 47 or ISO 639).
    static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy { p in
            (1...8).contains(p.count) && p.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }

    /// The items' policy; nil when no track option was given.
    var selection: CommandLineTrackSelection? {
        audioLanguages.isEmpty && audioTrack == nil && subtitleLanguages.isEmpty && subtitleTrack == nil
            ? nil
            : CommandLineTrackSelection(
                audioLanguages: audioLanguages, audioTrack: audioTrack, subtitleLanguages: subtitleLanguages,
                subtitleTrack: subtitleTrack)
    }

    static let help = """
          --alang=LANG[,LANG...]         play the sound track in the first of these languages the input has
          --aid=N|auto                   play the input's Nth sound track (from 1)
          --slang=LANG[,LANG...]         show the subtitles in the first of these languages the input has
          --sid=N|no|auto                show the input's Nth subtitle track (from 1), or none
          --no-sub                       show no subtitles
          --sub-file=PATH                show this subtitle file (SubRip, WebVTT, ASS) with the input
          --sub-auto=exact|no            show subtitle files named after the input (Film.srt, Film.en.srt) with it
                                         (default exact)
          --sub-delay=SECONDS            show the subtitles this much later (negative: earlier)
        """
}

/// The track policy of `--alang`, `--aid`, `--slang`, `--sid` and `--no-sub`. A value type; its `select` runs on
/// an engine's demux thread.
struct CommandLineTrackSelection: TrackSelectionPolicy {
    var audioLanguages: [String]
    var audioTrack: Int?
    var subtitleLanguages: [String] = []
    var subtitleTrack: Int?

    func select(_ mediaType: AssetTrack.MediaType, among tracks: [AssetTrack], suggested: AssetTrack?) -> AssetTrack? {
        let (number, option, kind): (Int?, String, String)
        switch mediaType {
        case .audio: (number, option, kind) = (audioTrack, "--aid", "sound")
        case .subtitle: (number, option, kind) = (subtitleTrack, "--sid", "subtitle")
        default: return suggested
        }
        if let n = number {
            if n == 0 { return nil }
            // Numbered among the tracks of the kind (the policy is given every type's).
            let ofKind = tracks.filter { $0.mediaType == mediaType }
            if n <= ofKind.count { return ofKind[n - 1] }
            let s = ofKind.count == 1 ? "" : "s"
            let has = ofKind.isEmpty ? "no \(kind) track" : "\(ofKind.count) \(kind) track\(s)"
            let instead =
                suggested == nil ? "" : mediaType == .audio ? "; playing the default one" : "; showing the default one"
            printError("\(option)=\(n): the input has \(has)\(instead)")
            return suggested
        }
        return LanguageTrackSelection(audioLanguages: audioLanguages, subtitleLanguages: subtitleLanguages).select(
            mediaType, among: tracks, suggested: suggested)
    }
}
