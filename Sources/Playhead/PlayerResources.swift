import Foundation
import PlayheadAudio
import PlayheadCore

/// What must end with a `Player`: the engines it started and has not stopped (their threads, their inputs) and its
/// sound (the audio renderer's thread and the sound server stream). The player registers each as it makes it and releases it as it stops
/// it; when the player goes away without `close()` (its last reference dropped, on any thread), this object goes
/// with it and its `deinit` stops what is left on a background queue, so the threads end and the stream leaves
/// the server at once. Any thread.
final class PlayerResources: Sendable {
    private struct Held {
        var engines: [ObjectIdentifier: PlaybackEngine] = [:]
        var audio: AudioRenderer?
        var audioSessionObserver: UUID?
    }

    private let held = Locked(Held())

    /// An engine the player started.
    func adopt(_ engine: PlaybackEngine) { held.withLock { $0.engines[ObjectIdentifier(engine)] = engine } }

    /// An engine the player stopped (or is stopping) itself.
    func release(_ engine: PlaybackEngine) { held.withLock { $0.engines[ObjectIdentifier(engine)] = nil } }

    /// The player's sound (its output and the renderer's thread), or nil once the player closed it.
    func setAudio(_ audio: AudioRenderer?) { held.withLock { $0.audio = audio } }

    /// The player's observer of `AudioSession.shared`, removed with the player.
    func setAudioSessionObserver(_ token: UUID?) { held.withLock { $0.audioSessionObserver = token } }

    deinit {
        let left = held.current
        guard !left.engines.isEmpty || left.audio != nil || left.audioSessionObserver != nil else { return }
        DispatchQueue.global(qos: .userInitiated).async {
            for engine in left.engines.values { engine.stop() }
            left.audio?.shutDown()
            left.audio?.output.stop()
            if let token = left.audioSessionObserver { AudioSession.shared.removeObserver(token) }
        }
    }
}
