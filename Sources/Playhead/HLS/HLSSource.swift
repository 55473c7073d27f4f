import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// Feeds an HLS stream to FFmpeg through a custom byte source: loads the multivariant playlist, chooses one
/// variant, loads only that variant's media playlist, and downloads its segments in order (the `EXT-X-MAP` init
/// section first for fMP4, byte ranges where the playlist gives them, `EXT-X-GAP` segments skipped). Live and event
/// playlists are reloaded as RFC 8216 section 6.3.4 says (`HLSSource+Live.swift`); low-latency playlists are read
/// part by part with blocking reloads, MPEG-TS or fMP4, switching variant at segment boundaries
/// (`HLSSource+LowLatency.swift`).
///
/// The item's timeline is the playlist's: 0 is the start of the first segment of the first playlist loaded, and a
/// live stream starts `HOLD-BACK` (or `EXT-X-START`) from its edge, so its first frame is not at 0.
///
/// Threads: created and read on the engine's demux thread (reads block while a segment downloads or a live
/// playlist is awaited); `interrupt` may come from any thread.
final class HLSSource: ChainedByteSource, @unchecked Sendable {
    let url: URL
    /// The media playlist of the variant playing.
    var playlist: MediaPlaylist
    /// Where `playlist` was loaded from (reloaded there while live).
    var playlistURL: URL
    /// The variant playing, nil for a media playlist URL.
    var variant: Variant?
    let fetch: HTTPFetch
    /// The item's decryption keys, loaded once per key URI and kept in memory only.
    let keyStore: HLSKeyStore
    /// The index in `playlist.segments` of the next segment to load.
    var next = 0
    var buffer = Data()
    var position = 0
    var lastMap: MediaInitializationSection?
    /// The bytes of `lastMap`, put before every segment or part while `repeatsInit` (each is then demuxed as a
    /// part of its own).
    var mapBytes = Data()
    /// Whether the segments under `lastMap` are MPEG-TS, which the init section does not apply to (an ad in TS
    /// spliced after fMP4 without a new `EXT-X-MAP`: the fMP4 one is still in effect): they are read without it.
    var mapSkipped = false
    /// Whether every segment or part handed out starts with its init section (fMP4 demuxed segment by segment).
    var repeatsInit = false
    /// Whether FFmpeg's reads load the next segment when the bytes run out (while the input opens and probes);
    /// afterwards `HLSMediaSource` loads segments itself, outside FFmpeg, and reads end at the bytes loaded.
    var loadsOnRead = true
    /// Adaptive state: the ladder, its loaded media playlists, the estimator and the policy.
    var adaptive: HLSAdaptiveState?
    /// The multivariant playlist's `EXT-X-START`, for live start positions.
    var multivariantStart: StartPoint?
    /// The item time at which the next segment starts.
    var nextStart = 0.0
    /// The item time at which `playlist`'s first listed segment starts.
    var windowStart = 0.0
    /// Reload state while the playlist is live (no `EXT-X-ENDLIST` yet); nil for VOD and once it ends.
    var live: LiveState?
    /// The item time of the first segment fetched: where playback starts.
    var openedAt = 0.0
    /// The item time where reading last began: the first segment fetched, or the one a seek or jump restarted at
    /// (`reposition`). The play head is not behind it, whatever the engine's clock says before it has caught up.
    var readFrom = 0.0
    var fetchedAny = false
    /// A media segment's body was recognised as media (`ContentSniffer`): later ones that are not are refused,
    /// unless `refusesUnknownSegments` is off (subtitle segments: their own parser says what is wrong).
    var mediaSeen = false
    var refusesUnknownSegments = true
    /// The playback position in item time (set by the engine), for the buffer level the policy weighs.
    var playbackPosition: @Sendable () -> Double = { 0 }
    /// The play head in item time: the engine's position, but not behind where reading began (before the first
    /// sample plays the engine's clock still reads 0, which for a live stream joined 8 s into its window counted
    /// 8 s of buffer that was not there). Demux thread.
    func playHead() -> Double { max(playbackPosition(), readFrom) }
    /// The caps to choose variants within now (set by the engine: the item's caps and its window size), read
    /// before each segment; nil keeps those given at `init`.
    var currentCaps: @Sendable () -> AdaptiveBitratePolicy.Caps? = { nil }
    /// Whether the item is playing (set by the engine): only then is a slow download given up.
    var isPlaying: @Sendable () -> Bool = { false }
    /// Whether the engine has a seek waiting (set by the engine, called on the demux thread): a wait for a live
    /// reload or a segment download then ends at once, so the seek is not held up by it.
    var seekPending: @Sendable () -> Bool = { false }
    /// Called on the demux thread when playback fell out of the live window: the engine should restart reading at
    /// this item time (it interrupts the read in progress). Without it, reading simply continues there.
    var onJump: (@Sendable (Double) -> Void)?
    /// Called on the demux thread when a reload found a jump that `onJump` has not been given yet (the engine
    /// keeps what it buffered from being heard until it takes the jump).
    var onJumpWaits: (@Sendable () -> Void)?
    /// A jump found by a reload (from the next segment's item time to the live start point), not yet handed to
    /// `onJump`.
    var jumpPending: (from: Double, to: Double)?
    /// Time stamp offsets per timeline domain (shared with restarted sources).
    var timeline = HLSTimeline()
    /// Loaded segments by where their bytes begin; bytes handed out so far; the mark of the last packet asked about.
    var marks: [SegmentMark] = []
    var produced: Int64 = 0
    var lastMark: SegmentMark?
    /// Live: while set (by the reader, around a load), time passed over at the edge (a low-latency part that gives
    /// no bytes, gap or lost segments before a wait for the next one) ends the load (`loadNext` returns true with
    /// nothing new in the buffer) and is kept in `skippedTime`, the item times from and until which nothing comes;
    /// the reader takes it from there.
    var yieldsSkippedTime = false
    var skippedTime: (from: Double, until: Double)?
    /// Low-latency HLS: parts of the segment `next` already delivered, and their seconds.
    var partCursor = 0
    var partsTime = 0.0
    /// Low-latency HLS: the throughput of the last part downloaded, in bits per second (the policy weighs the lower
    /// of it and the estimate, as a 1.5 s buffer cannot wait for a moving average to notice a drop).
    var lastPartRate: Double?
    /// Low-latency HLS: seconds spent downloading the parts (and init section) not yet reported.
    var partSeconds = 0.0
    /// The bytes handed out so far end a part: the next segment has a new init section, or new codecs.
    var partBreak = false
    /// A variant switch went to other codecs (FFmpeg decoders: an AAC variant to an AC-3 one) in this part: the
    /// next segment begins a new part (`beginsNewPart`), which one demuxer could not follow.
    var codecsChanged = false
    /// The first error that ended reading.
    var failure: PlaybackError?
    /// The lower rung a download was given up for.
    var abandonTarget: Int?
    /// Called on the demux thread when the variant changes.
    var onSwitch: (@Sendable (Variant) -> Void)?
    /// Reports (segments, window changes, time jumps, recovered errors), on the demux thread; those that happen
    /// while the input opens, before anyone listens, are kept and delivered when this is set.
    var onNotice: (@Sendable (HLSNotice) -> Void)? {
        didSet {
            for n in unreported { onNotice?(n) }
            unreported.removeAll()
        }
    }
    var unreported: [HLSNotice] = []
    /// Wakes a live wait for the next reload when the source is interrupted or the engine seeks (any thread).
    let wakeup = DispatchSemaphore(value: 0)
    let cancelled = Locked(false)
    /// The live reload chain running (`reloadChain`), held weakly (the source's `live` state owns it), for
    /// `interrupt()` to stop from any thread: the chain's thread sleeps between reloads and would otherwise wake only
    /// when the source lets it go.
    let runningReload = Locked(WeakReload())
    /// How failed downloads are tried again (`HLSSource+Retry.swift`).
    let retryPolicy: RetryPolicy
    /// The segments skipped in a row since the last one loaded (`skipSegment`).
    var skipped: [PlaybackError] = []
    /// The media sequence number of the last segment skipped because no variant could give it: a gap now in its
    /// playlist, but not one another variant's copy is asked for again (`takeGapFromAnotherVariant`).
    var lostSequence: Int?
    /// Every request that failed for good (after its retries) since the last segment loaded, on any variant: what
    /// the item's error lists when the stream is given up (`givingUp`).
    var failedForGood: [PlaybackError] = []
    /// Content steering, when the multivariant playlist names a steering server (`HLSSource+Steering.swift`).
    var steering: SteeringState?
    /// The audio renditions of the variant's `AUDIO` group, in playlist order (`HLSSource+Renditions.swift`).
    var audioRenditions: [Rendition] = []
    /// The one of them to play unless the item chooses: the user's language, else the group's `DEFAULT`.
    var preferredAudioRendition: Rendition?
    /// The key the demuxer decrypts the current part's samples with (SAMPLE-AES-CTR: MP4 Common Encryption), set
    /// as each segment is loaded; nil for clear segments and whole-segment AES-128.
    var sampleKey: [UInt8]?
    var sampleDecryptionKey: [UInt8]? { sampleKey }
    /// The method and key URI of the sample encryption last used, for messages (any thread).
    let sampleEncryptionUsed = Locked<String?>(nil)
    /// The subtitle renditions of the variant's `SUBTITLES` group.
    var subtitleRenditions: [Rendition] = []
    /// The audio renditions of the groups other variants name (another codec or channel layout): an ABR switch to
    /// such a variant moves the sound to the equivalent rendition there.
    var otherAudioRenditions: [Rendition] = []
    /// FFmpeg's decoder name of each audio group's sound, from the `CODECS` of the first variant naming it.
    var audioGroupCodecs: [String: String] = [:]
    /// The closed caption renditions of the variant's `CLOSED-CAPTIONS` group (none for `CLOSED-CAPTIONS=NONE`);
    /// nil when the playlist does not say (a media playlist, a variant without the attribute).
    var closedCaptionRenditions: [Rendition]?

    /// Opens `url` (a multivariant or a media playlist); from a multivariant playlist the adaptive policy picks the
    /// first variant within `caps` whose codecs FFmpeg can decode, and only that variant's playlist is loaded.
    /// `stopping` (polled on the calling thread) gives up a request in flight when it turns true.
    init(
        url: URL, timeout: Double, caps: AdaptiveBitratePolicy.Caps = .init(), startEstimate: Double? = nil,
        options: HLSClientOptions = .init(), stopping: (@Sendable () -> Bool)? = nil
    ) throws(PlaybackError) {
        self.url = url
        fetch = HTTPFetch(timeout: timeout, localFiles: options.localFilesAllowed ?? url.isFileURL, stopping: stopping)
        keyStore = HLSKeyStore(fetch: fetch, resourceLoader: options.resourceLoader)
        retryPolicy = options.retry
        let loadStarted = MonotonicClock.now()
        switch try Self.loadFirst(url, fetch, retry: options.retry) {
        case .media(let media):
            playlist = media
            playlistURL = url
            variant = nil
        case .multivariant(let master):
            let opened = try Self.openVariant(
                of: master, url: url, fetch, caps: caps, startEstimate: startEstimate,
                penaltySeconds: options.penaltySeconds)
            // The variant that failed last gave way to the one opened: a failover, said as one mid-stream is.
            unreported += opened.failures.dropLast().map { .recovered($0) }
            if let last = opened.failures.last {
                let reason = last.reason + HLSFailover.marker + opened.url.absoluteString
                unreported.append(
                    .recovered(PlaybackError(last.category, source: last.source, reason: reason, code: last.code)))
            }
            playlist = opened.playlist
            playlistURL = opened.url
            variant = master.variants[opened.state.current!]
            multivariantStart = master.start
            adaptive = opened.state
            steering = Self.steering(for: master)
            for v in master.variants {
                if let group = v.stream.audio, audioGroupCodecs[group] == nil {
                    audioGroupCodecs[group] = CodecSupport.audioDecoderName(inCodecs: v.stream.codecs)
                }
            }
            let current = master.variants[opened.state.current!].stream.audio
            otherAudioRenditions = master.renditions.filter {
                $0.type == .audio && $0.groupID != current && audioGroupCodecs.keys.contains($0.groupID)
            }
            if let group = current {
                audioRenditions = master.renditions.filter { $0.type == .audio && $0.groupID == group }
                preferredAudioRendition = Self.preferredRendition(
                    among: audioRenditions, languages: options.audioLanguages)
            }
            if let group = master.variants[opened.state.current!].stream.subtitles {
                subtitleRenditions = master.renditions.filter { $0.type == .subtitles && $0.groupID == group }
            }
            unreported += Self.missingGroups(of: master.variants[opened.state.current!], in: master, url: url)
            let stream = master.variants[opened.state.current!].stream
            if stream.closedCaptionsNone {
                closedCaptionRenditions = []
            } else if let group = stream.closedCaptions {
                closedCaptionRenditions = master.renditions.filter { $0.type == .closedCaptions && $0.groupID == group }
            }
        }
        if !playlist.hasEndList && playlist.playlistType != .vod {
            try startLive(loadStarted: loadStarted)
        } else {
            guard playlist.segments.contains(where: { !$0.gap }) else {
                throw PlaybackError(
                    .parsing, source: playlistURL.absoluteString, reason: "the media playlist has no segments")
            }
            reportWindow()
        }
        keyStore.retrying = { [unowned self] error, retries in
            guard shouldRetry(after: retries) else { return false }
            report(.recovered(error))
            waitBeforeRetry(retryDelay(retries + 1))
            return true
        }
        try primeSampleKey()
    }

    /// The total duration of a VOD playlist; nil while it is live or an event (no `EXT-X-ENDLIST`).
    var duration: Double? {
        playlist.hasEndList && live == nil ? playlist.segments.reduce(0) { $0 + $1.duration } : nil
    }

    func report(_ notice: HLSNotice) {
        if let onNotice { onNotice(notice) } else { unreported.append(notice) }
    }

    deinit {
        if let estimator = adaptive?.estimator, estimator.hasMeasurement {
            BandwidthMemory.remember(estimator.estimate, force: true)
        }
    }
}

/// A weak reference to a live reload chain. A value type; kept in a `Locked`.
struct WeakReload {
    weak var chain: LiveReload?
}
