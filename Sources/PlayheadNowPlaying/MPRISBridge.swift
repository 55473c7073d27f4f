import Foundation
import Playhead

/// Turns a `NowPlayingInfoCenter` and its `RemoteCommandCenter` into MPRIS state, and remote requests into
/// command events. Main actor; the bus thread only reaches it through `Task { @MainActor }`.
@MainActor
final class MPRISBridge {
    private weak var center: NowPlayingInfoCenter?
    private let bus: MPRISBus
    private var state = MPRISState()
    private var trackKey: [String?]?
    private var trackNumber = 0
    /// The information last published: when it has not changed, the position goes on from its extrapolation.
    private var lastInfo: NowPlayingInfo?
    /// Jumps smaller than this, in seconds, relative to the extrapolated position are clock drift, not seeks.
    static let seekThreshold = 0.5

    var busName: String { bus.busName }

    init?(center: NowPlayingInfoCenter) {
        self.center = center
        guard let bus = MPRISBus(onRequest: Self.hop(to: center)) else { return nil }
        self.bus = bus
        center.remoteCommandCenter.observe { [weak self] in self?.update() }
        update()
    }

    func close() { bus.close() }

    // A center (or session) dropped without `disconnect()` leaves the bus too; `close()` is safe from any thread.
    deinit { bus.close() }

    /// The bus thread's request handler: hands each request to the main actor. Built outside the main actor so
    /// the closure is not main-actor isolated.
    private nonisolated static func hop(to center: NowPlayingInfoCenter) -> @Sendable (MPRISRequest) -> Void {
        { [weak center] request in Task { @MainActor in center?.bridgeHandle(request) } }
    }

    /// Recomputes the state from the center and publishes it, with `Seeked` when the position jumped.
    func update() {
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
        s.metadata = info.map { metadata($0) } ?? MPRISState.Metadata()
        let rate = info?.playbackRate ?? 0
        switch center.playbackState {
        case .playing: s.playbackStatus = "Playing"
        case .paused, .interrupted: s.playbackStatus = "Paused"
        case .stopped: s.playbackStatus = "Stopped"
        case .unknown: s.playbackStatus = info == nil ? "Stopped" : (rate > 0 ? "Playing" : "Paused")
        }
        if rate > 0 { s.rate = rate } else if let d = info?.defaultPlaybackRate, d > 0 { s.rate = d }
        s.positionRate = s.playbackStatus == "Playing" ? (rate > 0 ? rate : s.rate) : 0
        if let info, info == lastInfo || info.elapsedPlaybackTime == nil {
            // Not republished (a command or the playback state changed): no jump.
            s.elapsed = old.position(at: now)
        } else {
            s.elapsed = info?.elapsedPlaybackTime ?? 0
        }
        s.stamp = now
        lastInfo = info
        let hasItem = info != nil
        let live = info?.isLiveStream ?? false
        s.canPlay = hasItem && (c.playCommand.isActive || c.togglePlayPauseCommand.isActive)
        s.canPause = hasItem && (c.pauseCommand.isActive || c.togglePlayPauseCommand.isActive)
        s.canSeek =
            hasItem && !live
            && (c.changePlaybackPositionCommand.isActive || c.skipForwardCommand.isActive
                || c.skipBackwardCommand.isActive)
        s.canGoNext = c.nextTrackCommand.isActive
        s.canGoPrevious = c.previousTrackCommand.isActive
        s.canSetRate = c.changePlaybackRateCommand.isActive && !live
        let rates = c.changePlaybackRateCommand.supportedPlaybackRates.filter { $0 > 0 && $0.isFinite }
        s.minimumRate = s.canSetRate ? min(1, rates.min() ?? 1) : 1
        s.maximumRate = s.canSetRate ? max(1, rates.max() ?? 1) : 1
        s.canSetLoop = c.changeRepeatModeCommand.isActive
        s.canSetShuffle = c.changeShuffleModeCommand.isActive
        s.canSetVolume = center.volumeControl != nil
        s.volume = center.volume
        switch c.changeRepeatModeCommand.currentRepeatType {
        case .off: s.loopStatus = "None"
        case .one: s.loopStatus = "Track"
        case .all: s.loopStatus = "Playlist"
        }
        s.shuffle = c.changeShuffleModeCommand.currentShuffleType == .items
        var seeked: Int64?
        if hasItem, s.metadata.trackID == old.metadata.trackID,
            abs(s.position(at: now) - old.position(at: now)) > Self.seekThreshold
        {
            seeked = s.positionMicroseconds(at: now)
        }
        state = s
        bus.publish(s, seekedTo: seeked)
    }

    private func metadata(_ info: NowPlayingInfo) -> MPRISState.Metadata {
        var m = MPRISState.Metadata()
        m.trackID = "/org/playhead/track/\(trackNumber)"
        if let d = info.playbackDuration, d.isFinite, d > 0, info.isLiveStream != true {
            m.lengthMicroseconds = Int64((d * 1e6).rounded())
        }
        m.artURL = info.artwork.flatMap { ArtworkCache.fileURL(for: $0.data) }
        m.title = info.title
        m.artists = info.artist.map { [$0] } ?? []
        m.album = info.albumTitle
        m.albumArtists = info.albumArtist.map { [$0] } ?? []
        m.genres = info.genre.map { [$0] } ?? []
        m.trackNumber = info.albumTrackNumber.map { Int32(clamping: $0) }
        m.url = info.assetURL?.absoluteString
        return m
    }

    /// Runs a remote request's command handlers and answers the caller.
    func handle(_ request: MPRISRequest, commands c: RemoteCommandCenter) {
        switch request {
        case .method(let name, let offset, let trackID, _, let reply):
            let status = method(name, offset: offset, trackID: trackID, commands: c)
            bus.reply(reply, error: status.flatMap(Self.error))
        case .set(let property, let double, let bool, let string):
            switch property {
            case "Rate" where double == 0: _ = method("Pause", offset: 0, trackID: "", commands: c)
            case "Rate": _ = perform(c.changePlaybackRateCommand) { $0.playbackRate = double }
            case "LoopStatus":
                _ = perform(c.changeRepeatModeCommand) {
                    $0.repeatType = string == "Track" ? .one : (string == "Playlist" ? .all : .off)
                }
            case "Shuffle": _ = perform(c.changeShuffleModeCommand) { $0.shuffleType = bool ? .items : .off }
            case "Volume": center?.volumeControl?(double)
            default: break
            }
        }
    }

    private func perform(
        _ command: RemoteCommand, _ fill: (inout RemoteCommandEvent) -> Void = { _ in }
    ) -> RemoteCommandHandlerStatus? {
        guard command.isActive else { return nil }
        var event = RemoteCommandEvent(command: command)
        fill(&event)
        return command.perform(event)
    }

    /// The status of the handler that ran, or nil when the spec's no-op applies.
    private func method(
        _ name: String, offset: Int64, trackID: String, commands c: RemoteCommandCenter
    ) -> RemoteCommandHandlerStatus? {
        let playing = state.playbackStatus == "Playing"
        switch name {
        case "Play": return perform(c.playCommand) ?? (playing ? nil : perform(c.togglePlayPauseCommand))
        case "Pause": return perform(c.pauseCommand) ?? (playing ? perform(c.togglePlayPauseCommand) : nil)
        case "PlayPause":
            return perform(c.togglePlayPauseCommand) ?? perform(playing ? c.pauseCommand : c.playCommand)
        case "Stop": return perform(c.stopCommand) ?? perform(c.pauseCommand)
        case "Next": return perform(c.nextTrackCommand)
        case "Previous": return perform(c.previousTrackCommand)
        case "Seek":
            guard state.canSeek else { return nil }
            let now = MonotonicClock.now()
            if c.changePlaybackPositionCommand.isActive {
                let target = max(0, state.position(at: now) + Double(offset) / 1e6)
                if let l = state.metadata.lengthMicroseconds, target > Double(l) / 1e6 {
                    return perform(c.nextTrackCommand)
                }
                return perform(c.changePlaybackPositionCommand) { $0.positionTime = target }
            }
            let skip = offset >= 0 ? c.skipForwardCommand : c.skipBackwardCommand
            return perform(skip) { $0.interval = abs(Double(offset)) / 1e6 }
        case "SetPosition":
            let seconds = Double(offset) / 1e6
            guard state.canSeek, trackID == state.metadata.trackID, offset >= 0,
                seconds <= Double(state.metadata.lengthMicroseconds ?? .max) / 1e6
            else { return nil }
            return perform(c.changePlaybackPositionCommand) { $0.positionTime = seconds }
        case "OpenUri": return .noSuchContent
        default: return nil
        }
    }

    private static func error(_ status: RemoteCommandHandlerStatus) -> (name: String, message: String)? {
        switch status {
        case .success: return nil
        case .commandFailed: return ("org.playhead.NowPlaying.Error.CommandFailed", "the command failed")
        case .noSuchContent: return ("org.playhead.NowPlaying.Error.NoSuchContent", "no such content")
        case .noActionableNowPlayingItem:
            return ("org.playhead.NowPlaying.Error.NoActionableNowPlayingItem", "nothing to act on")
        }
    }
}

extension NowPlayingInfoCenter {
    /// The bridge's entry for remote requests. Main actor.
    func bridgeHandle(_ request: MPRISRequest) { bridge?.handle(request, commands: remoteCommandCenter) }
}
