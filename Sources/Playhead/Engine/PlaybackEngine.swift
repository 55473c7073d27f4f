import Foundation
import PlayheadAudio
import PlayheadCore
import PlayheadFFmpeg
import PlayheadVideo

/// Plays one item: a demux thread reads packets into per-stream queues, an audio thread decodes, resamples,
/// time-stretches and writes to the audio output (the master clock), a video decode thread fills a small frame
/// queue and a video thread presents frames against the clock.
///
/// Threads: commands (`start`, `setRate`, `seek`, `setVolume`, `stop`) may be called from any thread and return at
/// once (except `stop`, which waits for the threads to end); the engine's own threads own the C objects. Events go
/// out through `sink` on engine threads.
final class PlaybackEngine: @unchecked Sendable {
    struct SeekRequest {
        var id: Int
        var seconds: Double
        var exact: Bool
    }

    /// Where this period's last sample is followed by the next period's first, on the output's timeline, and the
    /// generation it belongs to (a seek cancels it); with what the last look at it saw (`Control.joinWait`).
    struct Boundary {
        var frame: Int64
        var generation: Int
        /// The play position at the last look while playing, nil after a pause (or before any look).
        var lastPlayed: Int64?
        /// The wait the last look asked for, in seconds (0 after a pause).
        var lastWait = 0.0
        /// Seconds of looks while playing that found the play position where the one before had (0 once it moves).
        var standing = 0.0

        init(frame: Int64, generation: Int) {
            self.frame = frame
            self.generation = generation
        }
    }

    let config: EngineConfiguration
    /// Where the item stops (`forwardPlaybackEndTime`), in seconds of its timeline; nil plays to the end. Set from
    /// the configuration, changed by `setEnd` from any thread; the clock's limit is set under the same lock.
    let endTime: Locked<Double?>
    let sink: @Sendable (EngineEvent) -> Void
    let control = Locked(Control())
    let wakeup = PriorityInheritingCondition()
    /// How many times `wake()` was called; guarded by `wakeup`.
    private var wakeCount = 0
    /// Orders a seek's interrupt of the source (`seek`, on the playback loop) against the demux thread's taking of
    /// that seek: the interrupt lands only while its seek waits, to end a blocking read so the seek is seen, never
    /// on the reads after the seek was carried out. (It did: the read after the seek ended, and FFmpeg's Matroska
    /// reader, interrupted mid-read, then says the file ended, so the item ended at the seek's target with the seek
    /// never done and `await seek` waiting for good.) Taken before `control`.
    let seekInterrupt = NSLock()
    /// Held while the cork state is read and applied to the output and the clock (`applyCork`), so the last thread
    /// to apply applies the latest state. Taken before `control`, never under it.
    let corkLock = NSLock()
    let audioQueue = PacketQueue()
    /// The audio tracks other than the one playing whose recent packets the demux thread keeps (a switch to one
    /// of them is seamless).
    let switchableAudio = Locked(Set<Int>())
    /// The tracks of parts not read (HLS renditions not chosen) that a switch starts reading in place
    /// (`MediaSource.startReading`); kept by the demux thread.
    let startableTracks = Locked(Set<Int>())
    let videoQueue = PacketQueue()
    let frameQueue = FrameQueue(capacity: 2)
    let clock: MediaClock
    /// The outputs that show the item's pictures, attachable at any moment, and the picture shown now.
    let video: VideoRenderer
    /// The outputs that show the item's subtitles, and the cues read so far.
    let text: TextRenderer
    private let threadsDone = DispatchGroup()
    /// What the open input holds: set once on the demux thread when the input is open, read from any thread (the
    /// decode threads, the player's buffer monitor on the main actor, a predecessor's hand-off), under a lock.
    var info: MediaInfo? {
        get { openedInfo.current }
        set { openedInfo.withLock { $0 = newValue } }
    }
    private let openedInfo = Locked<MediaInfo?>(nil)
    /// The source being read: set on the demux thread once it is open, used from any thread to interrupt or
    /// cancel it.
    var source: (any MediaSource)? {
        get { currentSource.current }
        set { currentSource.withLock { $0 = newValue } }
    }
    private let currentSource = Locked<(any MediaSource)?>(nil)
    /// The audio pipeline the renderer's thread runs in this period's turns: set on the demux thread once the
    /// input is open (then the renderer is told: `attach`).
    var audioWork: AudioWork? {
        get { attachedAudio.current }
        set { attachedAudio.withLock { $0 = newValue } }
    }
    private let attachedAudio = Locked<AudioWork?>(nil)
    /// Where this period's pictures are between its turns on the player's video thread; that thread only.
    var videoProgress = VideoProgress()
    /// The time of the picture on screen (nil before the first, and from a seek until its first): where a frame
    /// step starts (`PlayerItem.step(byCount:)`). Set on the video thread, read anywhere.
    let shownPicture = Locked<Double?>(nil)

    init(configuration: EngineConfiguration, sink: @escaping @Sendable (EngineEvent) -> Void) {
        config = configuration
        endTime = Locked(configuration.endSeconds)
        self.sink = sink
        control.withLock { c in
            c.active = configuration.startsActive
            c.peakBitRate = configuration.peakBitRate
            c.maximumResolution = configuration.maximumResolution
            c.textDelay = configuration.textDelay
        }
        video = VideoRenderer(outputs: configuration.videoOutputs)
        text = TextRenderer(outputs: configuration.textOutputs)
        clock = MediaClock(
            output: configuration.decodeAudio ? configuration.audioOutput : nil,
            sampleRate: configuration.format.sampleRate)
    }

    func spawn(_ name: String, _ body: @escaping @Sendable (PlaybackEngine) -> Void) {
        threadsDone.enter()
        PlaybackThreads.start(name) { [self] in
            body(self)
            threadsDone.leave()
        }
    }

    /// Whether this engine's period writes to the audio output now (the renderer's playing period). Any thread.
    var ownsOutput: Bool { config.audio?.owns(self) ?? false }

    /// The media time heard or seen now.
    var currentSeconds: Double { clock.seconds }

    /// How far media has been read ahead, in seconds of the item's timeline.
    var bufferedUntil: Double {
        let media = info
        let a = media?.audio != nil ? audioQueue.newestSeconds : nil
        let v = media?.video != nil ? videoQueue.newestSeconds : nil
        switch (a, v) {
        case let (a?, v?): return min(a, v)
        case let (a?, nil): return a
        case let (nil, v?): return v
        default: return clock.seconds
        }
    }

    var isStopping: Bool { control.withLock { $0.stopping } }

    /// Whether the forward buffer holds all it may: the demux thread waits for the decoders to make room, or it
    /// has read the input to its end (`PlayerItem.isPlaybackBufferFull`). Any thread.
    var bufferIsFull: Bool {
        guard let media = info else { return false }
        if control.withLock({ $0.demuxWaitsForRoom }) { return true }
        return (media.audio == nil || audioQueue.reachedEnd) && (media.video == nil || videoQueue.reachedEnd)
    }

    /// On the renderer's thread, in this period's turn: runs `body` (a call into the audio output) unless the
    /// engine is stopping; nil when it is. What a turn writes after `stop()` is flushed by the same thread before
    /// the next turn, so nothing written late is heard.
    @discardableResult
    func withOutput<T>(_ body: () throws -> T) rethrows -> T? {
        guard !isStopping else { return nil }
        return try body()
    }

    /// Waits until the engine's threads have ended, at most `seconds`; true when they have. Any thread but theirs.
    func waitUntilStopped(seconds: Double) -> Bool {
        threadsDone.wait(timeout: .now() + seconds) == .success
    }

    /// Wakes every engine thread that waits for something to change (a command, room in the queues, the end of
    /// a stream). Any thread.
    func wake() {
        wakeup.lock()
        wakeCount &+= 1
        wakeup.broadcast()
        wakeup.unlock()
    }

    /// The count of `wake()` calls so far: read it before looking at the state a wait depends on, then pass it to
    /// `waitForWake(since:)`, so a wake that comes between the look and the wait is not lost. Any thread.
    func wakeToken() -> Int {
        wakeup.lock()
        defer { wakeup.unlock() }
        return wakeCount
    }

    /// Sleeps until `wake()` is called after `token` was read, or `seconds` pass (nil: no time limit). Nothing
    /// polls: a paused engine's threads sleep here until a command arrives. Engine threads.
    func waitForWake(since token: Int, seconds: Double? = nil) {
        let deadline = seconds.map { Date(timeIntervalSinceNow: $0) }
        wakeup.lock()
        while wakeCount == token {
            if let deadline {
                if !wakeup.wait(until: deadline) { break }
            } else {
                wakeup.wait()
            }
        }
        wakeup.unlock()
    }
}
