import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadHLS

/// One audio rendition of an HLS item as a part of its `MergedSource`: before it is chosen, one audio track known
/// from the playlist (`NAME`, `LANGUAGE`, `CHANNELS`, the variant's audio codec), so the item's track selection
/// chooses among renditions as among tracks, and nothing is fetched; once chosen (`select`), its playlist and
/// first segment are opened beside the variant's (`HLSSource.openRendition`) and it reads through its own
/// `HLSMediaSource`, its one sound track keeping the identifier it had.
///
/// Threads: as `MediaSource` (the demux thread; `interrupt` and `cancel` from any thread).
final class HLSRenditionSource: HLSRenditionPart, MediaSource, @unchecked Sendable {
    /// The rendition's own source once opened, and its sound track's identifier there.
    private let opened = Locked<(source: HLSMediaSource, track: Int)?>(nil)
    private(set) var tracks: [MediaTrack] = []

    /// The rendition `rendition` of the variant `main` plays (whose input's time stamp 0 is `mainStart`), with
    /// the variant's sound codec `codec` (FFmpeg's name); `isPreferred` makes it the part's default track.
    init(
        rendition: Rendition, main: HLSSource, mainStart: Double, codec: String, isPreferred: Bool,
        options: HLSClientOptions, stopping: (@Sendable () -> Bool)?
    ) {
        super.init(
            rendition: rendition, main: main, mainStart: mainStart, isPreferred: isPreferred, options: options,
            stopping: stopping)
        let channels = rendition.channels.flatMap { Int($0.split(separator: "/").first ?? "") } ?? 0
        let stream = describedStream(
            .audio, codec: codec, isDecodable: FFmpegLibrary.hasDecoder(named: codec), channels: channels)
        tracks = [MediaTrack(id: Self.trackID, kind: .audio, stream: stream, timelineOffset: mainStart)]
    }

    var duration: MediaTime { .invalid }
    var metadata: MediaMetadata { MediaMetadata() }
    var isSeekable: Bool { true }
    var formatName: String { opened.current?.source.formatName ?? "hls" }

    func defaultTrack(_ kind: TrackKind) -> Int? { kind == .audio && isPreferred ? Self.trackID : nil }

    func makeDecoder(track: Int, threads: Int) throws(FFmpegError) -> Decoder {
        guard track == Self.trackID, let (source, id) = opened.current else {
            throw FFmpegError(code: FFmpegError.invalidArgument, function: "HLSRenditionSource.makeDecoder")
        }
        return try source.makeDecoder(track: id, threads: threads)
    }

    /// Opens the rendition when its track is chosen at the item's open, where the variant starts.
    func select(_ chosen: Set<Int>) -> Set<Int> {
        guard chosen.contains(Self.trackID), !failed else { return [] }
        return open(at: main.openedAt) ? [Self.trackID] : []
    }

    /// Chosen while playing: opened at `seconds` (its first fetch is the segment there), or moved there when it
    /// was opened before.
    func open(track: Int, at seconds: Double) -> Bool {
        guard track == Self.trackID, !failed else { return false }
        guard opened.current != nil else { return open(at: seconds) }
        do throws(PlaybackError) {
            try seek(to: seconds)
        } catch {
            return false
        }
        return true
    }

    /// Opens the rendition to be read from the item time `position`; one that cannot be opened is an error-log
    /// entry (the item's other sound, if any, may play instead).
    private func open(at position: Double) -> Bool {
        if opened.current != nil { return true }
        do throws(PlaybackError) {
            let input = try main.openRendition(
                rendition, mainStart: mainStart, at: position, options: options, stopping: stopping)
            guard let hls = input.byteSource as? HLSSource else { return false }
            let source = HLSMediaSource(input: input, hls: hls)
            guard var track = source.tracks.first(where: { $0.kind == .audio }) else {
                throw PlaybackError(.parsing, source: name, reason: "the audio rendition has no sound")
            }
            source.label(.audio, language: rendition.language)
            let own = track.id
            track = source.track(own) ?? track
            track.id = Self.trackID
            track.stream.index = Self.trackID
            track.stream.title = tracks[0].stream.title
            track.stream.characteristics = tracks[0].stream.characteristics
            track.stream.group = tracks[0].stream.group
            tracks = [track]
            if let host { source.attach(host) }
            opened.withLock { $0 = (source, own) }
            if cancelled.current { source.cancel() }
            // Its time stamps placed the segment fetched after `position` (a live rendition numbered otherwise
            // than the variant): the one before is fetched. (A tenth of a second is an encoder's delay, not a
            // segment.)
            if hls.openedAt > position + 0.1 { try source.seek(to: position) }
            return true
        } catch {
            failed = true
            if !cancelled.current {
                let label = rendition.name.isEmpty ? "" : " \"\(rendition.name)\""
                main.report(
                    .recovered(
                        PlaybackError(
                            error.category, source: error.source,
                            reason: "the audio rendition\(label) cannot be played: \(error.reason)")))
            }
            return false
        }
    }

    func deliverPendingJump() -> Bool { opened.current?.source.deliverPendingJump() ?? false }

    func read() throws(PlaybackError) -> SourceRead {
        guard let (source, own) = opened.current else { return .end }
        while true {
            let read = try source.read()
            guard case .sample(var sample) = read else { return read }
            // Only the sound: anything else the rendition's container carries is not a track of the item.
            guard sample.track == own else { continue }
            sample.track = Self.trackID
            return .sample(sample)
        }
    }

    func seek(to seconds: Double) throws(PlaybackError) { try opened.current?.source.seek(to: seconds) }

    func idle() -> (ok: Bool, nextDeadline: Double?) { opened.current?.source.idle() ?? (true, nil) }

    func waitForMore(idle: Double, cancelled: () -> Bool) -> Bool { false }

    func interrupt() { opened.current?.source.interrupt() }

    func interruptWaits() { opened.current?.source.interruptWaits() }

    func cancel() {
        cancelled.withLock { $0 = true }
        opened.current?.source.cancel()
    }
}
