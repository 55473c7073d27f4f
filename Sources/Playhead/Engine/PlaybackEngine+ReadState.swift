import Foundation
import PlayheadCore
import PlayheadFFmpeg
import PlayheadSubtitles

/// What the demux thread's read loop keeps between reads, and the parts of the loop that act on it: track switches
/// taken from the commands, a rendition started for a switch catching up, and each sample routed to its queue.
extension PlaybackEngine {
    /// The read loop's state. Demux thread only.
    struct ReadState {
        /// The tracks playing (changed by switches).
        var media: MediaInfo
        /// The recent packets of the audio tracks not playing, for a seamless switch.
        var alternates = AlternateAudio()
        /// The audio tracks whose packets have been seen (and announced as switchable).
        var announced = Set<Int>()
        /// Everything was read: the loop sleeps until a seek, a switch or a stop.
        var atEnd = false
        /// The tracks whose samples have passed the item's end time (each gets its end of stream then).
        var pastEnd = Set<Int>()
        /// Whether this generation's first video packet was noted (`Control.firstVideoSeconds`).
        var videoStartNoted = false
        /// The reader of the text track shown, when its cues come as samples.
        var textReader: TextCueReader?
        /// The cues of the text track shown when all are known (a subtitle file): its samples are not read.
        var knownCues: [SubtitleCue]?
        /// The cues read so far of the text tracks not shown, for a switch in place.
        var otherCues = OtherCues()
        /// The variant's audio group last followed (`followAudioGroup`).
        var followedGroup: String?
        /// The renditions started for a switch in place (a sound one and a subtitle one may catch up at once), by
        /// kind: each is read whatever is buffered until it reaches `until` (item time); a sound rendition is
        /// switched to then.
        var catchingUp: [TrackKind: (track: Int, until: Double)] = [:]
        /// A sample has been read: the input is no longer at its start.
        var readAny = false
        /// How far the played tracks' samples have been read, against the duration declared (`noteRead`).
        var reach: ReadReach

        init(media: MediaInfo, source: any MediaSource) {
            self.media = media
            textReader = media.text.map { TextCueReader($0.stream) }
            knownCues = media.text.flatMap { source.knownCues(of: $0.id) }
            reach = ReadReach(declared: media.duration)
        }
    }

    /// Takes a pending sound or subtitle switch: a track read already switches at once; an HLS rendition not read
    /// starts reading from the play head and catches up first.
    func takeSwitches(_ source: any MediaSource, _ state: inout ReadState) {
        followAudioGroup(source, &state)
        if let requested = control.withLock({ c -> Int? in
            defer { c.pendingAudioSwitch = nil }
            return c.pendingAudioSwitch
        }),
            // A rendition of another group than the variant's: its equivalent in the variant's plays.
            case let id = source.track(requested)?.equivalent(inGroup: source.currentAudioGroup, among: source.tracks)?
                .id ?? requested,
            state.catchingUp[.audio]?.track != id
        {
            // A rendition started for an earlier choice is read no more.
            if let earlier = state.catchingUp.removeValue(forKey: .audio) {
                source.stopReading(track: earlier.track)
                state.alternates.packets[earlier.track] = nil
                noteStartable(source)
            }
            if source.reads(track: id) {
                performAudioSwitch(to: id, source: source, media: &state.media, alternates: &state.alternates)
                // Everything was read: the new track's packets end the stream as the old one's did.
                if state.atEnd && !audioQueue.reachedEnd {
                    audioQueue.put(.endOfStream, generation: control.withLock { $0.generation })
                }
            } else if source.startReading(track: id, at: clock.seconds) {
                // An HLS rendition: read beside the playing one (even with the buffer full, even after the end was
                // read) until its sound reaches a second ahead.
                state.catchingUp[.audio] = (id, clock.seconds + 1)
                state.atEnd = false
                noteStartable(source)
            }
        }
        if let choice = control.withLock({ c -> Int?? in
            defer { c.pendingTextSwitch = nil }
            return c.pendingTextSwitch
        }) {
            if performTextSwitch(to: choice, source: source, media: &state.media, others: &state.otherCues),
                let id = choice
            {
                // A subtitle rendition started: read on until it is a few seconds ahead.
                state.catchingUp[.text] = (id, clock.seconds + 5)
                state.atEnd = false
            }
            state.textReader = state.media.text.map { TextCueReader($0.stream) }
            state.knownCues = state.media.text.flatMap { source.knownCues(of: $0.id) }
        }
    }

    /// The variant now loading names another audio group (an ABR switch to a rung with another codec or channel
    /// layout): the sound rendition playing gives way, in place and without a gap, to its equivalent in that group
    /// (a switch like a choice made while playing); nothing changes when the group has none.
    func followAudioGroup(_ source: any MediaSource, _ state: inout ReadState) {
        guard let group = source.currentAudioGroup, group != state.followedGroup else { return }
        state.followedGroup = group
        guard let playing = state.media.audio,
            let target = playing.equivalent(inGroup: group, among: source.tracks), target.id != playing.id
        else { return }
        control.withLock { if $0.pendingAudioSwitch == nil { $0.pendingAudioSwitch = target.id } }
    }

    /// After a read: a started rendition whose own read reached its goal has caught up (a sound rendition is
    /// switched to); another track read at or past the goal, or the end, means it caught up, ended or brought
    /// nothing (a sound rendition with nothing read is given up: the old one plays on). True when the read was the
    /// sound rendition's own sample, kept for the switch made with it: it is not to be routed again.
    func settleCatchUp(after read: SourceRead, _ source: any MediaSource, _ state: inout ReadState) -> Bool {
        var consumed = false
        for (kind, started) in state.catchingUp {
            let reached: Bool
            switch read {
            case .end: reached = true
            case .interrupted: reached = false
            default:
                guard let (_, t) = read.trackAndTime else { continue }
                reached = t >= started.until
            }
            guard reached else { continue }
            state.catchingUp[kind] = nil
            guard kind == .audio else { continue }
            if case .sample(let s) = read, s.track == started.track {
                // Its own sample: it goes to the kept packets first, then the switch takes them.
                state.alternates.add(s, playHead: clock.seconds)
                consumed = true
            }
            if state.alternates.packets[started.track]?.isEmpty == false {
                finishRenditionSwitch(
                    to: started.track, source: source, media: &state.media, alternates: &state.alternates)
            } else {
                source.stopReading(track: started.track)
                noteStartable(source)
            }
        }
        return consumed
    }

    /// A sample read: the text shown or kept, the packet of a playing track queued (or ended past the item's end),
    /// another audio track's kept for a switch.
    func route(_ sample: MediaSample, _ source: any MediaSource, _ state: inout ReadState, generation g: Int) {
        state.readAny = true
        if let text = state.media.text, sample.track == text.id, let reader = state.textReader {
            if state.knownCues == nil { takeText(sample, reader: reader, track: text) }
            return
        }
        if let track = source.track(sample.track), track.kind == .text {
            state.otherCues.add(sample, track: track)
            return
        }
        guard let queue = queue(for: sample.track, state.media) else {
            if state.media.audio != nil, source.track(sample.track)?.kind == .audio {
                state.alternates.add(sample, playHead: clock.seconds)
                if state.announced.insert(sample.track).inserted {
                    switchableAudio.withLock { _ = $0.insert(sample.track) }
                }
            }
            return
        }
        if let end = endSeconds, let t = sample.seconds, t > end + 0.5 {
            // This track is done (with room for reordered video frames); the others go on until their own samples
            // pass the end (a container may store a segment's video before its sound: fMP4 HLS).
            control.withLock { $0.cutShort = true }
            if state.pastEnd.insert(sample.track).inserted { queue.put(.endOfStream, generation: g) }
            if [state.media.audio, state.media.video].allSatisfy({ $0 == nil || state.pastEnd.contains($0!.id) }) {
                state.atEnd = true
                setBuffering(false)
            }
            return
        }
        if let t = sample.seconds { noteRead(t, &state.reach) }
        if !state.videoStartNoted, queue === videoQueue, let t = sample.seconds {
            state.videoStartNoted = true
            control.withLock { $0.firstVideoSeconds = t }
        }
        queue.put(.packet(sample.packet, seconds: sample.seconds), generation: g)
        if control.withLock({ $0.buffering }),
            bufferedSeconds(state.media) >= min(EngineConfiguration.resumeThreshold, config.forwardBuffer)
        {
            setBuffering(false)
        }
    }
}
