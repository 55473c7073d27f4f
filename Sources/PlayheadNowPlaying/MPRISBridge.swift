import Foundation
import Playhead

/// Turns a `NowPlayingInfoCenter` and its `RemoteCommandCenter` into MPRIS state, and remote requests into
/// command events. Main actor; the bus thread only reaches it through `Task { @MainActor }`.
@MainActor
final class MPRISBridge {
    weak var center: NowPlayingInfoCenter?
    let bus: MPRISBus
    private(set) var state = MPRISState()
    private var trackKey: [String?]?
    private var trackNumber = 0
    /// The information last published: when it has not changed, the position goes on from its extrapolation.
    private var lastInfo: NowPlayingInfo?
    /// The artworks written to the cache and their file URLs, by size.
    private var artworks: [Int: (bytes: [UInt8], url: String?)] = [:]
    /// The update due when the position next enters or leaves an ad.
    private var boundary: Task<Void, Never>?
    /// Jumps smaller than this, in seconds, relative to the extrapolated position are clock drift, not seeks.
    static let seekThreshold = 0.5

    var busName: String { bus.busName }

    init?(center: NowPlayingInfoCenter, trackList: Bool) {
        self.center = center
        guard let bus = MPRISBus(trackList: trackList, onRequest: Self.hop(to: center)) else { return nil }
        self.bus = bus
        center.remoteCommandCenter.observe { [weak self] in self?.update() }
        update()
    }

    func close() {
        boundary?.cancel()
        bus.close()
    }

    // A center (or session) dropped without `disconnect()` leaves the bus too; `close()` is safe from any thread.
    deinit { bus.close() }

    /// The bus thread's request handler: hands each request to the main actor. Built outside the main actor so
    /// the closure is not main-actor isolated.
    private nonisolated static func hop(to center: NowPlayingInfoCenter) -> @Sendable (MPRISRequest) -> Void {
        { [weak center] request in Task { @MainActor in center?.bridgeHandle(request) } }
    }

    /// Recomputes the state from the center and publishes it. `Seeked` goes with it when `seeked` is true, or,
    /// unless the center announces its seeks itself, when the position jumped relative to its extrapolation.
    /// `republished`: the center's info was assigned, so its elapsed time is anew the position now; otherwise
    /// (a command, the playback state) the position runs on from the last publication.
    func update(seeked forced: Bool = false, republished: Bool = false) {
        guard let center else { return }
        let now = MonotonicClock.now()
        let old = state
        var s = old
        let info = center.info
        let c = center.remoteCommandCenter
        let key = info.map { [$0.assetURL?.absoluteString, $0.title, $0.artist, $0.albumTitle] }
        if key != trackKey {
            trackKey = key
            if key != nil { trackNumber += 1 }
        }
        let live = info?.isLiveStream ?? false
        if let d = info?.playbackDuration, d.isFinite, d > 0, !live { s.duration = d } else { s.duration = nil }
        s.ads = Self.ads(info?.adTimeRanges ?? [], duration: s.duration)
        s.metadata = info.map { metadata($0, length: s.duration.map(s.withoutAds)) } ?? MPRISState.Metadata()
        if info != nil, let id = center.currentTrackID { s.metadata.trackID = id }
        s.hasTrackList = bus.hasTrackList
        s.canEditTracks = bus.hasTrackList && center.trackList?.canEdit == true
        s.tracks = bus.hasTrackList ? center.tracks.map { trackMetadata($0) } : []
        s.supportedURISchemes = center.openURL == nil ? [] : NowPlayingInfoCenter.uriSchemes
        s.supportedMIMETypes = center.openURL == nil ? [] : NowPlayingInfoCenter.mimeTypes
        let rate = info?.playbackRate ?? 0
        switch center.playbackState {
        case .playing: s.playbackStatus = "Playing"
        case .paused, .interrupted: s.playbackStatus = "Paused"
        case .stopped: s.playbackStatus = "Stopped"
        case .unknown: s.playbackStatus = info == nil ? "Stopped" : (rate > 0 ? "Playing" : "Paused")
        }
        if rate > 0 { s.rate = rate } else if let d = info?.defaultPlaybackRate, d > 0 { s.rate = d }
        s.positionRate = s.playbackStatus == "Playing" ? (rate > 0 ? rate : s.rate) : 0
        if let info, (info == lastInfo && !republished) || info.elapsedPlaybackTime == nil {
            // Not republished (a command or the playback state changed): no jump.
            s.elapsed = old.position(at: now)
        } else {
            s.elapsed = info?.elapsedPlaybackTime ?? 0
        }
        s.stamp = now
        lastInfo = info
        let hasItem = info != nil
        let inAd = s.ad(at: s.position(at: now)) != nil
        s.canPlay = hasItem && (c.playCommand.isActive || c.togglePlayPauseCommand.isActive)
        s.canPause = hasItem && (c.pauseCommand.isActive || c.togglePlayPauseCommand.isActive)
        s.canSeek =
            hasItem && !live && !inAd && !center.refusesSeeking
            && (c.changePlaybackPositionCommand.isActive || c.skipForwardCommand.isActive
                || c.skipBackwardCommand.isActive)
        s.canGoNext = c.nextTrackCommand.isActive && center.canGoNext != false
        s.canGoPrevious = c.previousTrackCommand.isActive && center.canGoPrevious != false
        s.canSetRate = c.changePlaybackRateCommand.isActive && !live
        let rates = c.changePlaybackRateCommand.supportedPlaybackRates.filter { $0 > 0 && $0.isFinite }
        s.minimumRate = s.canSetRate ? min(1, rates.min() ?? 1) : 1
        s.maximumRate = s.canSetRate ? max(1, rates.max() ?? 1) : 1
        s.canSetLoop = c.changeRepeatModeCommand.isActive
        s.canSetShuffle = c.changeShuffleModeCommand.isActive
        s.canSetVolume = center.volumeControl != nil
        s.volume = center.volume
        s.canQuit = center.quitHandler != nil
        s.canRaise = center.raiseHandler != nil
        s.canSetFullscreen = center.fullscreenHandler != nil
        s.fullscreen = center.isFullscreen
        switch c.changeRepeatModeCommand.currentRepeatType {
        case .off: s.loopStatus = "None"
        case .one: s.loopStatus = "Track"
        case .all: s.loopStatus = "Playlist"
        }
        s.shuffle = c.changeShuffleModeCommand.currentShuffleType == .items
        var seeked: Int64?
        if forced {
            seeked = s.positionMicroseconds(at: now)
        } else if !center.announcesSeeks, hasItem, s.metadata.trackID == old.metadata.trackID,
            abs(s.publishedPosition(at: now) - old.publishedPosition(at: now)) > Self.seekThreshold
        {
            seeked = s.positionMicroseconds(at: now)
        }
        state = s
        bus.publish(s, seekedTo: seeked)
        scheduleAdBoundary(now: now)
    }

    /// The ads as sorted, merged ranges within the duration.
    private static func ads(_ ranges: [AdTimeRange], duration: Double?) -> [Range<Double>] {
        var spans = ranges.compactMap { r -> Range<Double>? in
            let start = max(0, r.timeRange.start.seconds)
            let end = min(r.timeRange.end.seconds, duration ?? .infinity)
            return start.isFinite && end.isFinite && end > start ? start..<end : nil
        }
        spans.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Double>] = []
        for span in spans {
            if let last = merged.last, span.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, span.upperBound)
            } else {
                merged.append(span)
            }
        }
        return merged
    }

    /// While playing with ads ahead, updates again when the position enters or leaves one (`CanSeek`).
    private func scheduleAdBoundary(now: Double) {
        boundary?.cancel()
        boundary = nil
        guard state.positionRate > 0 else { return }
        let position = state.position(at: now)
        let edges = state.ads.flatMap { [$0.lowerBound, $0.upperBound] }.filter { $0 > position }
        guard let next = edges.min() else { return }
        let delay = (next - position) / state.positionRate + 0.001
        boundary = Task { [weak self] in
            try? await Task.sleep(for: .seconds(delay))
            if !Task.isCancelled { self?.update() }
        }
    }

    /// A queue track's metadata: its length without ads.
    private func trackMetadata(_ track: NowPlayingTrack) -> MPRISState.Metadata {
        var length: Double?
        if let d = track.info.playbackDuration, d.isFinite, d > 0, track.info.isLiveStream != true {
            let ads = MPRISState(duration: d, ads: Self.ads(track.info.adTimeRanges ?? [], duration: d))
            length = ads.withoutAds(d)
        }
        var m = metadata(track.info, length: length)
        m.trackID = track.id
        return m
    }

    private func metadata(_ info: NowPlayingInfo, length: Double?) -> MPRISState.Metadata {
        var m = MPRISState.Metadata()
        m.trackID = "/org/playhead/track/\(trackNumber)"
        m.lengthMicroseconds = length.map { Int64(($0 * 1e6).rounded()) }
        if let art = info.artwork?.data, !art.isEmpty {
            if let cached = artworks[art.count], cached.bytes == art {
                m.artURL = cached.url
            } else {
                let url = ArtworkCache.fileURL(for: art)
                artworks[art.count] = (art, url)
                m.artURL = url
            }
        }
        m.title = info.title
        m.artists = info.artist.map { [$0] } ?? []
        m.album = info.albumTitle
        m.albumArtists = info.albumArtist.map { [$0] } ?? []
        m.genres = info.genre.map { [$0] } ?? []
        m.trackNumber = info.albumTrackNumber.map { Int32(clamping: $0) }
        m.url = info.assetURL?.absoluteString
        for option in info.currentLanguageOptions ?? [] {
            let type = option.languageOptionType
            // A lone sound track without a language says nothing worth showing ("Track 1").
            let choices = info.availableLanguageOptions?.first { $0.languageOptions.first?.languageOptionType == type }
            if type == .audible, option.languageTag == nil, (choices?.languageOptions.count ?? 0) < 2 { continue }
            let name = option.displayName ?? option.languageTag
            if type == .audible {
                (m.audioTrack, m.audioLanguage) = (name, option.languageTag)
            } else {
                (m.subtitleTrack, m.subtitleLanguage) = (name, option.languageTag)
            }
        }
        return m
    }
}

extension NowPlayingInfoCenter {
    /// The bridge's entry for remote requests. Main actor.
    func bridgeHandle(_ request: MPRISRequest) { bridge?.handle(request, commands: remoteCommandCenter) }
}
