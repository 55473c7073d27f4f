import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// The adaptive side of an HLS stream: the ladder, the media playlists loaded so far, the throughput estimate and
/// the policy. Owned by the demux thread through its `HLSSource` (shared by a source restarted for a seek).
final class HLSAdaptiveState: @unchecked Sendable {
    var variants: [Variant]
    var policy: AdaptiveBitratePolicy
    var estimator: BandwidthEstimator
    var playlists: [Int: MediaPlaylist] = [:]
    var current: Int?
    /// Whether each rung can be decoded here (the policy's `isSupported` before any penalty).
    var supported: [Bool]
    /// Variants in the penalty box, until when (`MonotonicClock`), and how long a penalty lasts.
    var penalties: [Int: Double] = [:]
    var penaltySeconds = 60.0
    /// Each variant's redundancy group (`redundancyKey`: copies of one variant share it) and pathway (`PATHWAY-ID`,
    /// "." when none); the pathways in the order they are tried, the one to start with first.
    var groups: [String]
    var pathways: [String]
    var pathwayOrder: [String]
    /// Throughput samples of the download in flight (one per network chunk), filled on the loader's queue and
    /// drained into `estimator` on the demux thread.
    let samples = Locked([(bytes: Int, duration: Double, arrival: Double)]())
    /// Init sections fetched so far, by URL and byte range (`keepInitSection`). Demux thread.
    var initSections: [String: Data] = [:]
    /// The rungs an init section was fetched on: a switch back to one waits for none. Demux thread.
    var rungsWithInitSection: Set<Int> = []

    /// The ladder of `variants`; `firstPathway` (content steering's `PATHWAY-ID`) is tried first when it exists,
    /// the others in the order they are listed.
    init(
        variants: [Variant], caps: AdaptiveBitratePolicy.Caps, startEstimate: Double? = nil,
        firstPathway: String? = nil
    ) {
        self.variants = variants
        let rungs = variants.map { v in
            AdaptiveBitratePolicy.Rung(v, isSupported: v.codecList.allSatisfy(CodecSupport.isDecodable))
        }
        policy = AdaptiveBitratePolicy(rungs: rungs, caps: caps)
        supported = rungs.map(\.isSupported)
        estimator = BandwidthEstimator(persistedEstimate: startEstimate)
        groups = variants.map(Self.redundancyKey)
        pathways = variants.map { $0.stream.pathwayID ?? "." }
        var order: [String] = []
        for p in pathways where !order.contains(p) { order.append(p) }
        if let first = firstPathway, let i = order.firstIndex(of: first) { order.insert(order.remove(at: i), at: 0) }
        pathwayOrder = order
        refreshRungs()
    }

    /// The variant to start with: the policy's choice for the starting estimate (the lowest allowed one when
    /// nothing is measured or remembered).
    func startRung() -> Int? {
        policy.nextRung(current: nil, estimate: estimator.estimate, buffer: 0, segmentDuration: 6)
    }

    /// Moves the samples of the download in flight into the estimator; `finished` when the download has ended with
    /// its last byte, which counts what the estimator pooled however short it took, and `latency` its wait for the
    /// response when the server answered at once (a segment, not a low-latency part made while it waited). Demux
    /// thread.
    func drainSamples(finished: Bool = false, latency: Double? = nil) {
        let taken = samples.withLock { s -> [(bytes: Int, duration: Double, arrival: Double)] in
            defer { s.removeAll() }
            return s
        }
        for s in taken { estimator.addSample(bytes: s.bytes, duration: s.duration, at: s.arrival) }
        if finished { estimator.finishTransfer() }
        if let latency { estimator.addLatency(latency) }
    }
}

extension HLSSource {
    /// Whether the stream may change variant: always (MPEG-TS and packed audio continue in one demuxer; an fMP4
    /// variant's new init section starts a new part, `beginNextPart`).
    var canSwitch: Bool { true }

    /// Switches variant when the policy says so, at a segment boundary; true when it switched. With low-latency
    /// HLS the next fetch is one part (the part target is the duration weighed) and the estimate is the lower of
    /// the moving average and the last part's throughput (that throughput alone until the average has measured
    /// enough). Demux thread.
    @discardableResult
    func adapt() -> Bool {
        guard let state = adaptive, let current = state.current, canSwitch else { return false }
        steerIfDue()
        releasePenalties()
        // Back to the variant a penalty had left once it is over, or on to a copy of one that lost its place.
        if let standIn = state.standIn(for: current), standIn != current, switchVariant(to: standIn) { return true }
        if let caps = currentCaps() { state.policy.caps = caps }
        let buffered = nextStart - playHead()
        var duration = Double(playlist.targetDuration ?? 6)
        var estimate = state.estimator.estimate
        var upcoming: AdaptiveBitratePolicy.UpcomingSegments?
        if live?.lowLatency == true, let partTarget = playlist.partInformation?.partTarget {
            duration = partTarget
            // Until the average has measured enough, a part measured beats the default.
            if let rate = lastPartRate { estimate = state.estimator.hasMeasurement ? min(estimate, rate) : rate }
        } else if fetchedAny {
            // Not before the first segment: that one is fetched on the rung the start-up rule chose for it (an
            // empty buffer leaves a plan nothing to weigh but the wait), as in the simulator.
            let ahead = upcomingSegments(fallback: duration)
            upcoming = .init(
                estimatedFrom: state.policy.rungs, durations: ahead.durations, reachesEnd: ahead.reachesEnd)
        }
        let measured = state.estimator.hasMeasurement
        guard
            let target = state.policy.nextRung(
                current: current, estimate: estimate, buffer: buffered, segmentDuration: duration, upcoming: upcoming,
                recentEstimate: measured ? state.estimator.recentEstimate : nil,
                availability: state.estimator.availability, history: state.estimator.history,
                latency: state.estimator.latency,
                requestsBeforeFirstSegment: state.requestsBeforeFirstSegment(
                    isLive: live != nil, usesInitSections: playlist.segments.dropFirst(next).first?.map != nil)),
            target != current
        else { return false }
        return switchVariant(to: target)
    }

    /// The `EXTINF` durations of the segments the plan looks at, from the next one on (gaps left out), as many as
    /// it looks ahead; a live playlist that lists fewer is filled with `fallback` (the target duration): the
    /// segments to come will be about that long. `reachesEnd` when the playlist has ended (VOD, or
    /// `EXT-X-ENDLIST`) and the last of them is its last segment. Demux thread.
    func upcomingSegments(fallback: Double) -> (durations: [Double], reachesEnd: Bool) {
        guard let state = adaptive else { return ([], false) }
        let count = state.policy.configuration.lookaheadSegments
        let rest = playlist.segments.dropFirst(next).lazy.filter { !$0.gap }
        var durations = Array(rest.prefix(count + 1).map(\.duration))
        let reachesEnd = live == nil && !playlist.isLive && durations.count <= count
        durations = Array(durations.prefix(count))
        if live != nil, durations.count < count {
            durations += Array(repeating: fallback, count: count - durations.count)
        }
        return (durations, reachesEnd)
    }

    /// Scales the policy's buffer thresholds down to `reach`, the most this stream can buffer (a live stream's
    /// distance from the edge, a short forward buffer): up-switches need half of it, the budget shrinks below 40 %
    /// of it, and a drop is ridden out only with all of it (or `rideOut` seconds when given). Thresholds already
    /// lower stay. Demux thread.
    func fitPolicy(toBuffer reach: Double, rideOut: Double? = nil) {
        guard let state = adaptive, reach > 0 else { return }
        var c = state.policy.configuration
        c.minimumBufferForUpSwitch = min(c.minimumBufferForUpSwitch, reach * 0.5)
        c.lowBuffer = min(c.lowBuffer, reach * 0.4)
        c.bufferToRideOutDrop = min(c.bufferToRideOutDrop, rideOut ?? reach)
        state.policy.configuration = c
    }

    /// Continues with the segment of variant `target` that starts where the next one of the current variant would
    /// have (by time for VOD, by media sequence number while live); false when that variant cannot be used. With
    /// low-latency HLS the new variant's playlist is asked for with a blocking request for the same segment and
    /// part, and the segment may be the one still being made (its parts are then fetched as they come).
    /// Demux thread.
    @discardableResult
    func switchVariant(to target: Int) -> Bool {
        guard let media = variantPlaylist(target) else { return false }
        return switchVariant(to: target, playlist: media)
    }

    /// Variant `target`'s media playlist, for a switch at segment `next`: the one kept for it (VOD), else loaded
    /// (with low-latency HLS, a blocking request for the same segment and part) and kept; nil, and the variant in
    /// the penalty box, when it cannot be had. Demux thread.
    func variantPlaylist(_ target: Int) -> MediaPlaylist? {
        guard let state = adaptive, let url = state.variants[target].url else { return nil }
        let sequence = playlist.firstListedMediaSequence + next
        // A playlist kept from while the stream was live is an old window: loaded again once it has ended.
        let cached = live == nil ? state.playlists[target].flatMap { $0.isLive ? nil : $0 } : nil
        let request = live?.lowLatency == true ? Self.blockingURL(url, sequence: sequence, part: partCursor) : url
        guard var media = cached ?? (try? Self.mediaPlaylist(request, fetch)) else {
            // Its playlist cannot be had: the policy chooses among the others for a while.
            penalize(target)
            return nil
        }
        media.url = url
        state.playlists[target] = media
        return media
    }

    /// The index in `media` (another variant's playlist) of the segment that plays where segment `next` of this
    /// one does: by media sequence number while live (with low-latency HLS also the segment still being made,
    /// one past the last listed), by time for VOD; nil when `media` does not list it.
    func segmentIndex(matchingNextIn media: MediaPlaylist) -> Int? {
        if live != nil {
            let i = playlist.firstListedMediaSequence + next - media.firstListedMediaSequence
            let beingMade = live?.lowLatency == true && Self.isLowLatency(media) && i == media.segments.count
            return media.segments.indices.contains(i) || beingMade ? i : nil
        }
        var t = windowStart
        for (i, s) in media.segments.enumerated() {
            if abs(t - nextStart) < 0.05 { return i }
            t += s.duration
        }
        return nil
    }

    /// Switches to variant `target`, whose playlist `media` is (`variantPlaylist`), at segment `next`.
    func switchVariant(to target: Int, playlist media: MediaPlaylist) -> Bool {
        guard let state = adaptive, let url = state.variants[target].url else { return false }
        let lowLatency = live?.lowLatency == true
        guard let index = segmentIndex(matchingNextIn: media) else { return false }
        let start = live != nil ? itemTime(ofFirstSegmentOf: media) : windowStart
        if lowLatency { live?.lowLatency = Self.isLowLatency(media) }
        windowStart = start
        switchTo(media, url: url, variant: state.variants[target], next: index)
        state.current = target
        if live != nil, media.hasEndList {
            // The stream ended since the last reload: taken now, as a reload that found the end would take it.
            live = nil
            reportWindow()
        }
        onSwitch?(state.variants[target])
        return true
    }

    /// A watcher for a media segment download that gives it up when it will not arrive before the buffer runs out
    /// (`AdaptiveBitratePolicy.shouldAbandon`, told the rate of the download's last second and last five seconds and
    /// the link's history), recording the rung to fetch instead in `abandonTarget`; nil when there is nothing to
    /// switch to or nothing playing yet.
    func abandonWatch(segmentStart: Double, duration: Double, expectedBytes: Int?) -> ((HTTPFetch.Progress) -> Bool)? {
        guard let state = adaptive, let rung = state.current, canSwitch, fetchedAny else { return nil }
        var recent = AdaptiveBitratePolicy.RecentRate()
        var steady = AdaptiveBitratePolicy.RecentRate(window: 5)
        return { [self] progress in
            state.drainSamples()
            recent.add(bytes: progress.bytes, elapsed: progress.elapsed, respondedAfter: progress.timeToFirstByte)
            steady.add(bytes: progress.bytes, elapsed: progress.elapsed, respondedAfter: progress.timeToFirstByte)
            guard isPlaying() else { return true }
            let buffer = segmentStart - playHead()
            let decision = state.policy.shouldAbandon(
                .init(
                    loadedBytes: progress.bytes, expectedBytes: expectedBytes, elapsed: progress.elapsed,
                    recentRate: recent.bitsPerSecond, steadyRate: steady.bitsPerSecond,
                    timeToFirstByte: progress.timeToFirstByte),
                rung: rung, segmentDuration: duration, buffer: buffer, estimate: state.estimator.estimate,
                history: state.estimator.history, latency: state.estimator.latency)
            guard case .abandon(let lower) = decision else { return true }
            abandonTarget = lower
            return false
        }
    }

    /// Records a chunk's throughput sample (on the loader's queue).
    func chunkSink() -> (@Sendable (SegmentChunk) -> Void)? {
        guard let state = adaptive else { return nil }
        return { chunk in
            state.samples.withLock { $0.append((chunk.data.count, chunk.duration, chunk.arrival)) }
        }
    }
}
