import Foundation
import PlayheadAudio
import PlayheadCore

/// The output of `AudioOutputChoice.automatic`: a `PulseAudioOutput`, made without waiting for the sound server,
/// that turns into a silent, timed `NullAudioOutput` (with the one-line notice "playhead: no sound server answers;
/// playing without sound") when its stream cannot be made. The switch happens at the first write after the
/// failure, on the engine's audio thread, before any frame was played, so both timelines start at frame 0.
///
/// Threads: `write` runs on the engine's audio thread; every other member may be called from any thread.
final class AutomaticAudioOutput: AudioOutput, @unchecked Sendable {
    private struct State {
        var format = AudioFormat()
        var paused = true
        var interrupted = false
        var fallback: NullAudioOutput?
    }

    let pulse: PulseAudioOutput
    private let state = Locked(State())

    /// Wraps a new `PulseAudioOutput` with the session's role and preferred output. Any thread; does not block.
    init() throws(PlaybackError) {
        pulse = try PulseAudioOutput()
    }

    /// "pulse", or "null" once no server answered.
    var name: String { current.name }
    /// Whether the output fell back to silence (no sound server answered). Any thread.
    var isSilent: Bool { state.withLock { $0.fallback != nil } }
    private var current: any AudioOutput { state.withLock { $0.fallback } ?? pulse }

    /// Asks for the PulseAudio stream (`PulseAudioOutput.requestStream(format:)`); returns at once.
    func start(format: AudioFormat) throws(PlaybackError) {
        let fallback = state.withLock { s -> NullAudioOutput? in
            s.format = format
            s.paused = true
            return s.fallback
        }
        if let fallback {
            try fallback.start(format: format)
            fallback.setPaused(true)
        } else {
            pulse.requestStream(format: format)
        }
    }

    /// Writes to the sound server, or, once its stream could not be made, to the silent output.
    func write(_ samples: UnsafeBufferPointer<Float>) throws(PlaybackError) -> Int {
        if let fallback = state.withLock({ $0.fallback }) { return try fallback.write(samples) }
        do {
            return try pulse.write(samples)
        } catch {
            guard pulse.openFailure != nil else { throw error }
            return try switchToSilence().write(samples)
        }
    }

    /// Makes the silent output in the state the engine left this one in, and says so once on standard error.
    private func switchToSilence() -> NullAudioOutput {
        let (null, made) = state.withLock { s -> (NullAudioOutput, Bool) in
            if let f = s.fallback { return (f, false) }
            let f = NullAudioOutput()
            try? f.start(format: s.format)
            f.setPaused(s.paused)
            if s.interrupted { f.interruptWrite() }
            s.fallback = f
            return (f, true)
        }
        if made {
            try? FileHandle.standardError.write(
                contentsOf: Data("playhead: no sound server answers; playing without sound\n".utf8))
            pulse.stop()
        }
        return null
    }

    /// Wakes a blocked `write`.
    func interruptWrite() {
        let fallback = state.withLock { s -> NullAudioOutput? in
            s.interrupted = true
            return s.fallback
        }
        let target: any AudioOutput = fallback ?? pulse
        target.interruptWrite()
    }

    /// Allows blocking writes again.
    func resumeWrites() {
        let fallback = state.withLock { s -> NullAudioOutput? in
            s.interrupted = false
            return s.fallback
        }
        let target: any AudioOutput = fallback ?? pulse
        target.resumeWrites()
    }

    /// Corks or uncorks the stream, or stops or restarts the silent clock.
    func setPaused(_ paused: Bool) {
        let fallback = state.withLock { s -> NullAudioOutput? in
            s.paused = paused
            return s.fallback
        }
        let target: any AudioOutput = fallback ?? pulse
        target.setPaused(paused)
    }

    /// Drops unheard audio.
    func flush() { current.flush() }
    /// Waits until everything written was heard.
    func drain() -> Bool { current.drain() }
    /// Closes the stream.
    func stop() { current.stop() }
    /// The frame heard now.
    var playPosition: Int64 { current.playPosition }
    /// Where the next written frame goes.
    var writePosition: Int64 { current.writePosition }
    /// The PulseAudio output's events (a silent output has none).
    var eventHandler: (@Sendable (AudioOutputEvent) -> Void)? {
        get { pulse.eventHandler }
        set { pulse.eventHandler = newValue }
    }
}
