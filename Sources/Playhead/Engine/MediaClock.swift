import PlayheadAudio
import PlayheadCore

/// The playback clock: the media time the listener hears now.
///
/// With audio it follows the audio output (the sound server's latency-corrected position), mapped to media
/// time through the marks the audio thread leaves at each write (output frame, media time, speed). Without audio
/// it runs on the monotonic clock at the playback rate. Safe from any thread: readers (the main actor, the video
/// thread, time observers) and the audio thread meet under one lock.
final class MediaClock: @unchecked Sendable {
    private struct Mark {
        var frame: Int64
        var seconds: Double
        var speed: Double
    }

    private struct State {
        var marks: [Mark] = []
        var sampleRate = 48_000
        /// The time reported while nothing of the current position has been heard (start, after a seek).
        var pending: Double = 0
        // System clock (no audio).
        var systemBase: Double = 0
        var systemStartedAt: Double?
        var systemRate: Double = 1
        /// Upper bound for the clock: the item's end time (`forwardPlaybackEndTime`), where playback is cut.
        var limit: Double = .infinity
        /// Upper bound for the position reported (`seconds`): the duration the container or playlist declares.
        /// Pacing (`mediaSeconds`) ignores it: media that runs past its declared duration (an HLS playlist whose
        /// `EXTINF`s are too short, a header that understates) plays to its real end, as mpv plays it.
        var declaredEnd: Double = .infinity
        /// The audio output the clock follows; nil once the media turns out to have no sound.
        var audio: (any AudioOutput)?
        /// The sound has ended (until the next seek): the clock runs on from its last sample on the monotonic
        /// clock, so pictures after the end of the sound keep their pace.
        var audioFinished = false
    }

    private let state = Locked(State())
    /// The output the clock follows now: nil without sound or after its end.
    private var output: (any AudioOutput)? { state.withLock { $0.audioFinished ? nil : $0.audio } }

    /// A clock driven by `output`, or by the monotonic clock when `output` is nil.
    init(output: (any AudioOutput)?, sampleRate: Int) {
        state.withLock {
            $0.sampleRate = sampleRate
            $0.audio = output
        }
    }

    /// Forgets all marks: until new audio is heard the clock reads `seconds` (at start and after a seek).
    func reset(to seconds: Double) {
        state.withLock { s in
            s.marks.removeAll()
            s.audioFinished = false
            s.pending = seconds
            s.systemBase = seconds
            if s.systemStartedAt != nil { s.systemStartedAt = MonotonicClock.now() }
        }
    }

    /// Records that output frame `frame` plays media time `seconds`, at `speed` media seconds per output second.
    /// Called by the audio thread before each write.
    func mark(frame: Int64, seconds: Double, speed: Double) {
        state.withLock { s in
            if let last = s.marks.last, last.speed == speed {
                // Contiguous at the same speed: no new mark needed.
                let expected = last.seconds + Double(frame - last.frame) / Double(s.sampleRate) * speed
                if Swift.abs(expected - seconds) < 0.0005 { return }
            }
            s.marks.append(Mark(frame: frame, seconds: seconds, speed: speed))
            if s.marks.count > 64 { s.marks.removeFirst(s.marks.count - 64) }
        }
    }

    /// Runs on the monotonic clock from now on: the item has no sound to follow (a video-only file), so the
    /// output's position, which never moves, must not hold the pictures. Demux thread, once the input is open.
    func followSystemClock() { state.withLock { $0.audio = nil } }

    /// The sound has played out at `seconds`: from now until the next `reset`, the clock runs on from there on the
    /// monotonic clock (`running` at `rate`), so video longer than its sound (a file whose sound track ends
    /// first, a file cut while it was written) plays its last pictures and ends. Audio thread.
    func audioDidFinish(at seconds: Double, running: Bool, rate: Double) {
        state.withLock { s in
            s.audioFinished = true
            s.systemBase = seconds
            s.systemStartedAt = running ? MonotonicClock.now() : nil
            s.systemRate = rate
        }
    }

    /// Caps the clock at the item's end time (`forwardPlaybackEndTime`).
    func setLimit(_ seconds: Double) { state.withLock { $0.limit = seconds } }

    /// Caps the reported position at the media's declared duration.
    func setDeclaredEnd(_ seconds: Double) { state.withLock { $0.declaredEnd = seconds } }

    /// Whether the system clock runs (`setSystemRunning`). Any thread.
    var isSystemRunning: Bool { state.withLock { $0.systemStartedAt != nil } }

    /// Starts or stops the system clock (used only without audio) at `rate`.
    func setSystemRunning(_ running: Bool, rate: Double) {
        state.withLock { s in
            let now = MonotonicClock.now()
            if let t = s.systemStartedAt { s.systemBase += (now - t) * s.systemRate }
            s.systemStartedAt = running ? now : nil
            s.systemRate = rate
        }
    }

    /// The media time heard now, in seconds, no later than the declared duration: the position players report.
    var seconds: Double {
        let (t, declaredEnd) = reading()
        return min(t, declaredEnd)
    }

    /// The media time heard now, in seconds, even past the declared duration: what pictures are paced by.
    var mediaSeconds: Double { reading().seconds }

    private func reading() -> (seconds: Double, declaredEnd: Double) {
        guard let output = output else {
            return state.withLock { s in
                let run = s.systemStartedAt.map { (MonotonicClock.now() - $0) * s.systemRate } ?? 0
                return (min(s.systemBase + run, s.limit), s.declaredEnd)
            }
        }
        let played = output.playPosition
        return state.withLock { s in
            guard let first = s.marks.first, played >= first.frame else { return (s.pending, s.declaredEnd) }
            let m = s.marks.last { $0.frame <= played } ?? first
            let t = m.seconds + Double(played - m.frame) / Double(s.sampleRate) * m.speed
            return (min(t, s.limit), s.declaredEnd)
        }
    }

    /// Seconds until the first audio written since the last reset is heard (0 or less: heard already); nil before
    /// any is written. Without audio to follow, 0.
    var secondsUntilHeard: Double? {
        guard let output = output else { return 0 }
        let played = output.playPosition
        return state.withLock { s in s.marks.first.map { Double($0.frame + 1 - played) / Double(s.sampleRate) } }
    }
}
