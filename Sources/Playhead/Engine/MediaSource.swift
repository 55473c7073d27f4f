import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS
import PlayheadSubtitles

/// The kind of media a track carries.
enum TrackKind: Sendable, Hashable {
    case audio, video, text
}

/// One track of a media source: what its decoder needs and how its time stamps map to the item's timeline.
/// A value type, safe on any thread.
struct MediaTrack: Sendable {
    /// The track's identifier in its source (samples name it).
    var id: Int
    var kind: TrackKind
    /// The codec, time base and format of the samples.
    var stream: StreamInfo
    /// Seconds subtracted from a time stamp's seconds to place it on the item's timeline (the container's start
    /// time, or where the first HLS segment fetched plays).
    var timelineOffset: Double

    /// The item time of time stamp `ts` (in the track's time base).
    func seconds(_ ts: Int64) -> Double { stream.seconds(ts) - timelineOffset }
}

extension MediaTrack {
    /// This sound rendition's equivalent in rendition group `group` among `tracks` (the one with its `NAME` and
    /// language, else its language alone; nil when the group has neither); itself when it is a rendition of that
    /// group, of no group, or when `group` is nil.
    func equivalent(inGroup group: String?, among tracks: [MediaTrack]) -> MediaTrack? {
        guard let group, let own = stream.group, own != group else { return self }
        let candidates = tracks.filter { $0.kind == kind && $0.stream.group == group }
        return candidates.first { $0.stream.title == stream.title && $0.stream.language == stream.language }
            ?? candidates.first { $0.stream.language != nil && $0.stream.language == stream.language }
    }
}

/// A compressed sample read from a source, with its track and its item time.
struct MediaSample: @unchecked Sendable {
    var track: Int
    var packet: Packet
    /// The sample's presentation (or decoding) time on the item's timeline; nil when the container gives none.
    var seconds: Double?
}

/// Cues of a text track read as a batch, already parsed and placed on the item's timeline (the cues of an HLS
/// WebVTT segment). A value type, safe on any thread.
struct CueBatch: Sendable {
    var track: Int
    var cues: [SubtitleCue]
    /// Where the batch starts on the item's timeline (its segment's start): the order of reads among parts.
    var seconds: Double
}

/// Time with no samples a source knows of as it reads: from `from` to `until` on the item's timeline, nothing of
/// `tracks` (nil: all of the source's) will come (a live HLS part lost, or marked a gap). The engine plays it as
/// silence over the last picture, as it comes, rather than stall for the samples after it. A value type.
struct GapRead: Sendable {
    var tracks: Set<Int>?
    var from: Double
    var until: Double
}

/// What reading a source gave.
enum SourceRead {
    case sample(MediaSample)
    /// Time without samples, known before the samples after it come (`GapRead`).
    case gap(GapRead)
    /// Cues of a text track whose samples Playhead parses itself (HLS WebVTT segments, with their cue settings).
    case cues(CueBatch)
    /// The end of the media (for now: a live source may add more after a seek or a reload).
    case end
    /// A command (`interrupt()`) ended the read; nothing was lost: read again.
    case interrupted
}

extension SourceRead {
    /// The track and the item time of what was read (a sample without a time, an end or an interruption: nil).
    var trackAndTime: (Int, Double)? {
        switch self {
        case .sample(let s): s.seconds.map { (s.track, $0) }
        case .cues(let b): (b.track, b.seconds)
        case .gap, .end, .interrupted: nil
        }
    }
}

/// What a source may ask of the engine that plays it, and how it reports. Closures are called on the source's
/// loading thread (the engine's demux thread) unless they say otherwise; each is safe on any thread.
struct SourceHost: Sendable {
    /// The item time heard or seen now.
    var position: @Sendable () -> Double
    /// The caps (bit rate, picture size, window size) variants are chosen within now.
    var caps: @Sendable () -> AdaptiveBitratePolicy.Caps
    /// Whether the item plays (ready, a non-zero rate, not stalled): only then is a slow download given up.
    var isPlaying: @Sendable () -> Bool
    /// Whether time is meant to move (a non-zero rate) and no seek waits: a jump found while paused is taken then.
    var mayJump: @Sendable () -> Bool
    /// Whether a seek waits: a wait for a reload or a download ends at once.
    var seekPending: @Sendable () -> Bool
    /// Asks the engine to restart reading at an item time (the play head fell out of a live window).
    var requestJump: @Sendable (Double) -> Void
    /// Tells the engine a jump was found that waits for the item to play (`mayJump`): what it buffered before is
    /// not to be heard when it resumes; the seek the jump becomes ends the wait.
    var jumpWaits: @Sendable () -> Void
    /// Reports an event (variant switches, segments, HLS notices).
    var post: @Sendable (EngineEvent) -> Void
    /// Ends the item with the source's own error (an HTTP status, a bad playlist).
    var fail: @Sendable (PlaybackError) -> Void
    /// Ends the item with the source's error once what is buffered has played out, instead of its end: the source
    /// could load no more (everything was tried) and reads `.end` next. A seek forgets it.
    var failAtEnd: @Sendable (PlaybackError) -> Void
    /// The item's forward buffer when it set one (0: automatic); the ABR policy fits its thresholds to it.
    var forwardBufferSeconds: Double
}

/// What an item plays, as tracks with time stamps on the item's timeline: read the next sample, seek, work while
/// the buffer is full, end. The engine's demux thread owns a source from its open to its close and calls
/// everything on it there, except `interrupt()` and `cancel()`, which may come from any thread.
///
/// `DemuxerSource` demuxes a file, a URL or (for now) the byte stream of Playhead's HLS client with FFmpeg.
protocol MediaSource: AnyObject, Sendable {
    /// The file or URL, as errors name it.
    var name: String { get }
    var tracks: [MediaTrack] { get }
    var duration: MediaTime { get }
    var metadata: MediaMetadata { get }
    var isSeekable: Bool { get }
    /// The container's short name ("mov,mp4,m4a,3gp,3g2,mj2", "mpegts", ...).
    var formatName: String { get }
    /// The track of `kind` to play when the item does not choose (FFmpeg's best stream); nil when there is none.
    func defaultTrack(_ kind: TrackKind) -> Int?
    /// Makes a decoder for a track; `threads` is a hint (0: FFmpeg decides).
    func makeDecoder(track: Int, threads: Int) throws(FFmpegError) -> Decoder
    /// Connects the engine: called once before the first read.
    func attach(_ host: SourceHost)
    /// The tracks the engine chose to play, once, after `attach` and before the first read: the source loads
    /// only what they need (an HLS rendition is opened now, blocking; a part whose tracks none plays is never
    /// read). Returns the chosen tracks it can play; one it could not open is left out (and reported through the
    /// host), and its `tracks` are then final (a track opened now has its real codec and time base).
    func select(_ chosen: Set<Int>) -> Set<Int>
    /// Before the engine looks at its commands: a jump the source found while idle (the play head fell out of a
    /// live window while paused) becomes a seek request through the host once the host allows it. Returns whether
    /// a jump still waits in the source (not handed over yet).
    func deliverPendingJump() -> Bool
    /// Reads the next sample of any track, blocking while data is loaded. Throws the error that ended reading.
    func read() throws(PlaybackError) -> SourceRead
    /// Restarts reading at the item time `seconds` (a file at the keyframe before it, HLS at the segment that
    /// holds it, fetched first); nothing is opened or probed again and decoders are kept.
    func seek(to seconds: Double) throws(PlaybackError)
    /// While the forward buffer is full: work that is due (a live playlist reloads on its schedule) and the
    /// monotonic time when more will be (nil: nothing until a command). False when the work failed (the source
    /// has reported the error through its host).
    func idle() -> (ok: Bool, nextDeadline: Double?)
    /// At the end of what could be read: waits, while the playing buffer lasts (`idle` seconds at most), for a
    /// file that is still being written to grow; true when there is more to read. `cancelled` ends the wait.
    func waitForMore(idle: Double, cancelled: () -> Bool) -> Bool
    /// Ends a blocking read, a download or a wait for a reload at once, so a command is taken (any thread).
    func interrupt()
    /// Ends a wait for a reload (a download ends on its own when it sees the seek) but not a read under way: for a
    /// seek the engine carries out in its buffer, with the read going on after it (any thread).
    func interruptWaits()
    /// Ends all reading for good: the engine stops (any thread).
    func cancel()
    /// Every cue of text track `track` when they are known from its open (a subtitle file read whole by Playhead's
    /// own WebVTT and SubRip parsers, with its cue settings and regions); nil when its cues come as samples. The
    /// engine shows the known cues and ignores the track's samples.
    func knownCues(of track: Int) -> [SubtitleCue]?
    /// Whether `track`'s samples are read now (after `select`: a part none of whose tracks was chosen is not).
    func reads(track: Int) -> Bool
    /// Starts reading `track`, one not read (an HLS rendition not chosen at the open), from the item time
    /// `seconds` while the rest goes on: its part is opened if it was not (blocking) and moved there. False when it
    /// cannot be (reported through the host). Its track (`track(_:)`) is then its opened one.
    func startReading(track: Int, at seconds: Double) -> Bool
    /// Stops reading `track`'s part (an HLS rendition another one replaced): nothing more of it is read or fetched
    /// until `startReading`. Nothing for a track of the main part.
    func stopReading(track: Int)
    /// As a part of a `MergedSource` not read yet: makes `track` read from the item time `seconds` (the part's
    /// `startReading`). False when it cannot be (reported through the host).
    func open(track: Int, at seconds: Double) -> Bool
    /// Why nothing read may have decoded, when the source knows more than the decoders (an HLS stream whose
    /// samples are encrypted: the key may be wrong); nil otherwise. Any thread.
    var undecodableReason: String? { get }
    /// The audio rendition group (`GROUP-ID`) of the HLS variant being loaded: a sound rendition of another group
    /// gives way to its equivalent in this one (`MediaTrack.equivalent`). Nil for a source without groups.
    var currentAudioGroup: String? { get }
    /// Whether the source places every sample on the item's timeline itself (HLS: its playlist does, gaps included),
    /// so a hole in a track's time stamps is media missing, however long; in a file it may be a jump in them. Any
    /// thread.
    var placesSamples: Bool { get }
}

extension MediaSource {
    /// None: cues come as samples.
    func knownCues(of track: Int) -> [SubtitleCue]? { nil }

    /// Every track of a single input is read.
    func reads(track: Int) -> Bool { self.track(track) != nil }

    /// A single input reads every track already.
    func startReading(track: Int, at seconds: Double) -> Bool { false }

    /// A single input reads every track.
    func stopReading(track: Int) {}

    /// Chosen (`select`), then moved to `seconds`. A part that opens at a position itself (an HLS rendition, whose
    /// first fetch is then the segment there) does both at once.
    func open(track: Int, at seconds: Double) -> Bool {
        guard select([track]).contains(track) else { return false }
        do throws(PlaybackError) {
            try seek(to: seconds)
        } catch {
            return false
        }
        return true
    }

    /// Nothing known beyond the decoders' failure.
    var undecodableReason: String? { nil }

    /// No rendition groups.
    var currentAudioGroup: String? { nil }

    /// The container's time stamps, as they are.
    var placesSamples: Bool { false }

    /// The track with `id`, if any.
    func track(_ id: Int?) -> MediaTrack? {
        guard let id else { return nil }
        return tracks.first { $0.id == id }
    }
}
