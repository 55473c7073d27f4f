import PlayheadAudio
import PlayheadCore
import PlayheadFFmpeg
import PlayheadVideo

/// What an engine reports to its player. Delivered on an arbitrary engine thread through the event sink; the
/// player hops to the main actor.
enum EngineEvent: Sendable {
    case opened(MediaInfo)
    /// The sound plays another track from now on (`PlaybackEngine.switchAudio`).
    case audioTrackChanged(Int)
    /// Another text track's cues (nil: none) show from now on (`PlaybackEngine.switchText`).
    case textTrackChanged(Int?)
    case ready
    /// The forward buffer is full: the demux thread sleeps until the decoders take some (the loaded range grew).
    case bufferFilled
    case firstAudio
    case firstVideo
    case seekStarted(id: Int, target: Double)
    case seekDone(id: Int, position: Double, finished: Bool)
    case stalled
    case resumed
    case ended
    case failed(PlaybackError)
    /// A picture of `position` seconds, `late` seconds behind the clock, was not shown.
    case droppedFrame(position: Double, late: Double)
    /// The sound server ran out of sound while the period played (its writer fell behind): silence was heard at
    /// `position` (seconds) until the writer caught up.
    case audioUnderflow(position: Double)
    case variantSwitch(VariantChoice)
    case segmentLoaded(bytes: Int, seconds: Double, estimate: Double)
    /// HLS window, time jump and error-log reports (`Player+HLS.swift`).
    case hls(HLSNotice)
    /// The stream's tags changed at item time `at` (an internet radio's song title); heard when playback gets
    /// there.
    case metadataChanged(MediaMetadata, at: Double?)
    /// The media was read past the duration its container or playlist declared (an estimate from the bit rate, a
    /// playlist whose `EXTINF`s understate): the item is at least this long (seconds), or exactly so once read to
    /// its end (`PlaybackEngine+Duration.swift`).
    case durationChanged(Double)
}

/// What an opened source holds, as the player needs it, and the tracks chosen to play. A value type, safe on any
/// thread.
struct MediaInfo: Sendable {
    var name: String
    var duration: MediaTime
    /// The source's tracks (audio, video, text).
    var tracks: [MediaTrack]
    var metadata: MediaMetadata
    var isSeekable: Bool
    /// The tracks that play: the source's default ones, unless the item does not decode that kind.
    var audio: MediaTrack?
    var video: MediaTrack?
    /// The subtitle track whose cues reach the item's legible outputs: the source's default text track, when it
    /// is text (not bitmaps).
    var text: MediaTrack?
    var formatName: String
    /// Whether the source places every sample on the timeline itself (`MediaSource.placesSamples`).
    var placesSamples: Bool

    init(
        source: any MediaSource, wantAudio: Bool = true, wantVideo: Bool = true,
        selection: any TrackSelectionPolicy = DefaultTrackSelection(), excluding: Set<Int> = []
    ) {
        name = source.name
        duration = source.duration
        tracks = source.tracks
        metadata = source.metadata
        isSeekable = source.isSeekable
        formatName = source.formatName
        placesSamples = source.placesSamples
        audio = wantAudio ? Self.choose(.audio, source, selection, excluding) : nil
        video = wantVideo ? Self.choose(.video, source, selection, excluding) : nil
        text = Self.choose(.text, source, selection, excluding)
        // Closed captions come out of the video decoder: none without pictures.
        if text?.isClosedCaptions == true && video == nil { text = nil }
    }

    /// The tracks chosen to play.
    var chosen: Set<Int> { Set([audio?.id, video?.id, text?.id].compactMap { $0 }) }

    /// The tracks the engine plays from `source`, which loads only those (`MediaSource.select`): chosen by
    /// `selection`; a chosen track the source cannot open (an HLS rendition that fails) is left out and its kind
    /// chosen again among the rest. Demux thread (it may block while a rendition opens).
    static func choosing(
        from source: any MediaSource, wantAudio: Bool, wantVideo: Bool, selection: any TrackSelectionPolicy
    ) -> MediaInfo {
        var excluded = Set<Int>()
        while true {
            var media = MediaInfo(
                source: source, wantAudio: wantAudio, wantVideo: wantVideo, selection: selection, excluding: excluded)
            let failed = media.chosen.subtracting(source.select(media.chosen))
            if failed.isEmpty {
                // The tracks as the source knows them now (a rendition opened has its real codec and time base).
                media.tracks = source.tracks
                media.audio = source.track(media.audio?.id)
                media.video = source.track(media.video?.id)
                media.text = source.track(media.text?.id)
                return media
            }
            excluded.formUnion(failed)
        }
    }

    /// The track of `kind` the policy picks among the playable ones, suggesting the source's default.
    private static func choose(
        _ kind: TrackKind, _ source: any MediaSource, _ selection: any TrackSelectionPolicy, _ excluded: Set<Int>
    ) -> MediaTrack? {
        // Every playable track goes to the policy (subtitles depend on the sound heard); it picks one of `kind`.
        let everything = source.tracks.filter { track in
            guard !excluded.contains(track.id) else { return false }
            switch track.kind {
            case .audio: return track.stream.isDecodable
            case .video: return track.stream.isDecodable && !track.stream.isAttachedPicture
            case .text: return ClosedCaptions.plays(track.stream)
            }
        }
        let playable = everything.filter { $0.kind == kind }
        let fallback = source.track(source.defaultTrack(kind)).flatMap { excluded.contains($0.id) ? nil : $0 }
        // The source's default when it is playable; else, for subtitles (not closed captions, which show only when
        // asked for or marked `DEFAULT` in an HLS playlist) or when a chosen track could not be opened (another
        // rendition of the group plays instead), the first playable track.
        let suggested =
            fallback.flatMap { f in playable.contains { $0.id == f.id } ? f : nil }
            ?? (kind == .text
                ? playable.first(where: { !$0.isClosedCaptions }) : !excluded.isEmpty ? playable.first : fallback)
        let type: AssetTrack.MediaType = kind == .audio ? .audio : kind == .video ? .video : .subtitle
        let chosen = selection.select(
            type, among: everything.map { AssetTrack($0.stream) }, suggested: suggested.map { AssetTrack($0.stream) })
        guard let chosen, let track = playable.first(where: { $0.id == chosen.trackID }) ?? suggested else {
            return nil
        }
        // A sound rendition of another group than the variant's gives way to its equivalent in the variant's.
        guard kind == .audio else { return track }
        return track.equivalent(inGroup: source.currentAudioGroup, among: playable) ?? suggested
    }

    /// The streams of the tracks, in the source's order.
    var streams: [StreamInfo] { tracks.map(\.stream) }
    var audioStream: Int? { audio?.id }
    var videoStream: Int? { video?.id }

    /// Whether the container is MP4/QuickTime (whose last audio packet's duration marks the encoder padding).
    var isMP4Family: Bool { formatName.contains("mp4") || formatName.contains("mov") }

    var presentationSize: (width: Int, height: Int) {
        guard let v = video else { return (0, 0) }
        // As shown: pixels that are not square stretch the width (anamorphic video), and a picture turned a
        // quarter shows its height as its width.
        let width = Int((Double(v.stream.width) * v.stream.sampleAspectRatio).rounded())
        return v.stream.rotation % 180 == 0 ? (width, v.stream.height) : (v.stream.height, width)
    }
}

/// How one engine plays one item.
struct EngineConfiguration: Sendable {
    /// A path or URL to open.
    var location: String
    /// The item played, naming its pictures (`VideoFrame.item`).
    var item: ObjectIdentifier?
    /// The item's asset loader: the engine takes the input it opened, or shares its own open with it.
    var assetLoader: AssetLoader?
    /// The player's sound: its output, and whose turn it is to write to it.
    var audio: AudioRenderer?
    var videoOutputs: [any VideoOutput]
    var textOutputs: [any LegibleOutput] = []
    /// Seconds the subtitles show later than their time stamps say (`PlayerItem.subtitleDelay`).
    var textDelay: Double = 0
    /// The player's own video outputs, which show every item it plays (its `PlayerLayer`s).
    var playerVideo: VideoRenderer?
    /// The player's video thread, which shows its periods' pictures in turn.
    var videoPresenter: PeriodPresenter?
    /// The player's text thread, which shows its periods' subtitles in turn.
    var textPresenter: PeriodPresenter?
    /// The item's track selection.
    var trackSelection: any TrackSelectionPolicy = DefaultTrackSelection()
    /// Seconds of media to read ahead; 0 picks the default.
    var forwardBufferSeconds: Double = 0
    var maxBufferBytes = 48 << 20
    var decodeAudio = true
    var decodeVideo = true
    /// Present video frames as soon as they are decoded (with `--untimed`).
    var untimed = false
    var networkTimeout: Double = 10
    /// HLS caps: bits per second (0 = none) and the largest picture (zero = none).
    var peakBitRate: Double = 0
    var maximumResolution = Size.zero
    var format = AudioFormat()
    /// False for a preloaded engine: it opens and primes but stays silent (shows no picture or subtitle) until
    /// `activate()` or its predecessor's hand-off.
    var startsActive = true
    /// Where the item stops, in seconds of its timeline (`forwardPlaybackEndTime`); nil plays to the end.
    var endSeconds: Double?
    /// The loudness correction the item's sound gets (`Player.replayGain`).
    var replayGain = ReplayGainMode.off

    /// The forward buffer when the item asks for "automatic" (0): 5 s for local files (reading is instant; more
    /// only costs memory), 30 s for network inputs (riding out bandwidth dips).
    var automaticForwardBuffer: Double { location.contains("://") && !location.hasPrefix("file:") ? 30 : 5 }
    /// The player's audio output, when there is one.
    var audioOutput: (any AudioOutput)? { audio?.output }
    /// Seconds of media the demux thread reads ahead.
    var forwardBuffer: Double { forwardBufferSeconds > 0 ? forwardBufferSeconds : automaticForwardBuffer }
    /// Seconds buffered before playback starts or resumes after a stall.
    static let resumeThreshold: Double = 1.0
}

/// The HLS variant playing from the next segment on, as the access log and events name it. A value type, safe
/// anywhere.
struct VariantChoice: Sendable, Equatable {
    /// `BANDWIDTH`, bits per second.
    var bitRate: Int
    var width: Int
    var height: Int
    /// The variant's `PATHWAY-ID` ("." when it has none, RFC 8216bis 4.4.6.6).
    var pathway: String
    /// The host (and port, when the URI names one) its playlist is fetched from; nil for a local or `data:`
    /// playlist.
    var host: String?
}
