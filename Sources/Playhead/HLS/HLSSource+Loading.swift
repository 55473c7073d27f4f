import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

extension HLSSource {
    /// Downloads the next segment (and its init section when it changes); false after the last. Errors are
    /// reported through `onNotice` before they are thrown, as FFmpeg only sees an I/O error.
    func loadNext() throws -> Bool {
        do {
            return try loadNextSegment()
        } catch let error as PlaybackError {
            failure = failure ?? error
            report(.failed(error))
            throw error
        }
    }

    func loadNextSegment() throws -> Bool {
        // A jump an idle reload found (`reloadWhileIdle`) goes to the engine before anything more is read.
        try handOverJump()
        let enteredAt = nextStart
        while true {
            while true {
                if partCursor > 0 || live?.lowLatency == true {
                    switch try loadPart() {
                    case .delivered, .skipped: return true
                    case .partBreak: return false
                    case .wholeSegment: break
                    }
                } else if live != nil {
                    // Time passed over (gap or lost segments) up to the edge: the reader hears of it before the
                    // wait for the next segment, or its buffer would run dry in the wait.
                    if next >= playlist.segments.count, yieldsSkippedTime, nextStart > enteredAt {
                        skippedTime = (skippedTime?.from ?? enteredAt, nextStart)
                        return true
                    }
                    try refreshLive(waiting: next >= playlist.segments.count)
                }
                // After an abandoned download the same segment comes from the lower variant chosen for it.
                if next < playlist.segments.count && abandonTarget == nil { adapt() }
                // A gap is taken from another variant that has it; else it is not fetched and its time passes (the
                // next segment's time stamps begin after it).
                takeGapFromAnotherVariant()
                while next < playlist.segments.count && playlist.segments[next].gap {
                    nextStart += playlist.segments[next].duration
                    next += 1
                }
                if next < playlist.segments.count { break }
                if live == nil {
                    try failIfSkippedAtEnd()
                    return false
                }
            }
            let segment = playlist.segments[next]
            let segmentStart = nextStart
            if !fetchedAny { (openedAt, readFrom) = (nextStart, nextStart) }
            if beginsNewPart(segment) {
                // End this part; FFmpeg opens the next one.
                partBreak = true
                return false
            }
            var data = Data()
            if let map = segment.map, !Self.isSame(map, lastMap), let mapURL = map.url {
                // Kept from an earlier visit to this variant: a switch back does not wait for it again.
                var body = adaptive?.keptInitSection(map)
                if body == nil {
                    let decryption = try keyStore.decryption(for: map.keys, mediaSequence: nil, resource: mapURL)
                    // Under Common Encryption the init section is clear (only the samples are encrypted).
                    let response = try download(
                        mapURL, range: map.byteRange.map(Self.closed), duration: 0, watch: nil,
                        decryption: decryption?.bySamples == true ? nil : decryption)
                    body = response?.body
                    if let fetched = body { adaptive?.keepInitSection(fetched, of: map, rung: adaptive?.current) }
                }
                data.append(body ?? Data())
                mapBytes = body ?? Data()
                lastMap = map
            }
            let fetchedInit = !data.isEmpty
            guard let segmentURL = segment.url else {
                next += 1
                nextStart += segment.duration
                continue
            }
            let range = segment.byteRange.map(Self.closed)
            let abandon =
                abandonTarget == nil
                ? abandonWatch(segmentStart: segmentStart, duration: segment.duration, expectedBytes: range?.count)
                : nil
            abandonTarget = nil
            // A seek does not wait for a segment it will not play: the download is dropped, the seek taken at once.
            var seekCameIn = false
            // How long a download given up had waited for its answer (all of its time when none came): the link's
            // latency is recorded from it too, or a rise would be learnt only from the downloads that finish.
            var abandonedWait: Double?
            let watch: (HTTPFetch.Progress) -> Bool = { [self] progress in
                if seekPending() {
                    seekCameIn = true
                    return false
                }
                if abandon?(progress) == false {
                    abandonedWait = progress.timeToFirstByte ?? progress.elapsed
                    return false
                }
                return true
            }
            let decryption = try sampleDecryption(
                keyStore.decryption(for: segment.keys, mediaSequence: segment.mediaSequence, resource: segmentURL),
                fMP4: segment.map != nil, resource: segmentURL)
            let fetched = try fetchSegment(
                segmentURL, range: range, duration: segment.duration, watch: watch, decryption: decryption)
            guard case .loaded(let response) = fetched else { continue }
            if response != nil { survivedSkips() }
            adaptive?.drainSamples(finished: response != nil, latency: response?.timeToFirstByte ?? abandonedWait)
            if seekCameIn { throw ByteSourceInterruption() }
            guard let response else {
                // Given up for a lower variant: fetch the same segment from there.
                if let lower = abandonTarget {
                    report(.abandoned(uri: segmentURL.absoluteString))
                    // Should the switch fail, the same segment is fetched again here, unwatched.
                    _ = switchVariant(to: lower)
                }
                continue
            }
            fetchedAny = true
            data.append(response.body)
            if segment.map != nil {
                // MPEG-TS under an init section: without it (FFmpeg read the fMP4 init and then nothing: the TS part
                // and all after it were lost, without a word).
                mapSkipped = ContentSniffer.isTransportStream(response.body)
                if mapSkipped { data = response.body }
            }
            data = withInit(data, fetchedInit: fetchedInit)
            mark(segment: next, itemStart: segmentStart, bytes: data.count)
            next += 1
            nextStart += segment.duration
            let estimate = adaptive?.estimator.estimate ?? 0
            if adaptive?.estimator.hasMeasurement == true { BandwidthMemory.remember(estimate) }
            report(.segment(bytes: response.body.count, seconds: response.seconds, estimate: estimate))
            buffer = data
            position = 0
            return true
        }
    }

    /// Downloads a segment or init section, trying again after a time-out, a dropped connection or a 5xx (unless
    /// `failFast`: a copy elsewhere is tried instead); an HTML
    /// page in place of media is an error. With a `decryption`, the body is decrypted as it arrives (AES-128 CBC),
    /// and a body that does not decrypt to media is "wrong key or IV". Nil when `watch` gave the download up.
    /// `retryWithin`: the waits before retries add up to at most that many seconds (a low-latency part, due to
    /// play within a second or two, is not waited for longer than it lasts).
    /// `refusesUnknown`: a body (decrypted) none of whose first bytes are a format HLS carries is an error too.
    func download(
        _ url: URL, range: ClosedRange<Int>?, duration: Double, watch: ((HTTPFetch.Progress) -> Bool)?,
        decryption: HLSDecryption? = nil, failFast: Bool = false, retryWithin: Double? = nil,
        refusesUnknown: Bool = false
    ) throws(PlaybackError) -> HTTPFetch.Response? {
        var attempt = 0
        var budget = retryWithin ?? .infinity
        while true {
            do throws(PlaybackError) {
                // A download that trickles forever is bounded too: never more than the idle time-out plus four
                // times the segment's duration (its buffer would have run out long before).
                let deadline = fetch.timeout + max(duration * 4, 8)
                let decrypter = try decryption.map { d throws(PlaybackError) in try d.decrypter() }
                guard
                    var response = try fetch.fetch(
                        url, range: range, deadline: deadline, onChunk: chunkSink(), watch: watch,
                        decrypter: decrypter)
                else { return nil }
                let raw = HTTPFetch.Response(body: response.head, contentType: response.contentType, seconds: 0)
                let head = decrypter == nil ? response : raw
                if Self.isHTML(head) {
                    throw PlaybackError(
                        .parsing, source: url.absoluteString, reason: "an HTML page, not a media segment")
                }
                // A playlist listed as a segment or init section (FFmpeg said "cannot allocate memory").
                if ContentSniffer.kind(of: head.body) == .playlist {
                    throw PlaybackError(.parsing, source: url.absoluteString, reason: "a playlist, not a media segment")
                }
                if let decryption, let decrypter { response.body = try decryption.finish(decrypter, response, url) }
                if refusesUnknown, ContentSniffer.kind(of: response.body) == .unknown {
                    let reason =
                        response.body.isEmpty
                        ? "an empty media segment"
                        : "not a media segment: its bytes are none of the formats HLS carries (MPEG-TS, fMP4, "
                            + "packed audio)"
                    throw PlaybackError(.parsing, source: url.absoluteString, reason: reason)
                }
                return response
            } catch {
                if failFast || budget <= 0 || !shouldRetry(after: attempt) { throw error }
                attempt += 1
                report(.recovered(error))
                let wait = min(retryDelay(attempt), budget)
                budget -= wait
                waitBeforeRetry(wait)
            }
        }
    }

    /// What became of a media segment's download.
    enum SegmentFetch {
        /// Its body, or nil when `watch` gave it up.
        case loaded(HTTPFetch.Response?)
        /// It could not be had after its retries: another variant took over, or it was skipped as a gap.
        case again
    }

    /// Downloads a media segment (`download`); when it fails for good (not a stop, a seek or a key), another
    /// variant's copy is tried next, or the segment is skipped as a gap (`skipSegment`).
    func fetchSegment(
        _ url: URL, range: ClosedRange<Int>?, duration: Double, watch: ((HTTPFetch.Progress) -> Bool)?,
        decryption: HLSDecryption?
    ) throws(PlaybackError) -> SegmentFetch {
        let failure: PlaybackError
        // With a copy elsewhere (a redundant variant, another pathway), a failure moves there at once, before the
        // first segment as after it.
        let hasBackup = adaptive.map { s in s.current.map(s.hasBackup) ?? false } ?? false
        do {
            // Once a segment was media, one whose bytes are none (random bytes, a truncated file) is refused as
            // a page is: FFmpeg would skip it without a word. (The first is left to FFmpeg: the open says whether
            // the stream is media at all.)
            let response = try download(
                url, range: range, duration: duration, watch: watch, decryption: decryption, failFast: hasBackup,
                refusesUnknown: mediaSeen && refusesUnknownSegments)
            if let body = response?.body, ContentSniffer.kind(of: body) == .media { mediaSeen = true }
            return .loaded(response)
        } catch {
            // Before the first segment has played, with no copy to move to, a failure of the host (a 5xx, no
            // connection) says nothing of the stream can be had: the error is the item's at once. A segment the
            // host does not have (a 4xx) is its variant's: another variant is tried, as later in the stream.
            let itemError = !fetchedAny && !hasBackup && !HLSAdaptiveState.isResourceError(error)
            if error.source != url.absoluteString || isCancelled || seekPending() || itemError { throw error }
            failure = error
        }
        let error = failure
        failedForGood.append(error)
        adaptive?.drainSamples()
        if let rung = failOver(after: error) {
            reportFailover(error, to: rung)
            return .again
        }
        // No variant left to try before anything played: the item fails, naming every copy of the segment tried.
        if !fetchedAny { throw Self.skippedError(failedForGood, segments: 1) }
        try skipSegment(after: error)
        return .again
    }

    /// The decryption of a segment's bytes: `decryption` itself, or nil for samples the demuxer decrypts
    /// (SAMPLE-AES and SAMPLE-AES-CTR in fMP4: Common Encryption, `cbcs` and `cenc`; the key becomes `sampleKey`
    /// for the part the segment begins). Sample encryption of MPEG-TS is not supported.
    func sampleDecryption(_ decryption: HLSDecryption?, fMP4: Bool, resource: URL) throws(PlaybackError)
        -> HLSDecryption?
    {
        guard let decryption, decryption.bySamples else {
            sampleKey = nil
            return decryption
        }
        guard fMP4 else {
            let reason =
                decryption.method == "SAMPLE-AES"
                ? "encrypted with METHOD=SAMPLE-AES in MPEG-TS segments, which is not supported (in fMP4, 'cbcs', "
                    + "it is)"
                : "encrypted with METHOD=\(decryption.method), which needs fMP4 segments (Common Encryption); "
                    + "these are MPEG-TS"
            throw PlaybackError(.unsupported, source: resource.absoluteString, reason: reason)
        }
        sampleKey = decryption.key
        sampleEncryptionUsed.withLock { $0 = "METHOD=\(decryption.method), key \(decryption.keyURI)" }
        return nil
    }

    /// Loads the key of the first segment to be read when its samples are encrypted (SAMPLE-AES-CTR), so the
    /// demuxer has it when it opens, before any segment is loaded.
    func primeSampleKey() throws(PlaybackError) {
        guard next < playlist.segments.count else { return }
        let segment = playlist.segments[next]
        guard let url = segment.url, HLSKeyStore.isSampleEncryption(segment.keys) else { return }
        _ = try sampleDecryption(
            keyStore.decryption(for: segment.keys, mediaSequence: segment.mediaSequence, resource: url),
            fMP4: segment.map != nil, resource: url)
    }

    /// The bytes of `r` as a closed range; at least one byte, within `Int` (a range the playlist implied from a
    /// previous one may be anything).
    static func closed(_ r: ByteRange) -> ClosedRange<Int> {
        let start = max(r.offset, 0)
        let (end, overflow) = start.addingReportingOverflow(max(r.length, 1) - 1)
        return start...(overflow ? Int.max : end)
    }
}
