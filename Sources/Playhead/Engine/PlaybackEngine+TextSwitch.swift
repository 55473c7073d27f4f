import Foundation
import PlayheadCore
import PlayheadSubtitles

/// Switching the subtitle track while playing, in place: the demux thread keeps the cues it reads of the text
/// tracks not shown (a film's subtitles are small), so the text renderer shows the new track's cues at once,
/// including one that started before the play head, and nothing is reopened.
extension PlaybackEngine {
    /// The cues read so far of each text track not shown. Demux thread only.
    struct OtherCues {
        var cues: [Int: [SubtitleCue]] = [:]

        mutating func add(_ sample: MediaSample, track: MediaTrack) {
            guard let start = sample.seconds, cues[track.id, default: []].count < TextRenderer.capacity else { return }
            let duration = sample.packet.duration > 0 ? track.stream.seconds(sample.packet.duration) : 0
            let reader = TextCueReader(codec: track.stream.codecName)
            guard let cue = reader.cue(payload: sample.packet.payload, start: start, duration: duration) else { return }
            cues[track.id, default: []].append(cue)
        }

        /// Keeps the cues of a batch read for a text track not shown.
        mutating func add(_ batch: CueBatch) {
            let room = TextRenderer.capacity - cues[batch.track, default: []].count
            cues[batch.track, default: []] += batch.cues.prefix(max(room, 0))
        }
    }

    /// Shows text track `id` instead of the one shown (nil: none) in place; false when the engine cannot (not one
    /// of its source's text tracks, or one whose part is not read: an HLS rendition): the caller restarts the item.
    /// Any thread (the source's tracks and parts are fixed once it is open).
    func switchText(to id: Int?) -> Bool {
        // Once the input is open (`info`): its parts are chosen then.
        guard info != nil, let source else { return false }
        if let id {
            // Its cues must come: known whole, or read with the rest (a part not chosen at the open is not read).
            guard source.track(id)?.kind == .text, source.knownCues(of: id) != nil || source.reads(track: id) else {
                return false
            }
        }
        control.withLock { $0.pendingTextSwitch = .some(id) }
        wake()
        return true
    }

    /// The demux thread carries out a pending text switch: the renderer's cues become the new track's (known
    /// whole for a subtitle file, else those read so far), and the old track's are kept in turn.
    func performTextSwitch(to id: Int?, source: any MediaSource, media: inout MediaInfo, others: inout OtherCues) {
        guard id != media.text?.id else { return }
        let track = id.flatMap { source.track($0) }
        let newCues = id.flatMap { source.knownCues(of: $0) } ?? id.flatMap { others.cues[$0] } ?? []
        let old = text.replace(with: newCues)
        if let previous = media.text, source.knownCues(of: previous.id) == nil { others.cues[previous.id] = old }
        if let id { others.cues[id] = nil }
        media.text = track
        info?.text = track
        sink(.textTrackChanged(id))
        wake()
    }
}
