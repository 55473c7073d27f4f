import PlayheadCore
import PlayheadFFmpeg
import PlayheadSubtitles

/// Several media sources on one item timeline, read as one: an HLS variant and the audio and subtitle renditions
/// played beside it (each with its own segment loader), or a file and the subtitle files shown with it. Reads interleave
/// the parts by decoding time: the next sample is the earliest of the next one of each part, so no part's queue
/// runs ahead of the others by more than a sample.
///
/// Track identifiers: the first part's are kept; part `k` (from 1) adds `k * trackStride` to its own, in the track
/// and in its stream's index, so an `AssetTrack` names one track of the whole. The first part is the main one: its
/// name, duration, metadata, seekability and container are the item's.
///
/// Threads: as `MediaSource` (the demux thread; `interrupt` and `cancel` from any thread).
final class MergedSource: MediaSource, @unchecked Sendable {
    /// The distance between two parts' track identifiers.
    static let trackStride = 1000

    /// The parts, the main one first.
    let parts: [any MediaSource]
    /// Each part's next sample (or cue batch), read ahead of the others; nil when none is waiting.
    private var pending: [SourceRead?]
    /// Each part's decoding time (item seconds) of its pending sample, the order of reads.
    private var pendingOrder: [Double]
    /// Parts that read their end (until a seek).
    private var ended: Set<Int> = []
    /// Parts none of whose tracks plays: never read (`select`).
    private var unread: Set<Int> = []
    private(set) var tracks: [MediaTrack]

    /// `parts`, the main one first, each opened on the item's timeline.
    init(_ parts: [any MediaSource]) {
        precondition(!parts.isEmpty, "a merged source needs a part")
        self.parts = parts
        pending = Array(repeating: nil, count: parts.count)
        pendingOrder = Array(repeating: 0, count: parts.count)
        tracks = Self.tracks(of: parts)
    }

    private static func tracks(of parts: [any MediaSource]) -> [MediaTrack] {
        parts.enumerated().flatMap { k, part in
            part.tracks.map { track in
                var t = track
                t.id = mergedID(track.id, part: k)
                t.stream.index = t.id
                return t
            }
        }
    }

    private static func mergedID(_ id: Int, part: Int) -> Int { id + part * trackStride }

    /// The part and its own identifier of merged track `id`.
    private func split(_ id: Int) -> (part: Int, id: Int)? {
        let k = id / Self.trackStride
        guard id >= 0, k < parts.count else { return nil }
        return (k, id - k * Self.trackStride)
    }

    func reads(track: Int) -> Bool {
        guard let (part, id) = split(track) else { return false }
        return !unread.contains(part) && parts[part].reads(track: id)
    }

    func knownCues(of track: Int) -> [SubtitleCue]? {
        split(track).flatMap { parts[$0.part].knownCues(of: $0.id) }
    }

    var name: String { parts[0].name }
    var undecodableReason: String? { parts[0].undecodableReason }
    var duration: MediaTime { parts[0].duration }
    var metadata: MediaMetadata { parts[0].metadata }
    var isSeekable: Bool { parts[0].isSeekable }
    var formatName: String { parts[0].formatName }
    var currentAudioGroup: String? { parts[0].currentAudioGroup }
    var placesSamples: Bool { parts[0].placesSamples }

    /// The default of the last part that has one: a part is added for its tracks (an audio rendition's sound
    /// replaces the sound muxed in the variant).
    func defaultTrack(_ kind: TrackKind) -> Int? {
        for (k, part) in parts.enumerated().reversed() {
            if let id = part.defaultTrack(kind) { return Self.mergedID(id, part: k) }
        }
        return nil
    }

    func makeDecoder(track: Int, threads: Int) throws(FFmpegError) -> Decoder {
        guard let (k, id) = split(track) else {
            throw FFmpegError(code: FFmpegError.invalidArgument, function: "MergedSource.makeDecoder")
        }
        return try parts[k].makeDecoder(track: id, threads: threads)
    }

    func attach(_ host: SourceHost) {
        for part in parts { part.attach(host) }
    }

    /// Each part gets its chosen tracks; a part with none is never read (an HLS rendition not chosen is never
    /// fetched). The main part is read whatever is chosen: it holds the item's timeline.
    func select(_ chosen: Set<Int>) -> Set<Int> {
        var playable = Set<Int>()
        unread.removeAll()
        for (k, part) in parts.enumerated() {
            let own = Set(chosen.compactMap { id in split(id).flatMap { $0.part == k ? $0.id : nil } })
            let taken = own.isEmpty ? [] : part.select(own)
            playable.formUnion(taken.map { Self.mergedID($0, part: k) })
            if taken.isEmpty && k > 0 { unread.insert(k) }
        }
        tracks = Self.tracks(of: parts)
        return playable
    }

    /// Opens `track`'s part if it was not chosen at the open, and reads it from `seconds` on, beside the rest.
    func startReading(track: Int, at seconds: Double) -> Bool {
        guard let (k, id) = split(track), k > 0, unread.contains(k), parts[k].open(track: id, at: seconds) else {
            return false
        }
        unread.remove(k)
        ended.remove(k)
        pending[k] = nil
        tracks = Self.tracks(of: parts)
        return true
    }

    /// Stops reading `track`'s part (never the main one); what it had read ahead is dropped.
    func stopReading(track: Int) {
        guard let (k, _) = split(track), k > 0 else { return }
        unread.insert(k)
        pending[k] = nil
    }

    func deliverPendingJump() -> Bool {
        // Every part is asked, whatever the others answer.
        parts.reduce(false) { waits, part in part.deliverPendingJump() || waits }
    }

    func read() throws(PlaybackError) -> SourceRead {
        // Every part that has not ended has a sample waiting: the earliest goes first.
        for k in parts.indices where pending[k] == nil && !ended.contains(k) && !unread.contains(k) {
            switch try parts[k].read() {
            case .sample(var sample):
                let own = parts[k].track(sample.track)
                let dts = sample.packet.dts ?? sample.packet.pts
                pendingOrder[k] = own.flatMap { t in dts.map { t.seconds($0) } } ?? sample.seconds ?? -.infinity
                sample.track = Self.mergedID(sample.track, part: k)
                pending[k] = .sample(sample)
            case .cues(var batch):
                pendingOrder[k] = batch.seconds
                batch.track = Self.mergedID(batch.track, part: k)
                pending[k] = .cues(batch)
            case .gap(var gap):
                // The part's own tracks only: the other parts' samples go on.
                pendingOrder[k] = gap.from
                gap.tracks = Set((gap.tracks ?? Set(parts[k].tracks.map(\.id))).map { Self.mergedID($0, part: k) })
                pending[k] = .gap(gap)
            case .end:
                ended.insert(k)
            case .interrupted:
                return .interrupted
            }
        }
        let waiting = parts.indices.filter { pending[$0] != nil }
        guard let first = waiting.min(by: { pendingOrder[$0] < pendingOrder[$1] }) else { return .end }
        defer { pending[first] = nil }
        return pending[first]!
    }

    func seek(to seconds: Double) throws(PlaybackError) {
        pending = Array(repeating: nil, count: parts.count)
        ended.removeAll()
        for (k, part) in parts.enumerated() where !unread.contains(k) { try part.seek(to: seconds) }
    }

    func idle() -> (ok: Bool, nextDeadline: Double?) {
        var ok = true
        var deadline: Double?
        for (k, part) in parts.enumerated() where !unread.contains(k) {
            let r = part.idle()
            ok = ok && r.ok
            if let d = r.nextDeadline { deadline = min(deadline ?? d, d) }
        }
        return (ok, deadline)
    }

    func waitForMore(idle: Double, cancelled: () -> Bool) -> Bool {
        guard parts[0].waitForMore(idle: idle, cancelled: cancelled) else { return false }
        ended.remove(0)
        return true
    }

    func interrupt() {
        for part in parts { part.interrupt() }
    }

    func interruptWaits() {
        for part in parts { part.interruptWaits() }
    }

    func cancel() {
        for part in parts { part.cancel() }
    }
}
