import Foundation
import PlayheadAudio
import PlayheadCore
import PlayheadVideo

extension Player {
    /// The player's sound (its output, opened on first use, and the order its items play in it); nil without
    /// sound or when the output could not be made (the player failed). Main actor.
    func makeAudioRenderer() -> AudioRenderer? {
        if let audioRenderer { return audioRenderer }
        let output: (any AudioOutput)?
        switch audioOutputChoice {
        case .disabled: output = nil
        case .custom(let o): output = o
        case .null(let untimed): output = NullAudioOutput(untimed: untimed)
        case .wav(let path): output = WAVAudioOutput(path: path)
        case .pulse(let device):
            // Neither makes nor waits for the connection: with no server, the item fails at its first write.
            do {
                output = try PulseAudioOutput(device: device)
            } catch {
                fail(error)
                return nil
            }
        case .automatic:
            do {
                output = try AutomaticAudioOutput()
            } catch {
                fail(error)
                return nil
            }
        }
        // A PulseAudio stream is asked for by the playback loop and made on the connection's queue: the main actor
        // never waits for the sound server. Other outputs start here, where their errors fail the player.
        let isPulse = output is PulseAudioOutput
        do {
            if !isPulse { try output?.start(format: AudioFormat()) }
        } catch {
            fail(error)
            return nil
        }
        guard let output else { return nil }
        let renderer = AudioRenderer(output: output)
        audioRenderer = renderer
        resources.loop.send(.openSound(renderer, requestStream: isPulse))
        attachAudioSession()
        return renderer
    }

    /// `audioOutputChoice` was set: the sound made on the old choice (if any) goes, and the current item (unless it
    /// failed) opens again on the new one from where it was (a queue's preloaded next item is opened again later,
    /// on it).
    func audioOutputChoiceChanged() {
        // Nothing opened yet: the first item opens on the choice.
        guard audioRenderer != nil || engine != nil else { return }
        let item = currentItem
        discardPreloaded()
        stopEngine()
        if audioRenderer != nil {
            detachAudioSession()
            resources.loop.send(.closeSound)
            audioRenderer = nil
        }
        guard let item, item.status != .failed else { return }
        // An output that had failed the player gets its chance again.
        if status == .failed {
            status = .unknown
            error = nil
        }
        startEngine(for: item)
        updateTimeControlStatus()
    }

    func startEngine(for item: PlayerItem) {
        guard let engine = makeEngine(for: item, active: true) else { return }
        // Until it has opened and reached its start, the item's time is that start (not 0).
        if let start = item.startSeconds { engine.clock.reset(to: start) }
        self.engine = engine
        item.engineStartedAt = MonotonicClock.now() - MonotonicClock.processStart
        timebase.engine = engine
        engineReady = false
        stalled = false
        // Started, given the output, the volume and the rate by the playback loop, in that order.
        resources.loop.send(.begin(engine, at: item.startSeconds))
        startBufferMonitor()
    }

    /// An engine for `item` on this player's output, with the item's settings; `active` false for a preloaded
    /// one. Nil when the output could not be made (the player failed).
    func makeEngine(for item: PlayerItem, active: Bool) -> PlaybackEngine? {
        let wantsAudio: Bool
        if case .disabled = audioOutputChoice { wantsAudio = false } else { wantsAudio = true }
        let audio = wantsAudio ? makeAudioRenderer() : nil
        if wantsAudio && audio == nil && status == .failed { return nil }
        var config = EngineConfiguration(
            location: URLAsset.location(of: item.asset.url), assetLoader: item.asset.loader,
            audio: audio, videoOutputs: decodesVideo ? item.outputs : [])
        config.item = ObjectIdentifier(item)
        config.textOutputs = item.legibleOutputs
        config.textDelay = item.subtitleDelay
        config.trackSelection = item.effectiveTrackSelection
        config.playerVideo = decodesVideo ? videoRenderer : nil
        config.videoPresenter = decodesVideo ? resources.videoPresenter : nil
        config.textPresenter = resources.textPresenter
        config.forwardBufferSeconds = item.preferredForwardBufferDuration
        config.decodeAudio = audio != nil
        config.decodeVideo = decodesVideo
        config.untimed = untimed
        config.replayGain = replayGain
        config.networkTimeout = item.asset.networkTimeout
        config.peakBitRate = item.preferredPeakBitRate
        config.maximumResolution = item.preferredMaximumResolution
        config.startsActive = active
        if item.forwardPlaybackEndTime.isNumeric { config.endSeconds = item.forwardPlaybackEndTime.seconds }
        let events = resources.eventSink
        return PlaybackEngine(configuration: config) { event in
            let stamped = MonotonicClock.now() - MonotonicClock.processStart
            events.yield(EngineDelivery(event: event, timestamp: stamped, item: item))
        }
    }

    /// Hands the engines' events to `player` on the main actor, one at a time in the order they were sent, until
    /// the player goes away (its resources end the stream). The task holds the player only while it handles an
    /// event. Built outside the main actor's isolation so the task's closure captures nothing of it.
    nonisolated static func deliverEngineEvents(_ events: AsyncStream<EngineDelivery>, to player: Player) {
        Task { @MainActor [weak player] in
            for await delivery in events {
                guard let player else { return }
                player.handle(delivery.event, timestamp: delivery.timestamp, item: delivery.item)
            }
        }
    }

    /// The engines playing `item` now: the current one when it is the current item, the preloaded one when it
    /// is next. Main actor.
    func engines(playing item: PlayerItem) -> [PlaybackEngine] {
        let current = currentItem === item ? engine : nil
        let next = preloaded?.item === item ? preloaded?.engine : nil
        return [current, next].compactMap { $0 }
    }

    /// A video output added to `item` shows its pictures from now on (the current one at once); a removed one
    /// is sent nothing more. Main actor.
    func itemOutputsChanged(_ item: PlayerItem, added: (any VideoOutput)?, removed: (any VideoOutput)?) {
        guard decodesVideo else { return }
        for e in engines(playing: item) {
            if let added { e.video.attach(added) }
            if let removed { e.video.detach(removed) }
        }
    }

    /// Starts `item`, the current item, again where it is (its tracks chosen anew): the engine is replaced, the
    /// position and the rate are kept. Nothing when `item` is not current or has no engine. Main actor.
    /// Switches the current item's sound to audio track `id` in place, without a gap (`PlaybackEngine.switchAudio`);
    /// false when the engine cannot (the caller restarts the item).
    func switchAudioInPlace(_ item: PlayerItem, to id: Int) -> Bool {
        guard item === currentItem, let engine else { return false }
        return engine.switchAudio(to: id)
    }

    /// Shows text track `id` (nil: none) of the current item in place (`PlaybackEngine.switchText`); false when
    /// the engine cannot (the caller restarts the item).
    func switchTextInPlace(_ item: PlayerItem, to id: Int?) -> Bool {
        guard item === currentItem, let engine else { return false }
        return engine.switchText(to: id)
    }

    func restartCurrentItem(_ item: PlayerItem) {
        guard item === currentItem, engine != nil else { return }
        let position = currentTime().seconds
        discardPreloaded()
        stopEngine()
        // The cues of the old choice leave the screen; the new one's come with its playback (none when subtitles
        // were turned off).
        for output in item.legibleOutputs {
            output.show([], at: MediaTime(seconds: position, preferredTimescale: 1000))
        }
        item.startSeconds = position.isFinite ? max(0, position) : nil
        startEngine(for: item)
        updateTimeControlStatus()
    }

    /// Stops the current item's engine. The item keeps where it was (a seek in flight: its target) and starts
    /// there if a player plays it again, as an `AVPlayerItem` does; one at its end (or live, whose place will have
    /// gone) starts afresh.
    func stopEngine() {
        guard let engine else { return }
        let position = engine.currentSeconds
        // Not yet opened (no duration) or still at 0: the start it was given stays.
        if let item = currentItem, item.duration.isNumeric, at(item, position) > 0 {
            let at = at(item, position)
            item.startSeconds = at < item.duration.seconds - 0.1 ? at : nil
        }
        resources.loop.send(.stopPlaying)
        self.engine = nil
        timebase.engine = nil
        timebase.frozen = position
        currentItem?.seekInFlight = nil
        cancelPendingSeeks()
    }

    /// Where `item` is: a seek's target while one is in flight, else `position`.
    private func at(_ item: PlayerItem, _ position: Double) -> Double {
        let at = item.seekInFlight?.seconds ?? position
        return at.isFinite ? at : 0
    }

    /// Completes every seek still waiting with `false` (the item stopped or failed).
    func cancelPendingSeeks() {
        for (_, c) in seekWaiters { c.resume(returning: false) }
        seekWaiters.removeAll()
        for (_, h) in seekHandlers { h(false) }
        seekHandlers.removeAll()
    }

    /// The player (and its current item) failed: its engine stops, so the time stays where it failed (it ran on).
    func fail(_ error: PlaybackError) {
        status = .failed
        self.error = error
        stopEngine()
        cancelPendingSeeks()
        if let item = currentItem {
            item.status = .failed
            item.error = error
            item.logError(error)
            item.postNotification(PlayerItem.failedToPlayToEndTimeNotification, error: error)
        }
        emit(PlayerEvent(.error(error)))
        updateTimeControlStatus()
    }
}
