import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// Audio renditions (`EXT-X-MEDIA:TYPE=AUDIO`): the variant's `AUDIO` group lists them, each a track of the item
/// known from the playlist (`HLSRenditionSource`); the one chosen plays beside the variant from its own playlist,
/// with its own segment loader and demuxer, merged with the variant's on the item's timeline (`MergedSource`).
/// Only the chosen rendition is fetched. Demux thread.
extension HLSSource {
    /// The rendition to play when the item does not choose: the first in the first of `languages` among those
    /// that may be chosen automatically (`AUTOSELECT` or `DEFAULT`), else the `DEFAULT` one, else the first
    /// `AUTOSELECT` one, else the first. It may have no `URI` (its sound is in the variant's own segments).
    static func preferredRendition(among renditions: [Rendition], languages: [String]) -> Rendition? {
        let automatic = renditions.filter { $0.autoselect || $0.isDefault }
        let byLanguage = languages.lazy.map(LanguageTrackSelection.language).compactMap { language in
            automatic.first { $0.language.map(LanguageTrackSelection.language) == language }
        }.first
        return byLanguage ?? renditions.first { $0.isDefault } ?? renditions.first { $0.autoselect }
            ?? renditions.first
    }

    /// A warning for each rendition group `variant` names that `master` does not define (RFC 8216bis 4.4.6.2.1):
    /// the variant plays with what its own segments carry.
    static func missingGroups(of variant: Variant, in master: MultivariantPlaylist, url: URL) -> [HLSNotice] {
        let named: [(String, MediaType, String?)] = [
            ("AUDIO", .audio, variant.stream.audio), ("SUBTITLES", .subtitles, variant.stream.subtitles),
        ]
        return named.compactMap { attribute, type, group in
            guard let group, !master.renditions.contains(where: { $0.type == type && $0.groupID == group }) else {
                return nil
            }
            return .recovered(
                PlaybackError(
                    .parsing, source: url.absoluteString,
                    reason: "the variant's \(attribute)=\"\(group)\" names no EXT-X-MEDIA group: it plays without it"))
        }
    }

    /// The languages the user reads, most wanted first (`LanguageTrackSelection.environmentLanguages`).
    static func environmentLanguages(_ environment: [String: String] = ProcessInfo.processInfo.environment)
        -> [String]
    { LanguageTrackSelection.environmentLanguages(environment) }

    /// Opens `rendition` (it has a `URI`) on the item's timeline, whose time stamp 0 is `mainStart` (the
    /// variant's), to be read from the item time `position`: its time stamps share the variant's clock, as RFC 8216
    /// requires of the renditions of one presentation, and its timeline domains are the variant's. Blocking: its
    /// playlist and the segment at `position` are fetched and probed (`place`).
    func openRendition(
        _ rendition: Rendition, mainStart: Double, at position: Double, options: HLSClientOptions,
        stopping: (@Sendable () -> Bool)?
    ) throws(PlaybackError) -> MediaInput {
        guard let url = rendition.url else {
            throw PlaybackError(.parsing, source: self.url.absoluteString, reason: "a rendition without a URI")
        }
        var options = options
        options.localFilesAllowed = fetch.localFiles
        let source = try HLSSource(url: url, timeout: fetch.timeout, options: options, stopping: stopping)
        place(source, at: position)
        source.timeline = timeline
        var inputOptions = MediaInput.OpenOptions()
        inputOptions.timeout = fetch.timeout
        let input: MediaInput
        do {
            input = try MediaInput(source: source, name: url.absoluteString, options: inputOptions)
        } catch {
            throw source.failure ?? PlaybackError(opening: url.absoluteString, error: error)
        }
        let probed = input.startSeconds
        input.setStartSeconds(mainStart)
        source.setTimelineBase(mainStart)
        if source.live != nil { source.placeWindow(fetchedFirstAt: probed - mainStart) }
        return input
    }

    /// Opens subtitle rendition `rendition` (it has a `URI`) to be read from the item time `position`: its
    /// playlist is loaded (blocking) and placed on the item's timeline (`place`); segments are loaded by the caller
    /// (`loadNext`), never through FFmpeg.
    func openSubtitleRendition(
        _ rendition: Rendition, at position: Double, options: HLSClientOptions, stopping: (@Sendable () -> Bool)?
    ) throws(PlaybackError) -> HLSSource {
        guard let url = rendition.url else {
            throw PlaybackError(.parsing, source: self.url.absoluteString, reason: "a rendition without a URI")
        }
        var options = options
        options.localFilesAllowed = fetch.localFiles
        let source = try HLSSource(url: url, timeout: fetch.timeout, options: options, stopping: stopping)
        source.loadsOnRead = false
        // A subtitle segment that cannot be had is skipped like a later media segment, never the item's error.
        source.fetchedAny = true
        // One that is not WebVTT is said so by the rendition's parser.
        source.refusesUnknownSegments = false
        place(source, at: position)
        return source
    }

    /// Moves `rendition`'s client, just opened, to the segment that holds the item time `position`. A VOD playlist
    /// starts where the item does. A live one has moved on since the variant's was first loaded (more so for a
    /// rendition chosen while playing): its window is placed by media sequence number against the playlist
    /// playing, as a variant's is (`adopt`); a sound rendition's is then checked against the time stamps of the
    /// segment fetched (`placeWindow`), as RFC 8216 does not promise that renditions number their segments alike.
    private func place(_ rendition: HLSSource, at position: Double) {
        if rendition.live != nil, live != nil {
            rendition.windowStart = itemTime(ofFirstSegmentOf: rendition.playlist)
            rendition.reposition(at: position)
        } else if position > 0 {
            rendition.reposition(at: position)
        }
    }
}
