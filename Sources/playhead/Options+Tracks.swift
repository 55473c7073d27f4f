import Foundation
import Playhead

/// `--alang` and `--aid`: which sound track of each input plays. Parsed and validated before anything plays.
struct TrackOptions: Equatable {
    /// Preferred languages of the sound, most wanted first (`--alang=fr,en`).
    var audioLanguages: [String] = []
    /// The sound track by number among the input's sound tracks, from 1 (`--aid=N`); nil: by language or the
    /// media's choice.
    var audioTrack: Int?

    /// Takes `--alang` or `--aid`; false for any other option.
    mutating func parse(_ name: String, _ value: String?) throws(Options.UsageError) -> Bool {
        switch name {
        case "--alang":
            let tags = try Options.need(name, value).split(separator: ",", omittingEmptySubsequences: false).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            for tag in tags where !Self.isLanguageTag(tag) {
                throw Options.UsageError(description: "--alang: '\(tag)' is not a language tag (such as fr or fra)")
            }
            audioLanguages = tags
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

    /// Letters, digits and dashes, starting with 2 or 3 letters (BCP 47 or ISO 639).
    static func isLanguageTag(_ tag: String) -> Bool {
        let parts = tag.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter })
        else { return false }
        return parts.dropFirst().allSatisfy { p in
            (1...8).contains(p.count) && p.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
        }
    }

    /// The items' policy; nil when neither option was given.
    var selection: CommandLineTrackSelection? {
        audioLanguages.isEmpty && audioTrack == nil
            ? nil : CommandLineTrackSelection(audioLanguages: audioLanguages, audioTrack: audioTrack)
    }

    static let help = """
          --alang=LANG[,LANG...]         play the sound track in the first of these languages the input has
          --aid=N|auto                   play the input's Nth sound track (from 1)
        """
}

/// The track policy of `--alang` and `--aid`. A value type; its `select` runs on an engine's demux thread.
struct CommandLineTrackSelection: TrackSelectionPolicy {
    var audioLanguages: [String]
    var audioTrack: Int?

    func select(_ mediaType: AssetTrack.MediaType, among tracks: [AssetTrack], suggested: AssetTrack?) -> AssetTrack? {
        guard mediaType == .audio else { return suggested }
        if let n = audioTrack {
            if n <= tracks.count { return tracks[n - 1] }
            printError(
                "--aid=\(n): the input has \(tracks.count) sound track\(tracks.count == 1 ? "" : "s"); playing the default one"
            )
            return suggested
        }
        return LanguageTrackSelection(audioLanguages: audioLanguages).select(
            mediaType, among: tracks, suggested: suggested)
    }
}
