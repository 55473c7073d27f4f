import Foundation
import Playhead

/// A D-Bus error reply: its name and message. Safe anywhere.
typealias MPRISError = (name: String, message: String)

extension MPRISBridge {
    /// Runs a remote request's command handlers and answers the caller. Main actor.
    func handle(_ request: MPRISRequest, commands c: RemoteCommandCenter) {
        switch request {
        case .method("OpenUri", _, _, let uri, _, let reply):
            // The handler loads the asset before touching the queue: the reply waits for it.
            if let problem = uriProblem(uri) { return bus.reply(reply, error: problem) }
            guard let url = Self.openableURL(uri), let openURL = center?.openURL else { return bus.reply(reply) }
            Task { @MainActor [bus] in bus.reply(reply, error: await openURL(url)) }
        case .method("AddTrack", _, let after, let uri, let makeCurrent, let reply):
            guard let list = center?.trackList, list.canEdit else { return bus.reply(reply) }  // the spec's no-op
            bus.reply(reply, error: open(uri) { list.add($0, after, makeCurrent) })
        case .method("GoTo", _, let id, _, _, let reply): bus.reply(reply, error: center?.trackList?.goTo(id))
        case .method("RemoveTrack", _, let id, _, _, let reply):
            guard let list = center?.trackList, list.canEdit else { return bus.reply(reply) }
            bus.reply(reply, error: list.remove(id))
        case .method(let name, let offset, let trackID, _, _, let reply):
            bus.reply(reply, error: method(name, offset: offset, trackID: trackID, commands: c))
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
            case "Fullscreen": center?.fullscreenHandler?(bool)
            default: break
            }
        }
    }

    /// Runs `command`'s handlers with an event filled by `fill`: nil when it succeeded or is not offered (the
    /// spec's no-op), else the error to reply.
    private func perform(
        _ command: RemoteCommand, _ fill: (inout RemoteCommandEvent) -> Void = { _ in }
    ) -> MPRISError? {
        guard command.isActive else { return nil }
        var event = RemoteCommandEvent(command: command)
        fill(&event)
        return Self.error(command.perform(event))
    }

    /// Carries out a method call; the error to reply, or nil for success (or the spec's no-op).
    private func method(_ name: String, offset: Int64, trackID: String, commands c: RemoteCommandCenter)
        -> MPRISError?
    {
        let playing = state.playbackStatus == "Playing"
        switch name {
        case "Play":
            return c.playCommand.isActive || playing ? perform(c.playCommand) : perform(c.togglePlayPauseCommand)
        case "Pause":
            return c.pauseCommand.isActive || !playing ? perform(c.pauseCommand) : perform(c.togglePlayPauseCommand)
        case "PlayPause":
            return c.togglePlayPauseCommand.isActive
                ? perform(c.togglePlayPauseCommand) : perform(playing ? c.pauseCommand : c.playCommand)
        case "Stop": return c.stopCommand.isActive ? perform(c.stopCommand) : perform(c.pauseCommand)
        case "Next": return perform(c.nextTrackCommand)
        case "Previous": return perform(c.previousTrackCommand)
        case "Seek", "SetPosition":
            let now = MonotonicClock.now()
            if state.metadata.trackID != MPRISState.noTrack, state.ad(at: state.position(at: now)) != nil {
                return ("org.playhead.NowPlaying.Error.InAd", "seeking is disabled while an ad plays")
            }
            return name == "Seek" ? seek(by: offset, at: now, commands: c) : setPosition(offset, trackID, commands: c)
        case "Quit":
            center?.quitHandler?()
            return nil
        case "Raise":
            center?.raiseHandler?()  // without a window (CanRaise false), the spec's no-op
            return nil
        default: return nil
        }
    }

    /// `Seek`: relative to the published position; past the end is `Next`.
    private func seek(by offset: Int64, at now: Double, commands c: RemoteCommandCenter) -> MPRISError? {
        guard state.canSeek else { return nil }
        if c.changePlaybackPositionCommand.isActive {
            let target = max(0, state.publishedPosition(at: now) + Double(offset) / 1e6)
            if let l = state.metadata.lengthMicroseconds, target > Double(l) / 1e6 {
                return perform(c.nextTrackCommand)
            }
            return perform(c.changePlaybackPositionCommand) { $0.positionTime = state.withAds(target) }
        }
        let skip = offset >= 0 ? c.skipForwardCommand : c.skipBackwardCommand
        return perform(skip) { $0.interval = abs(Double(offset)) / 1e6 }
    }

    /// `SetPosition`: ignored for a stale track id, a negative position or one past the end (the spec).
    private func setPosition(_ position: Int64, _ trackID: String, commands c: RemoteCommandCenter) -> MPRISError? {
        let seconds = Double(position) / 1e6
        guard state.canSeek, trackID == state.metadata.trackID, position >= 0,
            seconds <= Double(state.metadata.lengthMicroseconds ?? .max) / 1e6
        else { return nil }
        return perform(c.changePlaybackPositionCommand) { $0.positionTime = state.withAds(seconds) }
    }

    /// Checks `uri` against the supported schemes (none without an open handler) before `body` opens it.
    private func open(_ uri: String, _ body: (URL) -> MPRISError??) -> MPRISError? {
        if let problem = uriProblem(uri) { return problem }
        guard let url = Self.openableURL(uri) else { return nil }
        return body(url) ?? nil
    }

    /// The URL that opens `uri`: a `file:` URL naming a file by bytes that are not UTF-8 (percent-encoded, as
    /// Now Playing publishes such a file) by the path `ByteNamedFiles` gives it, nil when there is no such file.
    static func openableURL(_ uri: String) -> URL? {
        if let bytes = ByteNamedFiles.pathBytes(ofFileURL: uri), String(validating: bytes, as: UTF8.self) == nil {
            return ByteNamedFiles.path(for: bytes).map { URL(fileURLWithPath: $0) }
        }
        return URL(text: uri)
    }

    /// Why `uri` cannot be opened before anything is loaded: an unsupported scheme (all of them without an open
    /// handler) or a missing file; nil when it may be tried. Main actor.
    private func uriProblem(_ uri: String) -> MPRISError? {
        let supported = state.supportedURISchemes
        guard let url = URL(text: uri), let scheme = url.scheme?.lowercased(), supported.contains(scheme) else {
            return (
                "org.freedesktop.DBus.Error.NotSupported",
                "\(uri): not a URI Playhead opens (schemes: \(supported.joined(separator: ", ")))"
            )
        }
        if url.isFileURL, !FileManager.default.fileExists(atPath: Self.openableURL(uri)?.path ?? "") {
            return ("org.playhead.NowPlaying.Error.NoSuchContent", "\(uri): no such file")
        }
        return nil
    }

    static func error(_ status: RemoteCommandHandlerStatus) -> MPRISError? {
        switch status {
        case .success: return nil
        case .commandFailed: return ("org.playhead.NowPlaying.Error.CommandFailed", "the command failed")
        case .noSuchContent: return ("org.playhead.NowPlaying.Error.NoSuchContent", "no such content")
        case .noActionableNowPlayingItem:
            return ("org.playhead.NowPlaying.Error.NoActionableNowPlayingItem", "nothing to act on")
        }
    }
}
