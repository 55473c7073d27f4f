import PlayheadCore

/// The format every audio output takes: interleaved 32-bit float samples. A value type, safe on any thread.
public struct AudioFormat: Sendable, Hashable {
    /// Samples per second per channel.
    public var sampleRate: Int
    /// Interleaved channels.
    public var channels: Int

    /// A format of `sampleRate` Hz and `channels` channels.
    public init(sampleRate: Int = 48_000, channels: Int = 2) {
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Bytes per interleaved frame.
    public var bytesPerFrame: Int { channels * 4 }
}

/// Something the sound server told an output, reported through `AudioOutput.eventHandler`.
public enum AudioOutputEvent: Sendable, Hashable {
    /// The server asks the stream to stop for another one (PulseAudio's `request-cork`: a call began).
    case corkRequested
    /// The server allows the stream to play again (`request-uncork`).
    case uncorkRequested
    /// The stream now plays on another device, named.
    case moved(toDevice: String)
    /// The connection to the sound server was lost (the PulseAudio output then reconnects by itself).
    case serverLost
    /// The stream failed (for example its device was removed with nowhere to go).
    case failed(String)
    /// A sound server answers again and the stream was rebuilt on it (its timeline continues).
    case serverReset
    /// The server played all that was written and found nothing more (PulseAudio's underflow): the listener hears
    /// silence until the writer catches up. One comes at the end of most streams too, as their last sound plays.
    case underflow
}

/// Where decoded audio goes: the sound server, a silent clock, or a file.
///
/// Positions are counted in frames on the output's own timeline, which never goes backwards: `writePosition`
/// is where the next written frame will play, `playPosition` is the frame the listener hears now (the output's
/// latency already subtracted). The engine maps these to media time.
///
/// Threads: `write` is called from the player's audio thread only and may block until the output has room;
/// every other member may be called from any thread and returns promptly.
public protocol AudioOutput: AnyObject, Sendable {
    /// A short name for messages and logs ("pulse", "null", "wav").
    var name: String { get }
    /// Opens the stream for `format`. Called once before the first write.
    func start(format: AudioFormat) throws(PlaybackError)
    /// Writes interleaved samples, blocking while the output is full; returns early, with the frames taken so far,
    /// after `interruptWrite()`.
    func write(_ samples: UnsafeBufferPointer<Float>) throws(PlaybackError) -> Int
    /// Wakes a `write` blocked in another thread.
    func interruptWrite()
    /// Allows blocking writes again after `interruptWrite()`.
    func resumeWrites()
    /// Stops (true) or restarts (false) the sound at once, keeping what is buffered (PulseAudio's cork). Returns
    /// without waiting for the sound server: any thread, the main actor included.
    func setPaused(_ paused: Bool)
    /// Drops everything buffered and not yet heard.
    func flush()
    /// Blocks until everything written has been heard (true), or `interruptWrite()` is called (false).
    func drain() -> Bool
    /// Closes the stream; the output may be started again.
    func stop()
    /// The frame the listener hears now, on the output's timeline.
    var playPosition: Int64 { get }
    /// Where the next written frame goes, on the output's timeline.
    var writePosition: Int64 { get }
    /// Called on an arbitrary thread for events from the sound server; set before `start`.
    var eventHandler: (@Sendable (AudioOutputEvent) -> Void)? { get set }
    /// Called once on the writer thread (a player's audio renderer thread, which writes every item the player
    /// plays) before its first write: an output paced by a sound server may ask for real-time scheduling for it.
    func prepareWriterThread()
}

extension AudioOutput {
    /// Does nothing: outputs that do not play in real time leave the writer thread as it is. On the writer thread.
    public func prepareWriterThread() {}
}
