import PlayheadCore
import PlayheadVideo

extension PlaybackEngine {
    /// State shared by the engine's threads and its commands; guarded by `control`'s lock. Its decisions (what a
    /// buffering change, a seek, a failure or a stream's end mean for the period) are pure methods below, made
    /// under the lock and carried out by the caller after it: the threads share the state, not the reasoning.
    struct Control {
        var rate: Double = 0
        var volume: Float = 1
        /// The item's loudness correction, a factor on `volume` (`EngineConfiguration.replayGain`).
        var gain: Float = 1
        /// Seconds the subtitles show later than their time stamps say (`PlayerItem.subtitleDelay`).
        var textDelay: Double = 0
        /// Corrections that take over at an item time (a chained Ogg file's next song), in the order read; dropped
        /// at a seek (the link it lands in reports its own).
        var gainChanges: [(at: Double, gain: Float)] = []
        var muted = false
        var generation = 0
        var pendingSeek: SeekRequest?
        /// The audio track to switch to in place (`switchAudio(to:)`), for the demux thread.
        var pendingAudioSwitch: Int?
        /// The text track to show instead (`.some(nil)`: none), for the demux thread (`switchText(to:)`).
        var pendingTextSwitch: Int??
        /// The seek the decode threads are completing.
        var activeSeek: SeekRequest?
        /// The exact seek target of the current generation (frames before it are not shown); kept until the next
        /// seek, whoever completes the seek first.
        var exactTarget: Double?
        /// The time of the first packet of the played video track read in this generation: a sound that starts
        /// later starts there, after silence (as mpv's `--initial-audio-sync` does).
        var firstVideoSeconds: Double?
        /// A seek interrupted the source's read since the last seek in the source: the read may have lost the
        /// packet it was reading, so no seek is carried out in the buffer (`SeekWithinBuffer`) until one in the
        /// source has been.
        var readInterrupted = false
        var stopping = false
        /// The demux thread sleeps until the decoders make room in the queues (`noteTaken` wakes it).
        var demuxWaitsForRoom = false
        var buffering = true
        /// A live jump waits for the item to play (`SourceHost.jumpWaits`): the output stays corked until the seek
        /// it becomes has begun, so a resume is not heard from the old place first. Cleared by that seek.
        var jumpWaiting = false
        /// Buffering after a seek: cleared without stall or resume events.
        var seekBuffering = false
        /// A stall was reported (`.stalled`) and its end not yet: a seek that comes meanwhile does not silence it.
        var stallReported = false
        var readyPosted = false
        var audioEnded = false
        /// The generation whose last sound was written and now plays out (the output runs dry at its end).
        var audioFinishing: Int?
        var videoEnded = false
        /// The period's pictures are decoded (shown in its turns on the player's video thread).
        var presentsVideo = false
        /// The period's input has a text track, closed captions included (shown in its turns on the player's text
        /// thread).
        var presentsText = false
        var endedPosted = false
        /// The error the item fails with at its end instead of `.ended` (the source could load no more:
        /// `SourceHost.failAtEnd`); cleared by a seek.
        var endFailure: PlaybackError?
        /// Whether any audio or video frame came out of a decoder, and whether a seek or the end time may have
        /// cut the input short: read from its start to its end without one frame, an input is not media.
        var decodedAny = false
        var cutShort = false
        var failed = false
        /// Whether the engine's period is presented: its pictures and subtitles shown, its clock followed. A
        /// preloaded engine (the next item of a queue) opens, reads ahead and primes its decoders while inactive.
        /// Whether it may touch the audio output is the player's `AudioRenderer`'s to say (`ownsOutput`).
        var active = true
        /// Handed over to the next period: the end is reported once this boundary is heard (`joinWait`).
        var boundary: Boundary?
        /// The item's HLS caps as last set: bits per second (0 = none) and the largest picture (zero = none).
        var peakBitRate: Double = 0
        var maximumResolution = Size.zero

        /// Whether the output is corked and the clock stands: paused, buffering, or about to jump.
        var corked: Bool { rate == 0 || buffering || jumpWaiting }

        /// What a change of buffering means: announce it (a stall or a resumption; silent after a seek, whose end
        /// the seek reports), cork or uncork, and whether it is the first time the period is ready.
        struct BufferingChange: Equatable {
            var announce: Bool
            var corked: Bool
            var firstReady: Bool
        }

        /// Buffering starts (true) or ends; nil when nothing changes (already so, or stopping).
        mutating func setBuffering(_ newValue: Bool) -> BufferingChange? {
            guard buffering != newValue, !stopping else { return nil }
            buffering = newValue
            let first = !newValue && !readyPosted
            if first { readyPosted = true }
            // A stall reported is always followed by its end, even when a seek came in between (the player showed
            // "buffering" for good after quick seeks: a stall began between two seeks and the second silenced its
            // end).
            let silent = seekBuffering && !first && (newValue || !stallReported)
            if !newValue { seekBuffering = false }
            // A failed item stays failed: no readiness or stall is reported after its failure.
            let announce = !silent && !failed
            stallReported = newValue && announce && !first
            return BufferingChange(announce: announce, corked: corked, firstReady: first)
        }

        /// The item plays, its source holds no pending jump and no seek came of one: the jump is gone and the wait
        /// ends. Whether the output is then corked, nil when nothing changes.
        mutating func releaseJumpWait() -> Bool? {
            guard jumpWaiting, rate != 0, pendingSeek == nil else { return nil }
            jumpWaiting = false
            return corked
        }

        /// A new seek replaces the one waiting or being completed, which is returned (it finishes unfinished).
        mutating func requestSeek(_ seek: SeekRequest) -> SeekRequest? {
            let old = pendingSeek ?? activeSeek
            pendingSeek = seek
            activeSeek = nil
            return old
        }

        /// The period fails; true the first time (reported), false when it failed before or is stopping.
        mutating func markFailed() -> Bool {
            defer { failed = true }
            return !failed && !stopping
        }

        /// How a period ends once its streams have.
        enum End: Equatable {
            /// Played to its end.
            case ended
            /// What was buffered played; now the error that ended loading.
            case failed(PlaybackError)
            /// Read from start to end without one decoded frame: not media.
            case notMedia
        }

        /// The period's end, once: when every stream it plays (`playsAudio`, `playsVideo`) has ended, unless a seek
        /// waits, it is stopping or it failed (a failed item does not also play to its end); nil otherwise.
        mutating func takeEnd(playsAudio: Bool, playsVideo: Bool) -> End? {
            guard !playsAudio || audioEnded, !playsVideo || videoEnded, !endedPosted, !stopping, !failed,
                pendingSeek == nil
            else { return nil }
            endedPosted = true
            if let endFailure { return .failed(endFailure) }
            return decodedAny || cutShort ? .ended : .notMedia
        }

        /// Where the join stands when the output has played `played` frames at `sampleRate` and is corked or not
        /// (`outputCorked`, for the period playing in it): once the boundary is heard the audio has ended (recorded)
        /// and the join is over, as it is when no boundary applies any more (a seek came since, or the period
        /// stops); else the seconds until it is due, or paused (this period paused, or the output corked: nothing
        /// is heard until a command or an uncork). When the play position has stood for `standingGrace` though the
        /// output plays (the sound server went away, or stopped the stream without a cork of ours), the wait is at
        /// least the time it has stood, up to `standingWaitLimit`: nothing is heard, so looking again every
        /// millisecond would spin, and once the server plays again the change comes at most that late. (A position
        /// also stands for a moment after an uncork, until the server reports the stream playing: the grace.)
        mutating func joinWait(played: Int64, sampleRate: Int, outputCorked: Bool = false) -> JoinWait {
            guard var b = boundary, !stopping, b.generation == generation else { return .over }
            if played >= b.frame {
                boundary = nil
                audioEnded = true
                return .over
            }
            guard rate != 0, !outputCorked else {
                (b.lastPlayed, b.lastWait, b.standing) = (nil, 0, 0)
                boundary = b
                return .paused
            }
            let due = max(Double(b.frame - played) / Double(sampleRate), 0.001)
            b.standing = b.lastPlayed == played ? b.standing + b.lastWait : 0
            let wait = b.standing >= Self.standingGrace ? max(due, min(b.standing, Self.standingWaitLimit)) : due
            (b.lastPlayed, b.lastWait) = (played, wait)
            boundary = b
            return .due(wait)
        }

        /// Seconds a play position may stand while the output plays before the looks at a join back off
        /// (`joinWait`).
        static let standingGrace = 0.25
        /// The longest wait between looks at a join whose play position stands (`joinWait`), in seconds.
        static let standingWaitLimit = 0.5

        /// An inactive (preloaded) period presents from now on; whether its output is then corked, nil when it was
        /// active already.
        mutating func activate() -> Bool? {
            guard !active else { return nil }
            active = true
            return corked
        }
    }
}
