import Foundation
import Observation
import PlayheadCore
import PlayheadVideo

/// One playable item and its presentation state, like `AVPlayerItem`.
///
/// Main actor: all properties are read and observed there (`@Observable`); a `Player` updates them from its engine.
@MainActor @Observable
public final class PlayerItem {
    /// Whether the item can play, like `AVPlayerItem.Status`.
    public enum Status: Sendable, Hashable {
        /// Not yet opened.
        case unknown
        /// Opened and playable.
        case readyToPlay
        /// Failed; see `error`.
        case failed
    }

    /// The asset the item plays.
    public let asset: URLAsset
    /// Whether the item is ready or failed.
    public internal(set) var status: Status = .unknown
    /// Why the item failed.
    public internal(set) var error: PlaybackError?
    /// The duration: `.indefinite` until known, and for live streams.
    public internal(set) var duration: MediaTime = .indefinite
    /// The size of the video pictures, `.zero` without video.
    public internal(set) var presentationSize: Size = .zero
    /// The item's tracks, once opened.
    public internal(set) var tracks: [AssetTrack] = []
    /// The time ranges read ahead and ready to play (at most one range here: from now to the read position).
    public internal(set) var loadedTimeRanges: [TimeRange] = []
    /// The ranges a seek may target: the whole item for seekable files, empty for unseekable streams.
    public internal(set) var seekableTimeRanges: [TimeRange] = []
    /// Seconds to read ahead of the playhead; 0 lets the player choose (5 s for files, 30 s over the network).
    public var preferredForwardBufferDuration: Double = 0
    /// The highest HLS variant bit rate to choose, in bits per second; 0 for no limit (`preferredPeakBitRate`).
    /// A change while the item plays applies from its next segment.
    public var preferredPeakBitRate: Double = 0 {
        didSet { (player ?? queueOwner)?.itemCapsChanged(self) }
    }
    /// The largest HLS variant picture to choose; `.zero` for no limit (`preferredMaximumResolution`). Without
    /// it, the size of the largest video output showing the item (its window) caps the picture instead. A change
    /// while the item plays applies from its next segment.
    public var preferredMaximumResolution: Size = .zero {
        didSet { (player ?? queueOwner)?.itemCapsChanged(self) }
    }
    /// Seconds the item's subtitles show later than their time stamps say (earlier when negative), for a subtitle
    /// file made for another cut of the film, as mpv's `--sub-delay`: a Linux extension (AVFoundation has none).
    /// Applies at once to the cues showing and to every subtitle output (the window's, legible outputs); a value
    /// that is not a number counts as 0, and beyond an hour either way as an hour. A subtitle file's cues are known
    /// whole; those of a track in the media are read with it, up to the forward buffer ahead, so a cue moved
    /// earlier than that shows once it is read. Main actor.
    public var subtitleDelay: Double = 0 {
        didSet {
            let bounded = subtitleDelay.isFinite ? min(max(subtitleDelay, -3600), 3600) : 0
            if bounded != subtitleDelay { subtitleDelay = bounded }
            for e in (player ?? queueOwner)?.engines(playing: self) ?? [] { e.setTextDelay(subtitleDelay) }
        }
    }
    /// Where the item's time meets a date (an HLS stream's `EXT-X-PROGRAM-DATE-TIME`), by time: `currentDate()`.
    var dateAnchors: [DateAnchor] = []
    /// Whether enough is buffered that playback should not stall.
    public internal(set) var isPlaybackLikelyToKeepUp = false
    /// Whether the buffer has run dry.
    public internal(set) var isPlaybackBufferEmpty = true
    /// Whether the buffer holds all it may (the forward buffer is full or the end was read).
    public internal(set) var isPlaybackBufferFull = false
    /// The common metadata read from the file's tags (empty until opened); a stream that changes its tags while
    /// it plays (an internet radio's song title) changes them here when playback reaches the change.
    public internal(set) var metadata: [MetadataItem] = []
    /// The tags the stream changed most recently while it played, like `AVPlayerItem.timedMetadata`: an internet
    /// radio's new song title (ICY `StreamTitle`, as the `.title` item and the `other("streamtitle")` one), a
    /// chained Ogg stream's next song. Empty until the first change; set when playback reaches it.
    public internal(set) var timedMetadata: [MetadataItem] = []
    /// The tag changes reported and the last one applied (`Player.scheduleTimedMetadata`): a change is applied
    /// only after those before it.
    @ObservationIgnored var timedMetadataChanges = (reported: 0, applied: 0)
    /// The access log, like `AVPlayerItemAccessLog`: one event per period on an HLS variant (empty for files).
    public internal(set) var accessLog: [AccessLogEvent] = []
    /// The error log, like `AVPlayerItemErrorLog`: one entry for each error met while playing the item.
    public internal(set) var errorLog: [ErrorLogEntry] = []
    /// What Now Playing shows for the item, like `AVPlayerItem.nowPlayingInfo`; set by the app. Keys are the names
    /// of PlayheadNowPlaying's `NowPlayingInfoKey` ("title", "artwork" with a `NowPlayingArtwork`, ...). A
    /// `NowPlayingSession` that publishes automatically shows these values over the asset's tags. Main actor.
    public var nowPlayingInfo: [String: any Sendable]?
    /// Where playback of the item ends, like `AVPlayerItem.forwardPlaybackEndTime`: `.invalid` (the default) plays
    /// to the end of the media; a numeric time ends the item there, to the sample. Set while the item plays, it
    /// applies at once: playback ends at the new time (a time already passed ends the item now), and a later
    /// time than where playback stopped reading plays on to it.
    public var forwardPlaybackEndTime: MediaTime = .invalid {
        didSet { if forwardPlaybackEndTime != oldValue { (player ?? queueOwner)?.itemEndChanged(self) } }
    }
    /// The ads (or other interstitial content) on the item's time line, like AVKit's
    /// `AVPlayerItem.interstitialTimeRanges`, with the seeking policy of each: one that `requiresLinearPlayback`
    /// cannot be skipped. A seek of the current item that would jump over (or into) such an ad that has not been
    /// played lands at the ad's start, and a seek while one plays is refused (see `Player.seek(to:)`). A
    /// `NowPlayingSession` publishes them all as ad time ranges: the desktop sees durations and positions without
    /// them, and cannot seek during one. Set by the app; main actor.
    public var interstitialTimeRanges: [InterstitialTimeRange] = []
    /// Video outputs fed by this item, like `AVPlayerItem.add(_:)` with `AVPlayerItemVideoOutput`.
    public private(set) var outputs: [any VideoOutput] = []
    /// Which of the media's tracks play (sound, picture, subtitles), like a media selection: the media's own
    /// choice by default; `LanguageTrackSelection` picks by language. Applies from the next time the item starts
    /// playing. Main actor.
    public var trackSelection: any TrackSelectionPolicy = AutomaticTrackSelection()
    /// Subtitle outputs fed by this item, like `AVPlayerItem.add(_:)` with `AVPlayerItemLegibleOutput`.
    public internal(set) var legibleOutputs: [any LegibleOutput] = []
    /// The options chosen with `select(_:in:)`, by media type: a track ID, or nil for none.
    var mediaSelectionChoices: [AssetTrack.MediaType: Int?] = [:]
    /// The tracks the engine plays, by media type (from its open); the access log's period names them.
    var playingTracks: [AssetTrack.MediaType: Int] = [:] {
        didSet {
            let (sound, text) = (playingOptionName(.audio), playingOptionName(.subtitle))
            accessLogUpdate {
                $0.audibleOption = sound
                $0.legibleOption = text
            }
        }
    }

    /// When a player last started the item (seconds since process start), for the access log's start-up time.
    var engineStartedAt: Double?

    /// The player playing the item now, for `currentTime()` and the item's video outputs.
    weak var player: Player? {
        didSet { for output in itemVideoOutputs { output.follow(player, item: self) } }
    }
    /// The outputs added with `add(_: PlayerItemVideoOutput)`.
    var itemVideoOutputs: [PlayerItemVideoOutput] = []
    /// Where the item starts when a player starts it (a looper's time range, a seek made before it played, where
    /// it was when a player let it go); nil from 0.
    var startSeconds: Double?
    /// The queue player holding the item, while it is in that queue.
    weak var queueOwner: Player?
    /// The player the item is in now (its current item, or in its queue): an item is in one player at a time, as
    /// in AVFoundation.
    var owner: Player? { player ?? queueOwner }
    /// The interstitials played through (or left behind), which seeks may skip from now on.
    @ObservationIgnored var playedInterstitials: Set<TimeRange> = []
    /// Where the seek in flight goes (its id and target), for the interstitial policy while the clock still reads
    /// the old position.
    @ObservationIgnored var seekInFlight: (id: Int, seconds: Double)?
    /// The completion of a `seek(to:)` made before the item played.
    var pendingStartHandler: (@Sendable (Bool) -> Void)?

    /// An item for `url`.
    public convenience init(url: URL) { self.init(asset: URLAsset(url: url)) }

    /// An item for `asset`.
    public init(asset: URLAsset) { self.asset = asset }

    /// The item's current time, as `AVPlayerItem.currentTime()`: the play head while a player plays it; else
    /// where it will start (a seek made meanwhile, where a player left it), `.zero` for an item never played.
    public func currentTime() -> MediaTime {
        if let player, player.currentItem === self { return player.currentTime() }
        // Not playing: where it will start (a seek made meanwhile, or where a player left it).
        return MediaTime(seconds: startSeconds ?? 0, preferredTimescale: 1_000_000)
    }

    /// Takes what the opened input tells about the item.
    func apply(_ info: MediaInfo) {
        duration = info.duration.isNumeric ? info.duration : .indefinite
        let size = info.presentationSize
        presentationSize = Size(width: Double(size.width), height: Double(size.height))
        tracks = info.streams.filter { $0.mediaType != .other && !$0.isAttachedPicture }.map(AssetTrack.init)
        playingTracks = [:]
        if let a = info.audio { playingTracks[.audio] = a.id }
        if let v = info.video { playingTracks[.video] = v.id }
        if let t = info.text { playingTracks[.subtitle] = t.id }
        metadata = MetadataItem.items(from: info.metadata)
        if info.isSeekable, duration.isNumeric {
            seekableTimeRanges = [TimeRange(start: .zero, duration: duration)]
        }
    }

    /// The media turned out longer than its declared duration (`EngineEvent.durationChanged`): the duration, and
    /// the seekable range that ended there, grow to `seconds`. Main actor.
    func durationGrew(to seconds: Double) {
        let old = duration
        guard old.isNumeric, seconds > old.seconds else { return }
        duration = MediaTime(seconds: seconds, preferredTimescale: 1000)
        if seekableTimeRanges.count == 1, let range = seekableTimeRanges.first, range.start == .zero,
            abs(range.end.seconds - old.seconds) < 0.001
        {
            seekableTimeRanges = [TimeRange(start: .zero, duration: duration)]
        }
    }

    /// Adds a video output that receives the item's pictures. Attached while the item plays or is paused, it
    /// shows the current picture at once and follows the clock, with no seek, reopen or new decoder.
    public func add(_ output: any VideoOutput) {
        guard !outputs.contains(where: { $0 === output }) else { return }
        outputs.append(output)
        (player ?? queueOwner)?.itemOutputsChanged(self, added: output, removed: nil)
    }

    /// Removes a video output; it is sent nothing more, at once.
    public func remove(_ output: any VideoOutput) {
        guard outputs.contains(where: { $0 === output }) else { return }
        outputs.removeAll { $0 === output }
        (player ?? queueOwner)?.itemOutputsChanged(self, added: nil, removed: output)
    }

    /// Posted when the item plays to its end, like `AVPlayerItem.didPlayToEndTimeNotification`; the object is
    /// the item. The item notifications are posted from `PlayerItem.notificationQueue`, not the main actor; their
    /// names can be read anywhere.
    public nonisolated static let didPlayToEndTimeNotification = Notification.Name("PlayheadPlayerItemDidPlayToEndTime")
    /// Posted when the item fails before its end; `userInfo["error"]` holds the `PlaybackError`.
    public nonisolated static let failedToPlayToEndTimeNotification = Notification.Name(
        "PlayheadPlayerItemFailedToPlayToEndTime")
    /// Posted when playback stalls for lack of data.
    public nonisolated static let playbackStalledNotification = Notification.Name("PlayheadPlayerItemPlaybackStalled")
    /// Posted when the item's time jumps (a seek).
    public nonisolated static let timeJumpedNotification = Notification.Name("PlayheadPlayerItemTimeJumped")
    /// Posted when an entry is added to the error log.
    public nonisolated static let newErrorLogEntryNotification = Notification.Name("PlayheadPlayerItemNewErrorLogEntry")
}

/// One entry of an item's error log, like `AVPlayerItemErrorLogEvent`. A value type, safe anywhere.
public struct ErrorLogEntry: Sendable, Hashable {
    /// When it happened.
    public var date: Date
    /// The file or URL concerned.
    public var uri: String
    /// The error's category, as the error domain.
    public var errorDomain: String
    /// The C library or HTTP code, when there is one.
    public var errorStatusCode: Int
    /// What went wrong.
    public var errorComment: String
}
