import PlayheadFFmpeg

/// The loudness correction (`EngineConfiguration.replayGain`) as the songs of one item change: each link of a
/// chained Ogg file (a recorded radio, songs joined end to end) carries its own ReplayGain tags, which apply from
/// the link's first sample, not from when the demuxer read them (up to the forward buffer earlier).
extension PlaybackEngine {
    /// Posts an event of the source's, first noting the loudness correction a change of tags brings at its item
    /// time. Demux thread.
    func postFromSource(_ event: EngineEvent) {
        if case .metadataChanged(let metadata, let seconds) = event, config.replayGain != .off {
            // A song without a correction plays as it is, not at the one before it.
            let gain = Float(config.replayGain.factor(for: metadata.replayGain) ?? 1)
            control.withLock { $0.gainChanges.append((at: seconds ?? -.infinity, gain: gain)) }
        }
        sink(event)
    }
}

extension PlaybackEngine.Control {
    /// Takes the loudness corrections due by item time `seconds` (the start of the sound about to be written).
    /// Under the control lock, on the audio thread.
    mutating func applyGainChanges(upTo seconds: Double) {
        while let first = gainChanges.first, first.at <= seconds + 0.001 {
            gain = first.gain
            gainChanges.removeFirst()
        }
    }
}
