import Foundation
import Observation
import Playhead

extension NowPlayingSession {
    /// How often the session re-reads its player between events (item, tags, duration, clock drift).
    static let pollInterval: Duration = .milliseconds(250)

    func startPublishing() {
        nowPlayingInfoCenter.announcesSeeks = true
        // Every player's events, in one stream, each with its player's index: any player may start playing and be
        // followed. Cancelling the task ends the forwarding too.
        let streams = players.map { $0.events() }
        let (merged, continuation) = AsyncStream<(Int, PlayerEvent)>.makeStream()
        events = Task { [weak self] in
            let forwarders = streams.enumerated().map { index, stream in
                Task { for await event in stream { continuation.yield((index, event)) } }
            }
            defer { forwarders.forEach { $0.cancel() } }
            for await (index, event) in merged {
                guard let self else { return }
                self.handle(event, fromPlayerAt: index)
            }
        }
        startObserving()
        publishTracked()
    }

    /// A player's event: publishes; a seek of the player followed sets the elapsed time and `Seeked`. Main actor.
    private func handle(_ event: PlayerEvent, fromPlayerAt index: Int) {
        followPlayingPlayer()
        let followedSeek = index == followed
        switch event.kind {
        case .droppedFrame, .firstVideo, .segmentLoaded, .segmentAbandoned: return
        case .seekStarted(let target) where followedSeek: seekTarget = target
        case .seekDone(_, finished: false) where followedSeek: seekTarget = nil  // superseded, or cannot seek
        case .seekDone(let position, finished: true) where followedSeek:
            // The seek is done: the desktop learns where playback went on, once, with `Seeked`.
            seekTarget = nil
            publish(elapsed: position)
            nowPlayingInfoCenter.announceSeek()
            return
        default: break
        }
        publish()
        startObserving()
    }

    /// Publishes, and again whenever anything `publish` read of the player or its items changes (an app's
    /// `nowPlayingInfo` on a queued item, tags, duration, the queue), through Swift observation: nothing polls for
    /// them, so a paused session sleeps. Main actor.
    private func publishTracked() {
        guard events != nil else { return }
        withObservationTracking {
            publish()
        } onChange: { [weak self] in
            Task { @MainActor in self?.publishTracked() }
        }
    }

    /// Re-reads the player four times a second while it plays or waits to play (the clock's drift); a paused
    /// player moves only with events, which publish themselves, so the loop ends and the next event starts it
    /// again: a paused session sleeps. Main actor.
    private func startObserving() {
        guard observation == nil, player.timeControlStatus != .paused else { return }
        observation = Task { [weak self] in
            while !Task.isCancelled {
                let playing = self.map { session in
                    session.publish()
                    return session.player.timeControlStatus != .paused
                }
                guard playing == true else {
                    self?.observation = nil
                    return
                }
                try? await Task.sleep(for: Self.pollInterval)
            }
        }
    }

    func stopPublishing() {
        nowPlayingInfoCenter.announcesSeeks = false
        events?.cancel()
        observation?.cancel()
        events = nil
        observation = nil
    }

    /// Publishes what the player shows now; `elapsed` overrides the clock's reading (a seek's landing point).
    func publish(elapsed: Double? = nil) {
        guard automaticallyPublishesNowPlayingInfo else { return }
        followPlayingPlayer()
        let center = nowPlayingInfoCenter
        let previous = publishedItem
        publishedItem = player.currentItem
        publishQueue(current: player.currentItem, previous: previous)
        // What the app set (observed), or an item that cannot seek (a pipe, a server without byte ranges); the ads'
        // part follows the published ad ranges.
        let unseekable = player.currentItem.map { $0.status == .readyToPlay && $0.seekableTimeRanges.isEmpty } ?? false
        if center.refusesSeeking != (player.linearPlaybackRequired || unseekable) {
            center.refusesSeeking = player.linearPlaybackRequired || unseekable
        }
        guard let item = player.currentItem else {
            center.info = nil
            center.playbackState = .stopped
            return
        }
        if item !== previous { seekTarget = nil }
        var info = Self.tags(item.metadata, url: item.asset.url)
        info.assetURL = Self.publishedURL(item.asset.url)
        info.mediaType = item.tracks.contains { $0.mediaType == .video } ? .video : .audio
        info.isLiveStream = isLive(item)
        if item.duration.isNumeric { info.playbackDuration = item.duration.seconds }
        // The item's ads: the desktop sees the duration and elapsed time without them (MPRIS `Position`).
        if !item.interstitialTimeRanges.isEmpty {
            info.adTimeRanges = item.interstitialTimeRanges.map {
                AdTimeRange(timeRange: $0.timeRange, adIdentifier: $0.identifier)
            }
        }
        (info.currentLanguageOptions, info.availableLanguageOptions) = Self.languageOptions(item)
        if let app = item.nowPlayingInfo { info.overlay(Self.info(app)) }
        // During a seek the clock still reads the old position for a moment: the target is where playback goes.
        info.elapsedPlaybackTime = elapsed ?? seekTarget ?? player.currentTime().seconds
        let playing = player.timeControlStatus == .playing
        info.playbackRate = playing ? Double(player.rate) : 0
        info.defaultPlaybackRate = Double(player.defaultRate)
        // While it plays, the elapsed time is published anew even when it has not moved: a clock that waits for
        // the sound to be heard (a sound server's start-up latency) or for data holds the desktop's position
        // too, which would otherwise run on at the rate and jump back when the clock moved.
        if info != center.info || info.playbackRate != 0 { center.info = info }
        if center.volume != Double(player.volume) { center.volume = Double(player.volume) }
        if player.timeControlStatus != .paused { isStopped = false }
        let state: NowPlayingPlaybackState =
            player.timeControlStatus == .paused
            ? (isStopped ? .stopped : .paused)
            : (player.isWaitingForSoundServer || player.isInterruptedByAudioSession ? .interrupted : .playing)
        if center.playbackState != state { center.playbackState = state }
    }

    /// The sound and subtitles `item` plays, and its choices of each (none before it opens). Main actor.
    static func languageOptions(_ item: PlayerItem) -> (
        current: [NowPlayingInfoLanguageOption]?, available: [NowPlayingInfoLanguageOptionGroup]?
    ) {
        let groups = [MediaCharacteristic.audible, .legible].compactMap { item.mediaSelectionGroup(for: $0) }
        guard !groups.isEmpty else { return (nil, nil) }
        let selection = item.currentMediaSelection
        let current = groups.compactMap { selection.selectedMediaOption(in: $0)?.makeNowPlayingInfoLanguageOption() }
        return (current, groups.map { $0.makeNowPlayingInfoLanguageOptionGroup() })
    }

    /// Whether `item` is a live stream: open, with no duration (like AVFoundation's indefinite duration).
    func isLive(_ item: PlayerItem) -> Bool { item.status == .readyToPlay && !item.duration.isNumeric }

    /// The Now Playing fields tags give; the file name as the title when they have none.
    static func tags(_ metadata: [MetadataItem], url: URL) -> NowPlayingInfo {
        var info = NowPlayingInfo()
        for m in metadata {
            switch m.key {
            case .title: info.title = m.stringValue
            case .artist: info.artist = m.stringValue
            case .albumName: info.albumTitle = m.stringValue
            case .albumArtist: info.albumArtist = m.stringValue
            case .genre: info.genre = m.stringValue
            case .trackNumber: info.albumTrackNumber = m.stringValue.flatMap { Int($0.prefix { $0.isNumber }) }
            case .artwork: info.artwork = m.dataValue.map(NowPlayingArtwork.init(data:))
            default: break
            }
        }
        if info.title == nil { info.title = (ByteNamedFiles.shownName(of: url.path) as NSString).lastPathComponent }
        return info
    }

    /// The URL to show for an asset at `url`: a file opened by its bytes (`ByteNamedFiles`: a name that is not
    /// UTF-8, played as `/proc/self/fd/N`) by its own name's, the bytes percent-encoded; a URL without the user
    /// name and password it may hold (every program on the session bus reads it).
    static func publishedURL(_ url: URL) -> URL {
        if !url.isFileURL { return URL(string: URLPasswords.removed(from: url.absoluteString)) ?? url }
        guard ByteNamedFiles.isByteNamed(url.path) else { return url }
        return ByteNamedFiles.fileURL(of: url.path) ?? url
    }

    /// `PlayerItem.nowPlayingInfo` (keys are `NowPlayingInfoKey` names) in typed form.
    static func info(_ dictionary: [String: any Sendable]) -> NowPlayingInfo {
        NowPlayingInfo(
            dictionary: Dictionary(dictionary.map { (NowPlayingInfoKey(rawValue: $0.key), $0.value) }) { a, _ in a })
    }
}

extension NowPlayingInfo {
    /// Takes every field `other` sets, except the playback ones a session reads from its player (elapsed time,
    /// rate, default rate).
    mutating func overlay(_ other: NowPlayingInfo) {
        func take<T>(_ path: WritableKeyPath<NowPlayingInfo, T?>) {
            if let v = other[keyPath: path] { self[keyPath: path] = v }
        }
        take(\.title)
        take(\.artist)
        take(\.albumTitle)
        take(\.albumArtist)
        take(\.albumTrackNumber)
        take(\.genre)
        take(\.playbackDuration)
        take(\.mediaType)
        take(\.artwork)
        take(\.assetURL)
        take(\.isLiveStream)
        take(\.chapterNumber)
        take(\.chapterCount)
        take(\.playbackQueueIndex)
        take(\.playbackQueueCount)
        take(\.adTimeRanges)
        take(\.currentLanguageOptions)
        take(\.availableLanguageOptions)
    }
}
