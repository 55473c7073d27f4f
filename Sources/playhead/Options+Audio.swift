/// The audio options: `--audio-device=NAME|help`, `--exclusive-audio` and `--replaygain=no|track|album`.
extension Options {
    /// Parses one audio option; false when `name` is not one.
    mutating func parseAudioOption(_ name: String, _ value: String?) throws(UsageError) -> Bool {
        switch name {
        case "--audio-device":
            let device = try Self.need(name, value)
            if device == "help" {
                listAudioDevices = true
            } else {
                audioDevice = device
            }
        case "--exclusive-audio":
            switch value {
            case nil, "yes": exclusiveAudio = true
            case "no": exclusiveAudio = false
            case let v?: throw UsageError(description: "--exclusive-audio: expected yes or no, got '\(v)'")
            }
        case "--replaygain":
            switch try Self.need(name, value) {
            case "no": replayGain = .off
            case "track": replayGain = .track
            case "album": replayGain = .album
            case let v: throw UsageError(description: "--replaygain: expected no, track or album, got '\(v)'")
            }
        default: return false
        }
        return true
    }
}
