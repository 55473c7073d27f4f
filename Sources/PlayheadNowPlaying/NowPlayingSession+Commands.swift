import Foundation
import Playhead

extension NowPlayingSession {
    /// The default handlers: play, pause, toggle, stop, position, skip forward/backward, rate; and MPRIS `Volume`.
    func installDefaultHandlers() {
        let c = remoteCommandCenter
        nowPlayingInfoCenter.volumeControl = { [weak self] volume in
            guard let self else { return }
            self.player.volume = Float(min(1, max(0, volume)))
            self.publish()
            self.volumeChangeHandler?()
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
        followPlayingPlayer()
        guard player.currentItem != nil else { return .noActionableNowPlayingItem }
        body(player)
        publish()
        return .success
    }

    /// Seeks exactly (a remote asks for a position and `Seeked` reports where playback went on); a live item
    /// cannot seek. The player's ad policy applies (`PlayerItem.interstitialTimeRanges`): in an ad that must be
    /// watched the command fails, and a seek or skip over one lands at its start.
    private func seek(to seconds: Double) -> RemoteCommandHandlerStatus {
        followPlayingPlayer()
        guard let item = player.currentItem else { return .noActionableNowPlayingItem }
        guard !isLive(item), !player.requiresLinearPlayback else { return .commandFailed }
        var target = max(0, seconds)
        if item.duration.isNumeric { target = min(target, item.duration.seconds) }
        player.seek(
            to: MediaTime(seconds: target, preferredTimescale: 600), toleranceBefore: .zero, toleranceAfter: .zero)
        publish()
        return .success
    }
}
