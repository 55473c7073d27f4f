import Foundation

extension URLAsset {
    /// The choices for `characteristic`, like `AVAsset.loadMediaSelectionGroup(for:)`: `.audible` lists the sound
    /// tracks (an HLS stream's audio renditions, each known from its playlist and fetched only if chosen),
    /// `.legible` the subtitle tracks; nil when the asset offers none. Loads the asset; throws its error. Any
    /// actor.
    public func loadMediaSelectionGroup(for characteristic: MediaCharacteristic) async throws
        -> MediaSelectionGroup?
    {
        try await loader.info().mediaSelectionGroup(for: characteristic)
    }
}

extension AssetInfo {
    /// The group of `characteristic` from the asset's tracks; its default is what plays when nobody chooses.
    func mediaSelectionGroup(for characteristic: MediaCharacteristic) -> MediaSelectionGroup? {
        MediaSelectionGroup(
            characteristic, tracks: tracks,
            defaultTrackID: characteristic == .audible ? media.audio?.id : media.text?.id)
    }
}

extension MediaSelectionGroup {
    /// The group of `characteristic` (`.audible`, `.legible`) among `tracks`; nil when none of them has it.
    init?(_ characteristic: MediaCharacteristic, tracks: [AssetTrack], defaultTrackID: Int?) {
        let type: AssetTrack.MediaType
        switch characteristic {
        case .audible: type = .audio
        case .legible: type = .subtitle
        default: return nil
        }
        // An HLS rendition with the `NAME` and language of one of another group is the same choice.
        var options: [MediaSelectionOption] = []
        for (number, track) in tracks.filter({ $0.mediaType == type }).enumerated() {
            if let group = track.group,
                let same = options.firstIndex(where: { o in
                    tracks.first { $0.trackID == o.trackID }.map {
                        $0.group != nil && $0.group != group && $0.name == track.name
                            && $0.languageCode == track.languageCode
                    } ?? false
                })
            {
                options[same].equivalentTrackIDs.insert(track.trackID)
                continue
            }
            options.append(MediaSelectionOption(track, number: number + 1))
        }
        guard !options.isEmpty else { return nil }
        self.init(
            characteristic: characteristic, options: options,
            defaultOption: options.first {
                $0.trackID == defaultTrackID || $0.equivalentTrackIDs.contains(defaultTrackID ?? -1)
            },
            allowsEmptySelection: type == .subtitle)
    }
}

extension PlayerItem {
    /// Plays `option` of `group` (nil: none of it, where the group allows an empty selection), like
    /// `AVPlayerItem.select(_:in:)`. It overrides `trackSelection` for that kind of media. Before the item plays,
    /// its start takes it; while it plays or is paused, another sound track of the same file or another HLS audio
    /// rendition takes over in place (no gap, nothing reopened; a rendition is fetched from the play head and takes
    /// over once its sound is a second ahead), and subtitles change in place (the new track's cue showing now
    /// shows at once; an HLS subtitle rendition is fetched from the play head); any other change starts the item
    /// again where it is with the new choice (the position and the rate are kept; a short gap while it reopens).
    /// Main actor.
    public func select(_ option: MediaSelectionOption?, in group: MediaSelectionGroup) {
        guard let type = group.options.first?.mediaType else { return }
        if option == nil && !group.allowsEmptySelection { return }
        if let option, !group.options.contains(option) { return }
        let choice = option?.trackID
        if let old = mediaSelectionChoices[type], old == choice { return }
        mediaSelectionChoices[type] = .some(choice)
        // A queue that already opened the item ahead with the old choice opens it again.
        if let owner = queueOwner, let preloaded = owner.preloaded, preloaded.item === self,
            !preloaded.engine.isActive
        {
            owner.discardPreloaded()
            owner.preloadNextIfNeeded()
            return
        }
        // Subtitles turned off: the forced ones in the language heard show (foreign dialogue, signs), as at the start.
        let target = type == .subtitle && choice == nil ? forcedSubtitlesHeard() : choice
        if playingTracks[type] == target { return }
        // Another sound track of the same file plays in place, without a gap; anything else restarts the item.
        if type == .audio, let id = target, player?.switchAudioInPlace(self, to: id) == true { return }
        if type == .subtitle, player?.switchTextInPlace(self, to: target) == true { return }
        player?.restartCurrentItem(self)
    }

    /// The forced-only subtitle track in the language of the sound playing, if any.
    private func forcedSubtitlesHeard() -> Int? {
        let heard = playingTracks[.audio].flatMap { id in tracks.first { $0.trackID == id } }
        return AutomaticTrackSelection.forcedSubtitles(among: tracks, heard: heard)?.trackID
    }

    /// The display name of the track of `type` playing (as its `MediaSelectionOption` gives it); nil for none.
    func playingOptionName(_ type: AssetTrack.MediaType) -> String? {
        guard let id = playingTracks[type] else { return nil }
        let ofType = tracks.filter { $0.mediaType == type }
        guard let index = ofType.firstIndex(where: { $0.trackID == id }) else { return nil }
        return MediaSelectionOption(ofType[index], number: index + 1).displayName
    }

    /// The choices for `characteristic` among the item's tracks, as `URLAsset.loadMediaSelectionGroup(for:)`
    /// gives them; nil before the item opens or when it has none. Main actor.
    package func mediaSelectionGroup(for characteristic: MediaCharacteristic) -> MediaSelectionGroup? {
        let media = (try? asset.loader.result?.get())?.media
        return MediaSelectionGroup(
            characteristic, tracks: tracks,
            defaultTrackID: characteristic == .audible ? media?.audio?.id : media?.text?.id)
    }

    /// What plays now in each group, like `AVPlayerItem.currentMediaSelection`: the tracks the item's playback
    /// opened (the choices made with `select(_:in:)` once they apply). Subtitles chosen off are none, whatever
    /// forced ones show meanwhile (as with AVFoundation: they show because nothing is selected). Main actor.
    public var currentMediaSelection: MediaSelection {
        MediaSelection(playing: playingTracks.filter { type, _ in mediaSelectionChoices[type] != .some(nil) })
    }

    /// `trackSelection` with the choices made with `select(_:in:)` in place of its own.
    var effectiveTrackSelection: any TrackSelectionPolicy {
        mediaSelectionChoices.isEmpty
            ? trackSelection : ChosenTracks(base: trackSelection, choices: mediaSelectionChoices)
    }
}

/// The item's policy, except for the kinds of media chosen explicitly (`PlayerItem.select(_:in:)`); subtitles chosen
/// off still show forced-only ones in the language heard. A value type, safe anywhere.
struct ChosenTracks: TrackSelectionPolicy {
    var base: any TrackSelectionPolicy
    var choices: [AssetTrack.MediaType: Int?]

    func select(_ mediaType: AssetTrack.MediaType, among tracks: [AssetTrack], suggested: AssetTrack?) -> AssetTrack? {
        guard let choice = choices[mediaType] else {
            return base.select(mediaType, among: tracks, suggested: suggested)
        }
        guard let id = choice else {
            // Subtitles off: forced ones in the language heard still show (foreign dialogue, signs).
            guard mediaType == .subtitle else { return nil }
            let sound = tracks.filter { $0.mediaType == .audio }
            return AutomaticTrackSelection.forcedSubtitles(
                among: tracks, heard: select(.audio, among: tracks, suggested: sound.first))
        }
        // A choice that cannot play (its rendition failed to open) leaves the item's own policy to choose.
        return tracks.first { $0.trackID == id } ?? base.select(mediaType, among: tracks, suggested: suggested)
    }
}
