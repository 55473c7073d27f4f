import Foundation
import Playhead

extension NowPlayingSession {
    /// How often the session re-reads its player between events (item, tags, duration, clock drift).
    static let pollInterval: Duration = .milliseconds(250)
    /// How long after a completed seek the clock may disagree with the seek's target before it is believed.
    static let seekSettleSeconds = 1.0

    func startPublishing() {
        let stream = player.events()
        events = Task { [weak self] in
            for await event in stream {
                guard let self else { return }
                switch event.kind {
                case .droppedFrame, .firstVideo: continue
                case .seekStarted(let target):
                    self.pendingSeek = target
                    self.seekDoneAt = nil
                case .seekDone(_, finished: false): continue  // a newer seek follows
                case .seekDone(_, finished: true): self.seekDoneAt = MonotonicClock.now()
                default: break
                }
                self.publish()
            }
        }
        observation = Task { [weak self] in
            while !Task.isCancelled {
                self?.publish()
                try? await Task.sleep(for: Self.pollInterval)
            }
        }
        publish()
    }

    func stopPublishing() {
        events?.cancel()
        observation?.cancel()
        events = nil
        observation = nil
    }

    /// Publishes what the player shows now.
    func publish() {
        guard automaticallyPublishesNowPlayingInfo else { return }
        let center = nowPlayingInfoCenter
        guard let item = player.currentItem else {
            center.info = nil
            center.playbackState = .stopped
            return
        }
        var info = NowPlayingInfo()
        for m in item.metadata {
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
        if info.title == nil { info.title = item.asset.url.lastPathComponent }
        info.assetURL = item.asset.url
        info.mediaType = item.tracks.contains { $0.mediaType == .video } ? .video : .audio
        let live = item.status == .readyToPlay && !item.duration.isNumeric
        info.isLiveStream = live
        if item.duration.isNumeric { info.playbackDuration = item.duration.seconds }
        info.elapsedPlaybackTime = elapsed()
        let playing = player.timeControlStatus == .playing
        info.playbackRate = playing ? Double(player.rate) : 0
        info.defaultPlaybackRate = Double(player.defaultRate)
        if info != center.info { center.info = info }
        if center.volume != Double(player.volume) { center.volume = Double(player.volume) }
        if player.timeControlStatus != .paused { isStopped = false }
        let state: NowPlayingPlaybackState =
            player.timeControlStatus == .paused ? (isStopped ? .stopped : .paused) : .playing
        if center.playbackState != state { center.playbackState = state }
    }

    /// The elapsed time to publish: the target of a pending seek until the clock shows it (the clock can read the
    /// old position for a moment after a seek), at most `seekSettleSeconds` after the seek completed.
    private func elapsed() -> Double {
        let clock = player.currentTime().seconds
        guard let target = pendingSeek else { return clock }
        let rate = player.timeControlStatus == .playing ? Double(player.rate) : 0
        let expected = target + (seekDoneAt.map { MonotonicClock.now() - $0 } ?? 0) * rate
        if let done = seekDoneAt, abs(clock - expected) < 0.3 || MonotonicClock.now() - done > Self.seekSettleSeconds {
            pendingSeek = nil
            seekDoneAt = nil
            return clock
        }
        return expected
    }

    /// The default handlers: play, pause, toggle, stop, position, skip forward/backward, rate; and MPRIS `Volume`.
    func installDefaultHandlers() {
        let c = remoteCommandCenter
        nowPlayingInfoCenter.volumeControl = { [weak self] volume in
            guard let self else { return }
            self.player.volume = Float(min(1, max(0, volume)))
            self.publish()
        }
        func add(
            _ command: RemoteCommand, _ handler: @escaping @MainActor (RemoteCommandEvent) -> RemoteCommandHandlerStatus
        ) {
            defaultTargets.append((command, command.addTarget(handler: handler)))
        }
        add(c.playCommand) { [weak self] _ in self?.act { $0.play() } ?? .commandFailed }
        add(c.pauseCommand) { [weak self] _ in self?.act { $0.pause() } ?? .commandFailed }
        add(c.togglePlayPauseCommand) { [weak self] _ in
            self?.act { $0.timeControlStatus == .paused ? $0.play() : $0.pause() } ?? .commandFailed
        }
        add(c.stopCommand) { [weak self] _ in
            guard let self, self.player.currentItem != nil else { return .noActionableNowPlayingItem }
            self.player.pause()
            self.isStopped = true
            return self.seek(to: 0)
        }
        add(c.changePlaybackPositionCommand) { [weak self] event in
            guard let self, let target = event.positionTime else { return .commandFailed }
            return self.seek(to: target)
        }
        add(c.skipForwardCommand) { [weak self] event in
            guard let self else { return .commandFailed }
            let interval = event.interval ?? c.skipForwardCommand.preferredIntervals.first ?? 15
            return self.seek(to: self.player.currentTime().seconds + interval)
        }
        add(c.skipBackwardCommand) { [weak self] event in
            guard let self else { return .commandFailed }
            let interval = event.interval ?? c.skipBackwardCommand.preferredIntervals.first ?? 15
            return self.seek(to: max(0, self.player.currentTime().seconds - interval))
        }
        add(c.changePlaybackRateCommand) { [weak self] event in
            guard let rate = event.playbackRate, rate > 0 else { return .commandFailed }
            return self?.act {
                $0.defaultRate = Float(rate)
                if $0.timeControlStatus != .paused { $0.rate = Float(rate) }
            } ?? .commandFailed
        }
    }

    private func act(_ body: (Player) -> Void) -> RemoteCommandHandlerStatus {
        guard player.currentItem != nil else { return .noActionableNowPlayingItem }
        body(player)
        publish()
        return .success
    }

    private func seek(to seconds: Double) -> RemoteCommandHandlerStatus {
        guard let item = player.currentItem else { return .noActionableNowPlayingItem }
        var target = max(0, seconds)
        if item.duration.isNumeric { target = min(target, item.duration.seconds) }
        player.seek(to: MediaTime(seconds: target, preferredTimescale: 600))
        pendingSeek = target
        seekDoneAt = nil
        publish()
        return .success
    }
}
