import Foundation
import PlayheadCore
import PlayheadFFmpeg

/// Switching the sound track while playing, without a gap: the demux thread keeps the last seconds of packets of
/// the source's other audio tracks (it reads them anyway: they are in the same file), so a switch hands the audio
/// thread the new track's decoder and its packets from just before what is heard now, in place of the old track's
/// queued packets. The output keeps what it holds; the new track's samples start where the old one's stopped.
extension PlaybackEngine {
    /// The packets of the audio tracks not playing, by track, the oldest first. Demux thread only.
    struct AlternateAudio {
        var packets: [Int: [(packet: Packet, seconds: Double?)]] = [:]
        /// Seconds of packets kept behind the play head.
        static let keep = 3.0
        /// The most packets kept for one track (a track without time stamps must not grow without bound).
        static let limit = 20_000

        mutating func add(_ sample: MediaSample, playHead: Double) {
            var list = packets[sample.track, default: []]
            list.append((sample.packet, sample.seconds))
            var old = 0
            while old < list.count,
                list.count - old > Self.limit || (list[old].seconds ?? .infinity) < playHead - Self.keep
            {
                old += 1
            }
            if old > 0 { list.removeFirst(old) }
            packets[sample.track] = list
        }

        /// The packets of `track` a decoder starting at `seconds` needs: from the last one stamped at or before it
        /// (all when none is). Packets without a time stamp (MPEG-TS stamps only the first AAC frame of each PES
        /// packet) go with the stamped one before them.
        func packets(of track: Int, from seconds: Double) -> ArraySlice<(packet: Packet, seconds: Double?)> {
            let kept = packets[track] ?? []
            return kept[(kept.lastIndex { ($0.seconds ?? .infinity) <= seconds } ?? 0)...]
        }
    }

    /// Switches the sound to audio track `id` in place, when its packets are at hand (a track of the same file
    /// the demux thread has been reading) or its part can start reading (an HLS rendition not playing: it is read
    /// beside the playing one from the play head, and the switch is made once its sound reaches a second ahead);
    /// false when neither (a track not read yet, or the engine is not playing sound): the caller restarts the item
    /// instead. Any thread.
    func switchAudio(to id: Int) -> Bool {
        guard audioWork != nil,
            switchableAudio.withLock({ $0.contains(id) }) || startableTracks.withLock({ $0.contains(id) })
        else { return false }
        control.withLock { $0.pendingAudioSwitch = id }
        wake()
        return true
    }

    /// How far before the play head a switch starts decoding the new track (seconds): the pre-roll a decoder
    /// needs before its first whole sample (AAC two frames, Opus 80 ms, MP3 its bit reservoir). What lies
    /// between the play head and what the output holds is decoded too, and dropped; nothing more, so that the
    /// first new sample is written before the output runs dry on a busy machine.
    static var switchPreroll: Double { 0.2 }

    /// The demux thread carries out a pending switch: the new track's decoder and its kept packets from just
    /// before the play head (`switchPreroll`) replace the old track's queued packets, which are kept in turn.
    func performAudioSwitch(
        to id: Int, source: any MediaSource, media: inout MediaInfo, alternates: inout AlternateAudio
    ) {
        guard let old = media.audio, id != old.id, let track = source.track(id), track.kind == .audio,
            let decoder = try? source.makeDecoder(track: id, threads: 1)
        else { return }
        // What the output holds and what is heard now, less a decoder's pre-roll, is before anything the old track
        // left to write.
        let held = alternates.packets(of: id, from: clock.seconds + outputAhead - Self.switchPreroll)
        let generation = control.withLock { $0.generation }
        let items =
            [PacketQueue.Item.switchAudio(AudioSwitch(decoder: decoder, track: track))]
            + held.map { PacketQueue.Item.packet($0.packet, seconds: $0.seconds) }
        let dropped = audioQueue.replace(with: items, generation: generation)
        alternates.packets[id] = nil
        alternates.packets[old.id] = dropped
        media.audio = track
        info?.audio = track
        switchableAudio.withLock {
            $0.remove(id)
            $0.insert(old.id)
        }
        sink(.audioTrackChanged(id))
    }

    /// Media seconds the output holds beyond what is heard now (written, not played yet): at most what the writer
    /// wrote by the time it reads the new track. 0 when this period does not write to the output. Any thread.
    private var outputAhead: Double {
        guard ownsOutput, let output = config.audioOutput else { return 0 }
        let frames = max(0, output.writePosition - output.playPosition)
        let rate = Double(control.withLock { $0.rate })
        return Double(frames) / Double(config.format.sampleRate) * min(1, max(0, rate))
    }

    /// The demux thread switches to rendition `id`, started for the switch, whose sound now reaches ahead of the
    /// play head: the switch is made as for a track of the file, then the old rendition is read no more (its
    /// packets dropped; a switch back starts reading it again).
    func finishRenditionSwitch(
        to id: Int, source: any MediaSource, media: inout MediaInfo, alternates: inout AlternateAudio
    ) {
        guard let old = media.audio else { return }
        performAudioSwitch(to: id, source: source, media: &media, alternates: &alternates)
        guard media.audio?.id == id else { return }
        source.stopReading(track: old.id)
        // The variant's own sound goes on being read (it comes with the pictures): it stays switchable.
        guard !source.reads(track: old.id) else { return }
        alternates.packets[old.id] = nil
        switchableAudio.withLock { _ = $0.remove(old.id) }
        noteStartable(source)
    }

    /// Records which tracks a switch can start reading (`startableTracks`). Demux thread.
    func noteStartable(_ source: any MediaSource) {
        let startable = source.tracks.filter { $0.kind != .video && !source.reads(track: $0.id) }.map(\.id)
        startableTracks.withLock { $0 = Set(startable) }
    }
}
