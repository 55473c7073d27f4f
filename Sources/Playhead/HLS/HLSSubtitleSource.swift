import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS
import PlayheadSubtitles

/// One subtitle rendition (`EXT-X-MEDIA:TYPE=SUBTITLES`, WebVTT segments) of an HLS item as a part of its
/// `MergedSource`: before it is chosen, one text track known from the playlist (`NAME`, `LANGUAGE`, `FORCED`,
/// `CHARACTERISTICS`), and nothing is fetched; once chosen (`select`), its playlist is loaded by an `HLSSource` of
/// its own (retries, skips, keys, live reloads) and each segment is parsed by Playhead's WebVTT parser, its cue
/// settings and regions kept, and read as one batch of cues placed on the item's timeline by the segment's
/// `X-TIMESTAMP-MAP` (the variant's time stamps, their discontinuities included). Segments are read in step with the
/// media (`MergedSource` orders reads by time), so subtitles are fetched ahead as far as the sound and pictures.
///
/// A subtitle segment that cannot be had or is not WebVTT is an error-log entry and the rest of the subtitles go
/// on; subtitles never fail the item. Threads: as `MediaSource` (the demux thread; `interrupt` and `cancel` from
/// any thread).
final class HLSSubtitleSource: HLSRenditionPart, MediaSource, @unchecked Sendable {
    /// The rendition's own client once opened.
    private let client = Locked<HLSSource?>(nil)
    /// What has been said about the segments once (no `X-TIMESTAMP-MAP`, not WebVTT).
    private var told = Set<String>()
    private(set) var tracks: [MediaTrack] = []

    /// The rendition `rendition` of the variant `main` (whose input's time stamp 0 is `mainStart`); `isPreferred`
    /// makes it the part's default track; `imsc` says the variant's `CODECS` name IMSC1 (`stpp`) subtitles and
    /// no WebVTT: the track is then not playable.
    init(
        rendition: Rendition, main: HLSSource, mainStart: Double, isPreferred: Bool, imsc: Bool = false,
        options: HLSClientOptions, stopping: (@Sendable () -> Bool)?
    ) {
        super.init(
            rendition: rendition, main: main, mainStart: mainStart, isPreferred: isPreferred, options: options,
            stopping: stopping)
        let stream = describedStream(.subtitle, codec: imsc ? "stpp" : "webvtt", isDecodable: !imsc)
        tracks = [MediaTrack(id: Self.trackID, kind: .text, stream: stream, timelineOffset: 0)]
    }

    /// Whether a `CODECS` list names IMSC1 subtitles (`stpp.ttml.im1t`) and no WebVTT (`wvtt`).
    static func namesOnlyIMSC(_ codecs: String?) -> Bool {
        let list = (codecs ?? "").lowercased().split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return list.contains { $0.hasPrefix("stpp") } && !list.contains { $0.hasPrefix("wvtt") }
    }

    var duration: MediaTime { .invalid }
    var metadata: MediaMetadata { MediaMetadata() }
    var isSeekable: Bool { true }
    var formatName: String { "webvtt" }

    func defaultTrack(_ kind: TrackKind) -> Int? { kind == .text && isPreferred ? Self.trackID : nil }

    func makeDecoder(track: Int, threads: Int) throws(FFmpegError) -> Decoder {
        throw FFmpegError(code: FFmpegError.invalidArgument, function: "HLSSubtitleSource.makeDecoder")
    }

    /// Loads the rendition's playlist when its track is chosen at the item's open, where the variant starts.
    func select(_ chosen: Set<Int>) -> Set<Int> {
        guard chosen.contains(Self.trackID), !failed else { return [] }
        return open(at: main.openedAt) ? [Self.trackID] : []
    }

    /// Chosen while playing: loaded to be read from `seconds`, or moved there when it was loaded before.
    func open(track: Int, at seconds: Double) -> Bool {
        guard track == Self.trackID, !failed else { return false }
        guard client.current != nil else { return open(at: seconds) }
        seek(to: seconds)
        return true
    }

    /// Loads the rendition's playlist (blocking) to be read from the item time `position`; one that cannot be
    /// loaded is an error-log entry and the item plays without it.
    private func open(at position: Double) -> Bool {
        if client.current != nil { return true }
        do throws(PlaybackError) {
            let hls = try main.openSubtitleRendition(rendition, at: position, options: options, stopping: stopping)
            if hls.playlist.segments.contains(where: { $0.map != nil }) {
                hls.interrupt()
                throw PlaybackError(
                    .unsupported, source: name, reason: "subtitles in fMP4 segments (IMSC1) are not supported")
            }
            if let host {
                hls.seekPending = host.seekPending
                hls.isPlaying = host.isPlaying
                // Only what the error log wants: subtitle downloads are not the media's (no bandwidth, no window).
                hls.onNotice = { notice in
                    if case .recovered = notice { host.post(.hls(notice)) }
                }
            }
            client.withLock { $0 = hls }
            if cancelled.current { hls.interrupt() }
            return true
        } catch {
            failed = true
            if !cancelled.current { tell(error, "cannot be played") }
            return false
        }
    }

    func deliverPendingJump() -> Bool { false }

    /// The cues of the next segment, on the item's timeline; `.end` after the last (or once the segments could
    /// not be had).
    func read() throws(PlaybackError) -> SourceRead {
        guard let hls = client.current, !failed else { return .end }
        while true {
            if hls.isCancelled { return .interrupted }
            let loaded: Bool
            do {
                loaded = try hls.loadNext()
            } catch is ByteSourceInterruption {
                return .interrupted
            } catch {
                if hls.isCancelled || host?.seekPending() == true { return .interrupted }
                // Three segments in a row could not be had (each was tried again first): no more subtitles.
                failed = true
                let e = error as? PlaybackError ?? PlaybackError(.network, source: name, reason: "\(error)")
                tell(e, "no more subtitles")
                return .end
            }
            guard loaded else { return .end }
            let mark = hls.marks.last
            let start = mark?.itemStart ?? hls.nextStart
            guard let cues = cues(in: hls.buffer, discontinuity: mark?.domain) else { continue }
            return .cues(CueBatch(track: Self.trackID, cues: cues, seconds: start))
        }
    }

    /// The cues of one WebVTT segment on the item's timeline; nil (and a line in the error log, once) when it is
    /// not WebVTT.
    private func cues(in bytes: Data, discontinuity: Int?) -> [SubtitleCue]? {
        let document: SubtitleDocument
        do {
            document = try WebVTTParser.parse(bytes)
        } catch {
            let e = PlaybackError(.parsing, source: name, reason: "a segment is not WebVTT (\(error))")
            tell(e, "skipped", once: "not WebVTT")
            return nil
        }
        let shift: Double
        if let map = document.timestampMap {
            shift = Self.itemSeconds(ofMap: map, mainStart: mainStart) + domainOffset(discontinuity)
        } else {
            // No map: the cue times are the presentation's own (0 where it starts), as peers read them.
            let e = PlaybackError(.parsing, source: name, reason: "a segment has no X-TIMESTAMP-MAP")
            tell(e, "its cue times are taken as the stream's", once: "no map")
            shift = 0
        }
        return document.cues.map { cue in
            var c = cue
            c.startTime += shift
            c.endTime += shift
            return c
        }
    }

    /// What to add to a cue time under `map` for its item time, the variant's time stamp 0 being `mainStart`
    /// seconds: `MPEGTS` is on the 33-bit 90 kHz clock, so it is taken within half a wrap of `mainStart`.
    static func itemSeconds(ofMap map: WebVTTTimestampMap, mainStart: Double) -> Double {
        let wrap = Double(Int64(1) << 33) / 90_000
        var mapped = Double(map.mpegts) / 90_000 - mainStart
        mapped -= (mapped / wrap).rounded() * wrap
        return mapped - map.local
    }

    /// The shift the variant's timeline gave the time stamps of discontinuity `sequence` (0 before one is seen).
    private func domainOffset(_ sequence: Int?) -> Double {
        guard let sequence else { return 0 }
        return main.timeline.offsets[sequence] ?? 0
    }

    /// An error-log entry about the rendition: `error`, and what follows from it; with a key `once`, only the
    /// first time.
    private func tell(_ error: PlaybackError, _ consequence: String, once key: String? = nil) {
        if let key, !told.insert(key).inserted { return }
        let label = rendition.name.isEmpty ? "" : " \"\(rendition.name)\""
        let reason = "the subtitle rendition\(label): \(error.reason); \(consequence)"
        host?.post(
            .hls(.recovered(PlaybackError(error.category, source: error.source, reason: reason, code: error.code))))
    }

    func seek(to seconds: Double) {
        guard let hls = client.current, !failed else { return }
        hls.reposition(at: seconds)
        hls.failure = nil
    }

    /// A live playlist reloads on its schedule while the buffer is full, as the variant's does.
    func idle() -> (ok: Bool, nextDeadline: Double?) {
        guard let hls = client.current, !failed else { return (true, nil) }
        do throws(PlaybackError) {
            try hls.reloadWhileIdle()
        } catch {
            if hls.isCancelled { return (false, nil) }
            // Reading tries again (and gives the subtitles up if it cannot).
            return (true, nil)
        }
        return (true, hls.idleReloadDeadline)
    }

    func waitForMore(idle: Double, cancelled: () -> Bool) -> Bool { false }

    /// A wait for a live reload ends at once; downloads end when they see the seek (`seekPending`).
    func interrupt() { client.current?.wakeup.signal() }

    func interruptWaits() { interrupt() }

    func cancel() {
        cancelled.withLock { $0 = true }
        client.current?.interrupt()
    }
}
