import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// Audio renditions (`EXT-X-MEDIA:TYPE=AUDIO` with a `URI`): the variant's `AUDIO` group names them, and the one
/// chosen plays beside the variant from its own playlist, with its own segment loader and demuxer
/// (`HLSMediaSource`), merged with the variant's on the item's timeline (`MergedSource`). Only the chosen
/// rendition is fetched. Demux thread (or the asset loader's open).
extension HLSSource {
    /// The rendition of `variant`'s audio group to play: the first in the first of `languages` among those that
    /// may be chosen automatically (`AUTOSELECT` or `DEFAULT`), else the group's `DEFAULT`, else its first
    /// `AUTOSELECT`, else its first. Nil when the variant names no group, the group is missing, or the chosen
    /// rendition has no `URI` (its sound is in the variant's own segments).
    static func audioRendition(
        of variant: Variant, in master: MultivariantPlaylist, languages: [String]
    ) -> Rendition? {
        guard let group = variant.stream.audio else { return nil }
        let members = master.renditions.filter { $0.type == .audio && $0.groupID == group }
        let automatic = members.filter { $0.autoselect || $0.isDefault }
        let chosen =
            languages.lazy.map(LanguageTrackSelection.language).compactMap { language in
                automatic.first { $0.language.map(LanguageTrackSelection.language) == language }
            }.first
            ?? members.first { $0.isDefault } ?? members.first { $0.autoselect } ?? members.first
        return chosen?.url == nil ? nil : chosen
    }

    /// The languages the user reads, most wanted first, from the environment as gettext reads it: `LANGUAGE` (a
    /// colon-separated list), then `LC_ALL`, `LC_MESSAGES`, `LANG`. "C" and "POSIX" name none.
    static func environmentLanguages(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> [String]
    {
        var tags = (environment["LANGUAGE"] ?? "").split(separator: ":").map(String.init)
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let value = environment[key], !value.isEmpty {
                tags.append(value)
                break
            }
        }
        return tags.map { String($0.prefix { $0 != "." && $0 != "@" }) }.filter {
            !$0.isEmpty && $0 != "C" && $0 != "POSIX"
        }
    }

    /// Opens the audio rendition chosen at open (`audioRendition`) on the item's timeline, whose time stamp 0 is
    /// `mainStart` (the variant's): its time stamps share the variant's clock, as RFC 8216 requires of the
    /// renditions of one presentation, and its timeline domains are the variant's. A rendition that cannot be
    /// opened is reported (`.recovered`, in the error log) and left out: the variant plays with its own sound,
    /// if it has any. Nothing when no rendition was chosen.
    func openRenditions(options: HLSClientOptions, mainStart: Double, stopping: (@Sendable () -> Bool)?) {
        guard let rendition = chosenAudioRendition, let url = rendition.url else { return }
        do throws(PlaybackError) {
            let source = try HLSSource(url: url, timeout: fetch.timeout, options: options, stopping: stopping)
            source.rendition = rendition
            if openedAt > 0 { source.reposition(at: openedAt) }
            source.timeline = timeline
            var inputOptions = MediaInput.OpenOptions()
            inputOptions.timeout = fetch.timeout
            let input: MediaInput
            do {
                input = try MediaInput(source: source, name: url.absoluteString, options: inputOptions)
            } catch {
                throw source.failure ?? PlaybackError(opening: url.absoluteString, error: error)
            }
            input.setStartSeconds(mainStart)
            source.setTimelineBase(mainStart)
            renditionInputs = [input]
        } catch {
            let name = rendition.name.isEmpty ? "" : " \"\(rendition.name)\""
            report(
                .recovered(
                    PlaybackError(
                        error.category, source: error.source,
                        reason: "the audio rendition\(name) cannot be played: \(error.reason)")))
        }
    }
}
