import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// What an item's HLS client is told besides its URL: the app's resource loader (keys) and how failed requests
/// are tried again. A value type, safe anywhere.
struct HLSClientOptions: Sendable {
    /// Asked for keys the client cannot load itself.
    var resourceLoader: AssetResourceLoader?
    /// Retries of segments, init sections and keys.
    var retry = RetryPolicy()
    /// Seconds a failing variant, host or pathway stays in the penalty box.
    var penaltySeconds = HLSSource.penaltySeconds
    /// The languages wanted for the sound, most wanted first: they choose among audio renditions.
    var audioLanguages = HLSSource.environmentLanguages()
    /// Whether playlists may name local files: set from the item's own URL (a local playlist's segments are
    /// files), and kept for its renditions; nil until the item's client opens.
    var localFilesAllowed: Bool?
}

/// Failed downloads: retries with backoff, failing variants in a penalty box, and segments that cannot be had
/// skipped as gaps (demux thread).
extension HLSSource {
    /// Seconds a variant whose playlist or segments failed stays out of the adaptive policy's choice.
    static let penaltySeconds = 60.0
    /// Segments in a row that may be skipped before the stream is given up.
    static let skippableInARow = 3

    /// Waits `seconds` before a retry; ends early for a seek, a stop or an interrupt (the next request sees them).
    func waitBeforeRetry(_ seconds: Double) {
        let end = MonotonicClock.now() + seconds
        while !isCancelled && !seekPending() && fetch.stopping?() != true {
            let left = end - MonotonicClock.now()
            if left <= 0 { return }
            _ = wakeup.wait(timeout: .now() + min(left, 0.1))
        }
    }

    /// Whether a failed request is worth another try under the item's policy after `retries` retries.
    func shouldRetry(after retries: Int) -> Bool {
        fetch.lastErrorWasTransient && !isCancelled && retries < retryPolicy.maximumRetries
    }

    /// The wait before retry number `retry` (1 for the first), with the server's `Retry-After` when it sent one.
    func retryDelay(_ retry: Int) -> Double {
        retryPolicy.delay(beforeRetry: retry, retryAfter: fetch.lastRetryAfter, random: .random(in: 0...1))
    }

    /// Puts variant `rung` in the penalty box: the policy does not choose it for the item's penalty time.
    func penalize(_ rung: Int) { adaptive?.penalize(rung) }

    /// Lets variants whose penalty is over be chosen again.
    func releasePenalties() { adaptive?.releasePenalties() }

    /// After the current variant's copy of segment `next` could not be had (`error`): the current variant (its
    /// host too, for a host's error, when variants elsewhere are left) goes in the penalty box, and a copy of it
    /// (a redundant variant, or the same variant in the next pathway), else the nearest other variant by bit
    /// rate, takes over from the same time. The variant that took over; nil when none could.
    func failOver(after error: PlaybackError) -> Int? {
        guard let state = adaptive, let current = state.current else { return nil }
        state.penalizeAfterFailure(of: current, error: error)
        let bandwidth = state.policy.rungs[current].peakBitRate
        let copy = state.standIn(for: current)
        let others = state.policy.rungs.indices.filter { state.policy.rungs[$0].isSupported && $0 != copy }
            .sorted {
                abs(state.policy.rungs[$0].peakBitRate - bandwidth)
                    < abs(state.policy.rungs[$1].peakBitRate - bandwidth)
            }
        for rung in (copy.map { [$0] } ?? []) + others {
            if switchVariant(to: rung) { return rung }
            // Its playlist failed too.
            penalize(rung)
        }
        return nil
    }

    /// Logs a failover: `error`, then where playback went (variant `rung`'s URL), for the error log and
    /// `ErrorLogEntry.failoverTarget`.
    func reportFailover(_ error: PlaybackError, to rung: Int) {
        let to = adaptive?.variants[rung].url?.absoluteString ?? ""
        let reason = error.reason + HLSFailover.marker + to
        report(.recovered(PlaybackError(error.category, source: error.source, reason: reason, code: error.code)))
    }

    /// Segment `next` is an `EXT-X-GAP` in the variant playing: the nearest variant by bit rate that has it takes
    /// over from there, as RFC 8216bis asks (a client should play the segment from another variant; the policy
    /// chooses again at the next one). Each other variant the policy may choose (not in the penalty box: one whose
    /// copy just failed would be asked again and again) has its playlist looked at, loaded when none is kept. Not
    /// for a segment skipped because no variant could give it (`lostSequence`). False when none has it: the gap is
    /// played through. Demux thread.
    @discardableResult
    func takeGapFromAnotherVariant() -> Bool {
        guard let state = adaptive, let current = state.current, live?.lowLatency != true,
            playlist.segments.indices.contains(next), playlist.segments[next].gap,
            lostSequence != playlist.firstListedMediaSequence + next
        else { return false }
        let bandwidth = state.policy.rungs[current].peakBitRate
        let others = state.variants.indices.filter { $0 != current && state.policy.rungs[$0].isSupported }.sorted {
            abs(state.policy.rungs[$0].peakBitRate - bandwidth) < abs(state.policy.rungs[$1].peakBitRate - bandwidth)
        }
        for rung in others {
            guard let media = variantPlaylist(rung), let index = segmentIndex(matchingNextIn: media),
                media.segments.indices.contains(index), !media.segments[index].gap
            else { continue }
            if switchVariant(to: rung, playlist: media) { return true }
        }
        return false
    }

    /// Segment `next` could not be had from any variant after its retries: it is skipped as an `EXT-X-GAP` is
    /// (its time passes in silence over the last picture). Throws once `skippableInARow` segments in a row were
    /// skipped, with one error listing what was tried (`givingUp`). The skip is logged once a later segment loads
    /// (`survivedSkips`); a stream that ends after skipped segments fails with them (`failIfSkippedAtEnd`): it did
    /// not play whole.
    func skipSegment(after error: PlaybackError) throws(PlaybackError) {
        skipped.append(error)
        if skipped.count >= Self.skippableInARow { throw givingUp() }
        playlist.segments[next].gap = true
        lostSequence = playlist.firstListedMediaSequence + next
        if let state = adaptive, let current = state.current { state.playlists[current] = playlist }
    }

    /// A part of a low-latency stream could not be had after its retries: it is skipped (its time passes in
    /// silence), as a lost segment is; throws once a segment's worth of parts `skippableInARow` times over was
    /// skipped in a row. Demux thread.
    func skipPart(after error: PlaybackError) throws(PlaybackError) {
        skipped.append(error)
        failedForGood.append(error)
        let partTarget = playlist.partInformation?.partTarget ?? 0
        let segment = Double(playlist.targetDuration ?? 0)
        let perSegment = partTarget > 0 ? max(1, Int((segment / partTarget).rounded())) : 1
        if skipped.count >= Self.skippableInARow * perSegment { throw givingUp() }
    }

    /// A segment loaded after skipped ones: each skip goes to the error log.
    func survivedSkips() {
        for e in skipped {
            report(
                .recovered(PlaybackError(e.category, source: e.source, reason: e.reason + "; skipped", code: e.code)))
        }
        skipped.removeAll()
        failedForGood.removeAll()
    }

    /// The end of the stream: an error when the segments before it were skipped.
    func failIfSkippedAtEnd() throws(PlaybackError) {
        guard !skipped.isEmpty else { return }
        throw givingUp()
    }

    /// The item's error when skipped segments cannot be ridden out: every request that failed for good since the
    /// last segment loaded, on every variant tried, listed (a single one as it was). The skips not yet in the error
    /// log go there (the variants left were logged as they were left; the item's error is logged when it fails).
    func givingUp() -> PlaybackError {
        let tried = failedForGood.isEmpty ? skipped : failedForGood
        if tried.count > 1 { for e in skipped { report(.recovered(e)) } }
        return Self.skippedError(tried, segments: skipped.count)
    }

    /// One error for `segments` skipped segments and the requests that failed for them: the only one as it was,
    /// several listed by the end of their path and their reason.
    static func skippedError(_ tried: [PlaybackError], segments: Int) -> PlaybackError {
        guard let last = tried.last, tried.count > 1 else { return tried[0] }
        let list = tried.map { e in
            let path = URL(string: e.source).map { $0.pathComponents.suffix(2).joined(separator: "/") } ?? e.source
            return "\(path) (\(e.reason))"
        }
        let what = segments == 1 ? "1 segment" : "\(segments) segments in a row"
        return PlaybackError(
            last.category, source: last.source,
            reason: "\(what) could not be loaded; tried " + list.joined(separator: ", "), code: last.code)
    }
}

extension HLSSource {
    /// A live playlist reload failed (`error`, logged): the next one is scheduled after the policy's backoff, capped
    /// at half a target duration (as a reload that finds no change), so the origin's return is noticed soon. A live
    /// stream rides out an outage its buffer covers, and one shorter than the network time-out or than a target
    /// duration per retry allowed: reloads are tried again while a second or more is buffered ahead of the play
    /// head or the reloads have failed for less than that, and at least `maximumRetries` times (none with retries
    /// off); then the stream is given up with
    /// one error that counts the tries (the buffer has played out by then). A variant with a copy elsewhere fails over to it at
    /// once instead. Demux thread; `state` is `live` as it was; `retryAfter` the failed response's `Retry-After`.
    func reloadFailed(
        _ error: PlaybackError, _ state: LiveState, retryAfter: Double?
    ) throws(PlaybackError) -> LiveState {
        if error.reason.hasSuffix("cancelled") || isCancelled { throw error }
        let now = MonotonicClock.now()
        if let adaptive, let current = adaptive.current, adaptive.hasBackup(for: current),
            let rung = failOver(after: error)
        {
            // A copy elsewhere (a redundant variant, another pathway) has taken over, its playlist just loaded.
            reportFailover(error, to: rung)
            var moved = live ?? state
            (moved.failedReloads, moved.failingSince) = (0, nil)
            moved.reloadAt = now + Double(max(playlist.targetDuration ?? 6, 1))
            return moved
        }
        var state = state
        state.failedReloads += 1
        let since = state.failingSince ?? now
        state.failingSince = since
        let buffered = nextStart - playHead()
        // An origin down for less than the network time-out is a blip (a restart, a failover behind it): it is
        // waited out, stalled, as a request is waited for that long (the stream ended 2.5 s after its buffer). So is
        // one down for less than a target duration per retry allowed: a reload is a try per target duration (RFC
        // 8216's schedule), whatever the quicker tries in between (more retries rode out no longer outage).
        let target = Double(max(playlist.targetDuration ?? 6, 1))
        let patience = max(fetch.timeout, Double(retryPolicy.maximumRetries) * target)
        let blip = retryPolicy.maximumRetries > 0 && now - since < patience
        guard state.failedReloads <= retryPolicy.maximumRetries || buffered >= 1 || blip else {
            let seconds = String(format: "%.1f", now - since)
            throw PlaybackError(
                error.category, source: error.source,
                reason: "the live playlist could not be reloaded (\(state.failedReloads) tries in \(seconds) s, "
                    + "the buffer ran out): \(error.reason)", code: error.code)
        }
        report(.recovered(error))
        // No longer than half a segment between tries; a low-latency stream, whose buffer is a few parts, is
        // asked again at least once a part.
        let halfTarget = Double(max(playlist.targetDuration ?? 6, 1)) / 2
        let cap = state.lowLatency ? min(halfTarget, playlist.partInformation?.partTarget ?? halfTarget) : halfTarget
        let delay = retryPolicy.delay(
            beforeRetry: state.failedReloads, retryAfter: retryAfter, random: .random(in: 0...1))
        state.reloadAt = now + min(delay, cap)
        return state
    }

    /// One error for several failed variants of the multivariant playlist at `url`: it is the source (no one
    /// variant is at fault), every failure listed; the first one's category and code.
    static func allFailed(_ failures: [PlaybackError], of url: URL) -> PlaybackError {
        let tried = failures.map { "\($0.source): \($0.reason)" }.joined(separator: "; ")
        return PlaybackError(
            failures[0].category, source: url.absoluteString,
            reason: "no variant could be loaded (\(failures.count) tried: \(tried))", code: failures[0].code)
    }
}
