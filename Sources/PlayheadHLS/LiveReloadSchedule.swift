import Foundation

/// When to reload a live media playlist and where to start playing it, on the rules of RFC 8216 section 6.3.4
/// (reload) and 6.3.3 (start), plus the two failure checks a live client needs: a playlist that stopped changing,
/// and a play head that fell out of the window.
///
/// Reload: after a load that found the playlist new or changed, wait the target duration; after one that found it
/// unchanged, half of it; each measured from when that load *began*. A playlist with `EXT-X-ENDLIST` is not
/// reloaded. After `stalledAfterUnchangedReloads` unchanged reloads in a row the playlist is stalled (an error for
/// the caller to report, not a reason to poll forever).
///
/// A value type with no clock of its own (callers pass times in seconds on any monotonic clock): safe anywhere.
public struct LiveReloadSchedule: Sendable, Hashable {
    /// What identifies a playlist's content for "has it changed": the last media sequence number, the number of
    /// trailing parts, and whether it ended. A value type, safe anywhere.
    public struct Revision: Sendable, Hashable {
        /// The media sequence number of the last listed segment (one below the first when it lists none).
        public var lastMediaSequence: Int
        /// Partial segments listed after the last full segment (low-latency HLS).
        public var trailingParts: Int
        /// Whether `EXT-X-ENDLIST` is present.
        public var ended: Bool

        /// The revision of `playlist`.
        public init(_ playlist: MediaPlaylist) {
            lastMediaSequence = playlist.firstListedMediaSequence &+ playlist.segments.count &- 1
            trailingParts = playlist.trailingParts.count
            ended = playlist.hasEndList
        }
    }

    /// What the schedule says after a load. A value type, safe anywhere.
    public enum Next: Sendable, Hashable {
        /// Reload at this time (same clock as the load times given).
        case reload(at: Double)
        /// The playlist ended (`EXT-X-ENDLIST`): no more reloads.
        case ended
        /// The playlist has not changed for this many reloads in a row: report an error.
        case stalled(unchangedReloads: Int)
    }

    /// Unchanged reloads in a row after which the playlist counts as stalled (6: three target durations at half a
    /// target duration each).
    public var stalledAfterUnchangedReloads: Int
    /// The revision last seen, nil before the first load.
    public private(set) var lastRevision: Revision?
    /// Unchanged reloads in a row so far.
    public private(set) var unchangedReloads = 0

    /// A schedule that has seen no load yet.
    public init(stalledAfterUnchangedReloads: Int = 6) {
        self.stalledAfterUnchangedReloads = max(stalledAfterUnchangedReloads, 1)
    }

    /// Records a load of `playlist` that began at `loadStarted` and says when to load it next.
    public mutating func loaded(_ playlist: MediaPlaylist, startedAt loadStarted: Double) -> Next {
        let revision = Revision(playlist)
        let changed = revision != lastRevision
        lastRevision = revision
        unchangedReloads = changed ? 0 : unchangedReloads + 1
        if playlist.hasEndList { return .ended }
        if unchangedReloads >= stalledAfterUnchangedReloads { return .stalled(unchangedReloads: unchangedReloads) }
        let target = Double(max(playlist.targetDuration ?? 0, 1))
        return .reload(at: loadStarted + (changed ? target : target / 2))
    }

    /// Where live playback starts. A value type, safe anywhere.
    public struct StartPosition: Sendable, Hashable {
        /// Index into `segments` of the segment to fetch first.
        public var segmentIndex: Int
        /// Seconds from the start of the first listed segment to where playback should begin (the chosen segment's
        /// start, or an exact point inside it when the start is precise).
        public var time: Double
    }

    /// Where to start playing `playlist`: at `EXT-X-START` when present (from the multivariant playlist when the
    /// media playlist has none; a negative offset counts from the end), else `PART-HOLD-BACK` (low latency, when
    /// `lowLatency` and the playlist has parts) or `HOLD-BACK` or three target durations from the end. Without
    /// `PRECISE=YES` the start is the beginning of the segment holding that point. Nil when it lists no segment.
    public static func startPosition(
        of playlist: MediaPlaylist, multivariantStart: StartPoint? = nil, lowLatency: Bool = false
    ) -> StartPosition? {
        let segments = playlist.segments
        guard !segments.isEmpty else { return nil }
        var starts: [Double] = []
        var total = 0.0
        for segment in segments {
            starts.append(total)
            total += segment.duration
        }
        let point: Double
        var precise = false
        if let start = playlist.start ?? multivariantStart {
            point = start.timeOffset < 0 ? total + start.timeOffset : start.timeOffset
            precise = start.precise
        } else {
            let target = Double(playlist.targetDuration ?? Int(ceil(segments.map(\.duration).max() ?? 0)))
            let holdBack: Double
            if lowLatency, playlist.partInformation != nil, let part = playlist.serverControl?.partHoldBack {
                holdBack = part
            } else {
                holdBack = playlist.serverControl?.holdBack ?? 3 * target
            }
            point = total - holdBack
        }
        let clamped = min(max(point, 0), total)
        let index = max(starts.lastIndex { $0 <= clamped } ?? 0, 0)
        let lastIndex = segments.count - 1
        let chosen = clamped >= total ? lastIndex : index
        return StartPosition(segmentIndex: chosen, time: precise ? min(clamped, total) : starts[chosen])
    }

    /// Whether the segment the player wants next, `nextMediaSequence`, has already left the sliding window of
    /// `playlist` (the player fell behind and must jump forward to a new start position).
    public static func fellBehind(nextMediaSequence: Int, in playlist: MediaPlaylist) -> Bool {
        nextMediaSequence < playlist.firstListedMediaSequence && !playlist.segments.isEmpty
    }
}
