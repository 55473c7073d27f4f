import Foundation
import PlayheadAudio
import PlayheadCore

/// What must end with a `Player`: its playback loop (which holds the periods it has not stopped, their threads and
/// inputs, and its sound: the audio renderer's thread and the sound server stream), its audio session observer and
/// its event channel. When the player goes away without `close()` (its last reference dropped, on any thread), this
/// object goes with it and its `deinit` sends the loop `close`: the periods stop, the stream leaves the server at
/// once and the loop's thread ends after it. Any thread.
final class PlayerResources: Sendable {
    /// The player's playback loop: every command to its periods and its sound goes through it.
    let loop: PlaybackLoop
    /// The player's video thread: shows its periods' pictures in turn.
    let videoPresenter = PeriodPresenter(kind: .video)
    /// The player's text thread: shows its periods' subtitles in turn.
    let textPresenter = PeriodPresenter(kind: .text)
    /// The player's engine events, in order, to its one consumer on the main actor.
    let events: AsyncStream<EngineDelivery>
    let eventSink: AsyncStream<EngineDelivery>.Continuation
    private let audioSessionObserver = Locked<UUID?>(nil)

    init() {
        (events, eventSink) = AsyncStream<EngineDelivery>.makeStream()
        loop = PlaybackLoop(presenters: [videoPresenter, textPresenter])
    }

    /// The player's observer of `AudioSession.shared`, removed with the player.
    func setAudioSessionObserver(_ token: UUID?) { audioSessionObserver.withLock { $0 = token } }

    deinit {
        loop.send(.close)
        // A loop that holds nothing carries out no `close`: the presenters' threads end here too (a message the
        // loop has still to carry out cannot start them again, as `close` is the last).
        videoPresenter.shutDown()
        textPresenter.shutDown()
        eventSink.finish()
        if let token = audioSessionObserver.current {
            DispatchQueue.global(qos: .userInitiated).async { AudioSession.shared.removeObserver(token) }
        }
    }
}

/// An engine's event on its way to the player: stamped on the engine's thread with the monotonic time, and the item
/// whose engine sent it. Made on engine threads, read on the main actor.
struct EngineDelivery: Sendable {
    let event: EngineEvent
    let timestamp: Double
    /// The item, held only until the event is handled.
    let item: PlayerItem
}
