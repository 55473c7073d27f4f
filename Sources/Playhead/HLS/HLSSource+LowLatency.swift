import Foundation
import PlayheadCore
import PlayheadHLS

extension HLSSource {
    /// Whether the live playlist offers parts and blocking reloads (low-latency HLS).
    static func isLowLatency(_ playlist: MediaPlaylist) -> Bool {
        playlist.serverControl?.canBlockReload == true && playlist.partInformation != nil && !playlist.hasEndList
    }

    /// `PART-HOLD-BACK`, else three part targets: how far behind the live edge low-latency playback stays.
    var partHoldBack: Double {
        playlist.serverControl?.partHoldBack ?? 3 * (playlist.partInformation?.partTarget ?? 1)
    }

    /// The item time where the last part listed ends.
    var liveEdge: Double {
        windowStart + segmentStart(playlist.segments.count, in: playlist)
            + playlist.trailingParts.reduce(0) { $0 + $1.duration }
    }

    /// Low-latency start: `PART-HOLD-BACK` (else three part targets) from the end of the last part listed, at the
    /// start of the segment holding that point (its first part is independent), or of the segment being made.
    /// When the stream began less than that ago, `loadPart` waits for the edge to move on before the first fetch.
    func startLowLatency() {
        let segments = segmentStart(playlist.segments.count, in: playlist)
        let point = liveEdge - windowStart - partHoldBack
        next = playlist.segments.count
        if point < segments {
            next = max(playlist.segments.indices.last { segmentStart($0, in: playlist) <= point } ?? 0, 0)
        }
        nextStart = windowStart + segmentStart(next, in: playlist)
        partCursor = 0
    }

    /// What `loadPart` did. A value type, used on the demux thread.
    enum PartStep {
        /// Bytes of one or more parts are in the buffer.
        case delivered
        /// A part at the edge gave no bytes (lost, or a gap) and the reader takes such time at once
        /// (`yieldsSkippedTime`): it is in `skippedTime`, nothing is in the buffer.
        case skipped
        /// The next thing to fetch is a whole segment (or the stream is not low-latency): `loadNextSegment` goes on.
        case wholeSegment
        /// The next part needs a new init section (an fMP4 variant switch): the bytes handed out so far end a part
        /// of the input (`partBreak`), and FFmpeg opens the next one.
        case partBreak
    }

    /// Low-latency reading: fetches the next part while the play position is inside a segment still being made
    /// (or the rest of the parts of one that was finished meanwhile); when that part is not listed yet, reloads the
    /// playlist with a blocking request (`_HLS_msn`, `_HLS_part`) that returns once it is. Before the first part of
    /// a segment (a segment boundary, where that part is independent) the policy may switch variant; with fMP4 the
    /// segment's `EXT-X-MAP` init section goes first, and a new one ends the input's part. Demux thread.
    func loadPart() throws -> PartStep {
        while true {
            if next < playlist.segments.count {
                guard partCursor > 0 else { return .wholeSegment }
                // The segment was finished while its first parts were being played: the rest of its parts.
                let segment = playlist.segments[next]
                let rest = Array(segment.parts.dropFirst(partCursor))
                let start = nextStart - partsTime
                partCursor = 0
                partsTime = 0
                // Parts marked or lost as gaps give no bytes; the item time of the first that does is its mark's.
                var data = Data()
                var dataStart: Double?
                let restStart = nextStart
                var partStart = nextStart
                for part in rest {
                    if let bytes = try fetchPart(part) {
                        dataStart = dataStart ?? partStart
                        data.append(bytes)
                    }
                    partStart += part.duration
                }
                if let dataStart { deliver(data, fetchedInit: false, domain: domain(of: next), itemStart: dataStart) }
                next += 1
                nextStart = start + segment.duration
                if dataStart != nil { return .delivered }
                // Every part left gave nothing: the reader may hear of it now (as at the edge, below).
                guard yieldsSkippedTime else { continue }
                skippedTime = (skippedTime?.from ?? restStart, nextStart)
                return .skipped
            }
            guard let live, live.lowLatency else { return .wholeSegment }
            let parts = playlist.trailingParts
            if !fetchedAny && liveEdge - nextStart < partHoldBack - 0.001 {
                // A stream that began less than PART-HOLD-BACK ago: playback starts that far behind its edge all
                // the same (RFC 8216bis 6.3.3), so the first parts are fetched once later ones are listed.
                try blockingReload(
                    sequence: playlist.firstListedMediaSequence + playlist.segments.count, part: parts.count)
                continue
            }
            if partCursor == 0 && adapt() { continue }
            if partCursor < parts.count {
                let part = parts[partCursor]
                var data = Data()
                var lastMapFetched = false
                // The init section goes before the first part fetched of its segment (the first part may be a gap).
                if !part.gap, let map = playlist.trailingMap, !Self.isSame(map, lastMap) {
                    if lastMap != nil {
                        partBreak = true
                        return .partBreak
                    }
                    data = try fetchMap(map)
                    lastMapFetched = true
                }
                let bytes = try fetchPart(part)
                data.append(bytes ?? Data())
                let itemStart = nextStart
                partCursor += 1
                partsTime += part.duration
                nextStart += part.duration
                // A gap's time passes with nothing handed out (an init section fetched for it goes out alone: the
                // next part's fragments follow it). The reader hears of it now: the next part is not listed yet, and
                // a play head a hold-back from the edge ran dry waiting for it (five lost parts stalled 2 s).
                guard !data.isEmpty else {
                    guard yieldsSkippedTime else { continue }
                    skippedTime = (skippedTime?.from ?? itemStart, nextStart)
                    return .skipped
                }
                let sequence = playlist.segments.last?.discontinuitySequence ?? playlist.discontinuitySequence
                deliver(data, fetchedInit: lastMapFetched, domain: sequence, itemStart: itemStart)
                return .delivered
            }
            try blockingReload(sequence: playlist.firstListedMediaSequence + next, part: partCursor)
        }
    }

    /// Downloads an fMP4 init section and makes it the current one (demux thread).
    private func fetchMap(_ map: MediaInitializationSection) throws(PlaybackError) -> Data {
        guard let url = map.url else { return Data() }
        try refuseEncryptedParts(url)
        let response = try download(url, range: map.byteRange.map(Self.closed), duration: 0, watch: nil)
        lastMap = map
        mapBytes = response?.body ?? Data()
        partSeconds += response?.seconds ?? 0
        return mapBytes
    }

    /// Encrypted parts are not decrypted yet: an error rather than encrypted bytes for the decoders (demux thread).
    private func refuseEncryptedParts(_ url: URL) throws(PlaybackError) {
        guard let keys = playlist.segments.last?.keys, try HLSKeyStore.usableKey(keys, resource: url) != nil else {
            return
        }
        throw PlaybackError(
            .unsupported, source: url.absoluteString, reason: "encrypted low-latency parts are not supported")
    }

    /// Downloads one part and notes its throughput for the policy; nil for a part marked `GAP=YES` (never asked
    /// for) and for one that could not be had after its retries once the stream plays (skipped as a lost segment
    /// is: its time passes in silence; `skipPart`). Demux thread.
    private func fetchPart(_ part: PartialSegment) throws(PlaybackError) -> Data? {
        if part.gap { return nil }
        guard let url = part.url else {
            throw PlaybackError(.parsing, source: playlistURL.absoluteString, reason: "a part has no URI")
        }
        if !fetchedAny { (openedAt, readFrom) = (nextStart, nextStart) }
        try refuseEncryptedParts(url)
        let response: HTTPFetch.Response?
        do {
            response = try download(
                url, range: part.byteRange.map(Self.closed), duration: part.duration, watch: nil,
                retryWithin: part.duration)
        } catch {
            // Before anything played, a part that cannot be had fails the item (a stream that cannot start).
            if !fetchedAny || error.source != url.absoluteString || isCancelled || seekPending() { throw error }
            try skipPart(after: error)
            return nil
        }
        if response != nil { survivedSkips() }
        fetchedAny = true
        adaptive?.drainSamples(finished: response != nil)
        partSeconds += response?.seconds ?? 0
        if let response, response.seconds > 0.002 {
            lastPartRate = Double(response.body.count) * 8 / response.seconds
        }
        return response?.body ?? Data()
    }

    /// Hands `data` (parts, after an init section when one was fetched for them, or when every part carries it)
    /// to FFmpeg, marked as starting at item time `itemStart` in `domain`, and reports it (demux thread).
    private func deliver(_ data: Data, fetchedInit: Bool, domain: Int, itemStart: Double) {
        let bytes = withInit(data, fetchedInit: fetchedInit)
        marks.append(SegmentMark(start: produced, domain: domain, itemStart: itemStart))
        if marks.count > 16 { marks.removeFirst(marks.count - 16) }
        produced += Int64(bytes.count)
        report(.segment(bytes: data.count, seconds: partSeconds, estimate: adaptive?.estimator.estimate ?? 0))
        partSeconds = 0
        buffer = bytes
        position = 0
    }

    /// `playlist` with the blocking-reload query for part `part` of segment `sequence` (other `_HLS_` items
    /// removed).
    static func blockingURL(_ playlist: URL, sequence: Int, part: Int) -> URL {
        var components = URLComponents(url: playlist, resolvingAgainstBaseURL: true)
        var items = components?.queryItems ?? []
        items.removeAll { $0.name.hasPrefix("_HLS_") }
        items += [
            URLQueryItem(name: "_HLS_msn", value: "\(sequence)"), URLQueryItem(name: "_HLS_part", value: "\(part)"),
        ]
        components?.queryItems = items
        return components?.url ?? playlist
    }

    /// Asks for the playlist once it lists part `part` of segment `sequence` (the server holds the request). A
    /// request that fails is tried again after a backoff while the buffer lasts (the caller asks again on return),
    /// or moves to a copy of the variant elsewhere. Demux thread.
    func blockingReload(sequence: Int, part: Int) throws {
        guard var state = live else { return }
        let url = Self.blockingURL(playlistURL, sequence: sequence, part: part)
        let started = MonotonicClock.now()
        var fresh: MediaPlaylist
        do {
            fresh = try Self.mediaPlaylist(url, fetch)
        } catch {
            // As a regular reload: moved to a copy elsewhere at once, or tried again after a backoff while the
            // buffer lasts (`reloadFailed`, which gives up with the item's error once it cannot).
            let retried = try reloadFailed(error, state, retryAfter: fetch.lastRetryAfter)
            live = retried
            if retried.failedReloads > 0 { waitBeforeRetry(max(0, retried.reloadAt - MonotonicClock.now())) }
            return
        }
        state.failedReloads = 0
        state.failingSince = nil
        fresh.url = playlistURL
        adopt(fresh)
        if case .stalled(let reloads) = state.schedule.loaded(fresh, startedAt: started) {
            throw PlaybackError(
                .network, source: playlistURL.absoluteString,
                reason: "the live playlist stopped changing (\(reloads) blocking reloads brought nothing new)")
        }
        state.lowLatency = Self.isLowLatency(fresh)
        live = fresh.hasEndList ? nil : state
        reportWindow()
        try handOverJump()
    }
}
