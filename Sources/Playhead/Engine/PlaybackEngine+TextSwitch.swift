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
            let reader = TextCueReader(track.stream)
            guard let cue = reader.cue(sample.packet, start: start, duration: duration) else { return }
            cues[track.id, default: []].append(cue)
        }

        /// Keeps the cues of a batch read for a text track not shown.
        mutating func add(_ batch: CueBatch) {
            let room = TextRenderer.capacity - cues[batch.track, default: []].count
            cues[batch.track, default: []] += batch.cues.prefix(max(room, 0))
        }
    }

    /// Shows text track `id` instead of the one shown (nil: none) in place; false when the engine cannot (not one
    /// of its source's text tracks in a format Playhead reads): the caller restarts the item. A track whose part
    /// is not read (an HLS subtitle rendition) starts reading from the play head. Any thread.
    func switchText(to id: Int?) -> Bool {
        // Once the input is open (`info`, a snapshot under its lock): its parts are chosen then.
        guard let info else { return false }
        if let id {
            guard let track = info.tracks.first(where: { $0.id == id }), track.kind == .text,
                ClosedCaptions.plays(track.stream), !track.isClosedCaptions || info.video != nil
            else { return false }
        }
        control.withLock { $0.pendingTextSwitch = .some(id) }
        wake()
        return true
    }

    /// The demux thread carries out a pending text switch: the renderer's cues become the new track's (known
    /// whole for a subtitle file, else those read so far), and the old track's are kept in turn. True when the new
    /// track's part started reading for it (an HLS rendition, from the play head: its segment there first).
    @discardableResult
    func performTextSwitch(to id: Int?, source: any MediaSource, media: inout MediaInfo, others: inout OtherCues)
        -> Bool
    {
        guard id != media.text?.id else { return false }
        var started = false
        if let id, !source.reads(track: id), source.knownCues(of: id) == nil {
            guard source.startReading(track: id, at: clock.seconds) else { return false }
            started = true
        }
        let track = id.flatMap { source.track($0) }
        let newCues = id.flatMap { source.knownCues(of: $0) } ?? id.flatMap { others.cues[$0] } ?? []
        let old = text.replace(with: newCues, track: id)
        // Captions are not kept: the video decoder makes them again whenever they are shown.
        if let previous = media.text, source.knownCues(of: previous.id) == nil, !previous.isClosedCaptions {
            others.cues[previous.id] = old
        }
        if let id { others.cues[id] = nil }
        // The rendition shown before is fetched no more (its cues read so far are kept).
        if let previous = media.text, source.knownCues(of: previous.id) == nil {
            source.stopReading(track: previous.id)
        }
        noteStartable(source)
        media.text = track
        info?.text = track
        sink(.textTrackChanged(id))
        wake()
        return started
    }
}
