import Foundation
import Observation
import PlayheadAudio
import PlayheadCore
import PlayheadVideo

/// Plays one item at a time with `AVPlayer`'s model: `play()`, `pause()`, `rate`, seeking, time observers,
/// `timeControlStatus`.
///
/// Main actor and `@Observable` (as `AVPlayer` is main-actor bound): commands go to a `PlaybackEngine` running on
/// its own threads, and the engine's events come back to the main actor to update these properties.
@MainActor @Observable
public class Player {
    /// Whether the player can play, like `AVPlayer.Status`.
    public enum Status: Sendable, Hashable {
        /// No item has opened yet.
        case unknown
        /// An item opened.
        case readyToPlay
        /// Playback failed; see `error`.
        case failed
    }

    /// Whether time is moving, like `AVPlayer.TimeControlStatus`.
    public enum TimeControlStatus: Sendable, Hashable {
        /// The rate is 0.
        case paused
        /// A non-zero rate is asked for but playback waits; see `reasonForWaitingToPlay`.
        case waitingToPlayAtSpecifiedRate
        /// Time is moving.
        case playing
    }

    /// Why playback waits, like `AVPlayer.WaitingReason`.
    public enum WaitingReason: Sendable, Hashable {
        /// Buffering to avoid a stall.
        case toMinimizeStalls
        /// Opening and measuring whether playback can keep up.
        case evaluatingBufferingRate
        /// There is no item.
        case noItemToPlay
        /// An audio session interruption (a call) holds the sound: playback asked for during it starts when it ends
        /// (the sound server mutes the stream meanwhile, and what played would never be heard). Linux addition.
        case interruptedByAudioSession
    }

    /// What happens when an item ends, like `AVPlayer.ActionAtItemEnd`.
    public enum ActionAtItemEnd: Sendable, Hashable {
        /// Move to the next item (queue players).
        case advance
        /// Pause (the default for `Player`).
        case pause
        /// Do nothing: the rate stays, the item stays at its end.
        case none
    }

    /// Where sound goes. Linux has no counterpart to AVFoundation's implicit route, so it is chosen here.
    public enum AudioOutputChoice: Sendable {
        /// PulseAudio when the server answers, else a real-time null output (with a one-line notice on stderr),
        /// decided off the main actor when the process's connection attempt fails.
        case automatic
        /// PulseAudio, on the named sink or the default one. With no server, or no such sink, the item fails with
        /// the output's error once the stream cannot be made (off the main actor, not at `play()`).
        case pulse(device: String?)
        /// No sound, keeping real time (or as fast as decoding when `untimed`).
        case null(untimed: Bool)
        /// A WAV file.
        case wav(path: String)
        /// An output you provide.
        case custom(any AudioOutput)
        /// Do not decode audio at all.
        case disabled
    }

    /// The current item.
    public internal(set) var currentItem: PlayerItem?
    /// Ready or failed.
    public internal(set) var status: Status = .unknown
    /// Why the player failed.
    public internal(set) var error: PlaybackError?
    /// Whether time moves now.
    public internal(set) var timeControlStatus: TimeControlStatus = .paused
    /// Why playback waits, when `timeControlStatus` is `.waitingToPlayAtSpecifiedRate`.
    public internal(set) var reasonForWaitingToPlay: WaitingReason?
    /// The rate asked for: 0 is paused, 1 normal speed; setting a non-zero rate plays at it (and activates
    /// `AudioSession.shared` when the player plays through the sound server and the session is not active, as
    /// AVPlayer does). Negative rates are not supported and are treated as 0. Rates are clamped to 0.25...4.
    public var rate: Float {
        get { storedRate }
        set {
            audioSessionUserChangedRate()
            applyRate(newValue)
            if storedRate > 0 { activateAudioSessionForPlayback() }
        }
    }
    /// The rate `play()` uses, like `AVPlayer.defaultRate`.
    public var defaultRate: Float = 1
    /// Volume of this player's sound, 0...1 (not the system volume).
    public var volume: Float = 1 { didSet { applyVolume() } }
    /// Whether this player's sound is muted.
    public var isMuted = false { didSet { applyVolume() } }
    /// Whether playback waits for enough data before starting and after a stall (always true here: Playhead
    /// never plays through an empty buffer).
    public var automaticallyWaitsToMinimizeStalling = true
    /// What happens at the end of an item.
    public var actionAtItemEnd: ActionAtItemEnd = .pause
    /// Where sound goes. Set while an item is open, the sound moves there at once: the item opens again on the new
    /// output from where it was (a moment's gap), as `AVPlayer.audioOutputDeviceUniqueID` takes effect at once;
    /// set right after `Player(url:)`, before anything was heard, it is the output the item plays on.
    public var audioOutputChoice: AudioOutputChoice = .automatic {
        didSet { audioOutputChoiceChanged() }
    }
    /// Whether video is decoded (`--no-video` turns it off).
    public var decodesVideo = true
    /// Present frames as soon as they decode, without pacing (`--untimed`).
    public var untimed = false
    /// The loudness correction applied to the items opened from now on (`--replaygain`): none (the default), each
    /// track's, or its album's (`ReplayGain` in their tags). Main actor.
    public var replayGain = ReplayGainMode.off
    /// What the app set `requiresLinearPlayback` to (the person may only watch on), whatever the ads say; observed
    /// by Now Playing sessions, which refuse the desktop's seeks while it is set. Main actor.
    package var linearPlaybackRequired = false

    var storedRate: Float = 0
    /// The rate last sent to the playback loop (`sendEngineRate`).
    var engineRateSent: Float = 0
    var engine: PlaybackEngine?
    /// The player's sound: its output for its whole life, and which item's period writes to it.
    var audioRenderer: AudioRenderer?
    var nextSeekID = 1
    var seekWaiters: [Int: CheckedContinuation<Bool, Never>] = [:]
    var seekHandlers: [Int: @Sendable (Bool) -> Void] = [:]
    var eventContinuations: [UUID: AsyncStream<PlayerEvent>.Continuation] = [:]
    /// Told at once, on the main actor, when an item plays to its end, before the event is sent and the queue
    /// moves on: state kept beside the player's (a looper's count) changes with it, not an event later.
    var itemEndObservers: [UUID: (PlayerItem) -> Void] = [:]
    let observers = TimeObserverHub()
    var engineReady = false
    /// The buffer monitor that runs (`startBufferMonitor`); an older one ends when it sees another.
    @ObservationIgnored var bufferMonitorID = 0
    var stalled = false
    /// The next item's engine, opened and primed while the current item plays (queue players).
    var preloaded: Preloaded?
    /// The items of a queue player, the current one first; empty for a plain player.
    var queue: [PlayerItem] = []
    /// Whether the audio session interrupted playback (a call began): the player paused and resumes when the
    /// interruption ends with `.shouldResume`; a play asked for meanwhile waits for its end
    /// (`WaitingReason.interruptedByAudioSession`). Linux addition (iOS apps track this from the notification).
    public internal(set) var isInterruptedByAudioSession = false
    /// Whether the sound server went away and none answers yet (`AudioSession.mediaServicesWereLostNotification`
    /// until `...WereResetNotification`): nothing is heard and the clock stands, so a playing player waits
    /// (`.waitingToPlayAtSpecifiedRate`) and Now Playing shows it interrupted. Linux addition. Main actor.
    public internal(set) var isWaitingForSoundServer = false
    @ObservationIgnored var audioSessionLink = AudioSessionLink()
    /// The clock, readable from any thread (for video outputs and observers on other queues).
    public nonisolated let timebase = Timebase()
    /// The engines and output that end with this player when it goes away without `close()`.
    nonisolated let resources = PlayerResources()
    /// The outputs that show whatever the player plays (`add(_:)`), and the picture shown now.
    nonisolated let videoRenderer = VideoRenderer(outputs: [])

    /// A player with no item.
    public init() {
        prewarmSoundServerSoon()
        Self.deliverEngineEvents(resources.events, to: self)
    }

    /// A player for an item made from `url`.
    public convenience init(url: URL) { self.init(playerItem: PlayerItem(url: url)) }

    /// A player for `item`.
    public init(playerItem item: PlayerItem?) {
        prewarmSoundServerSoon()
        Self.deliverEngineEvents(resources.events, to: self)
        if let item { replaceCurrentItem(with: item) }
    }

    /// Plays at `defaultRate`. Like AVPlayer, it activates `AudioSession.shared` (with the category the app chose,
    /// `.soloAmbient` when none) if the session is not active and the player's sound goes to the sound server
    /// (`audioOutputChoice` `.automatic`, `.pulse` or a custom `PulseAudioOutput`), so exclusive audio and ducking
    /// work without app code; the activation runs off the main actor.
    public func play() { rate = defaultRate }

    /// Pauses (rate 0).
    public func pause() { rate = 0 }

    /// The time heard now in the current item (`.zero` without an item). While a seek is in flight, its target,
    /// as `AVPlayer` reports it: a second step (an arrow key, Page Up twice) goes on from where the first one goes,
    /// not from where the sound still is; a seek that lands on the keyframe before reports that once it finished.
    public func currentTime() -> MediaTime {
        guard let item = currentItem else { return .zero }
        if let target = item.seekInFlight?.seconds { return MediaTime(seconds: target, preferredTimescale: 1_000_000) }
        return timebase.time
    }

    /// Replaces the current item, stopping the old one; nil leaves the player empty. The item that is current
    /// already stays as it is, playing on (`AVPlayer`'s no-op; it was restarted from its start). Posts
    /// `currentItemChanged` when the item changed. The old item keeps its time: given back, it goes on from there.
    /// An item in another player is refused, and that is said on standard error (`AVPlayer` raises an exception).
    public func replaceCurrentItem(with item: PlayerItem?) {
        guard item !== currentItem else { return }
        if let item, item.owner != nil {
            return LibraryWarning.say(
                "replaceCurrentItem(with:) ignored: the item is in another player (an item is in one player at a "
                    + "time)")
        }
        setCurrentItem(item)
        emit(PlayerEvent(.currentItemChanged))
    }

    /// Makes `item` current with an engine of its own, stopping the old one's (a queue posts its own change).
    func setCurrentItem(_ item: PlayerItem?) {
        stopEngine()
        currentItem?.player = nil
        currentItem = item
        status = .unknown
        error = nil
        timebase.frozen = 0
        if let item {
            item.player = self
            startEngine(for: item)
        }
        updateTimeControlStatus()
    }

    /// Stops the current item and closes the sound server stream. Linux-specific: `AVPlayer` has no counterpart
    /// because iOS owns the audio route; call it when the player will not be used again.
    public func close() {
        discardPreloaded()
        for item in queue { item.queueOwner = nil }
        queue.removeAll()
        stopEngine()
        currentItem?.player = nil
        currentItem = nil
        applyRate(0)  // a closed player plays nothing: paused, and says so
        updateTimeControlStatus()
        detachAudioSession()
        // The loop stops what is left, closes the sound and ends its thread, off the main actor.
        resources.loop.send(.close)
        audioRenderer = nil
        finishEventStreams()
    }

    /// Waits until no thread of any player runs (the players were closed or released: their threads end on their
    /// own, soon), at most `seconds`; true when none runs. Linux-specific, for a program about to exit: `exit()`
    /// runs the process's exit handlers, which must not run under a thread still reading or decoding. It first
    /// ends every HLS download under way in the process as cancelled (an asset's open may still be fetching a
    /// playlist for nobody; a player still playing would see its download fail). Callable from any actor; it
    /// suspends, never blocks a thread.
    public nonisolated static func waitForPlaybackThreads(upTo seconds: Double) async -> Bool {
        await PlaybackThreads.waitUntilNoneRuns(upTo: seconds)
    }

    /// `.advance` at the end of `item`; a plain player has nothing to advance to and pauses (`QueuePlayer` moves
    /// on).
    func advance(after item: PlayerItem) { rate = 0 }

    func applyVolume() {
        resources.loop.send(.setVolume(volume.isFinite ? max(0, min(1, volume)) : 1, muted: isMuted))
    }

    func applyRate(_ newValue: Float) {
        let r: Float = newValue.isFinite && newValue > 0 ? min(max(newValue, 0.25), 4) : 0
        guard r != storedRate else { return }
        let wasPaused = storedRate == 0
        storedRate = r
        if wasPaused { startBufferMonitor() }
        sendEngineRate()
        emit(PlayerEvent(.rateChanged(r)))
        updateTimeControlStatus()
        observers.rateChanged(r, player: self)
    }

    /// Tells the playback loop the rate to play at: the rate asked for, or 0 while an interruption holds the sound
    /// (a play asked for during a call waits for its end; its stream stays corked, and the clock stands). Main
    /// actor.
    func sendEngineRate() {
        let r = isInterruptedByAudioSession ? 0 : storedRate
        guard r != engineRateSent else { return }
        engineRateSent = r
        resources.loop.send(.setRate(Double(r)))
    }
}
