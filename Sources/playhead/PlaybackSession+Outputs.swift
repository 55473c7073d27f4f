import Foundation
import Playhead

/// The files the command writes (`--ao=wav:PATH`, `--log-json=PATH`) checked before anything is written: never
/// one of its inputs, never a file of another kind (`OutputFile`). Main actor.
extension PlaybackSession {
    /// Why an output would overwrite what the user keeps: one of the inputs (a media file, a playlist or one of its
    /// entries, a subtitle file), or an existing file that is neither empty nor of the kind written. Nil when none
    /// would. `locations` are the entries of the expanded playlists.
    func outputProblem(_ locations: [String]) -> String? {
        var outputs: [(flag: String, path: String, kind: String, isOurs: (Data) -> Bool)] = []
        if case .wav(let path) = options.audioOutput {
            outputs.append(("--ao=wav:", path, "a WAV file", WAVAudioOutput.isWAV))
        }
        if let path = options.logJSON { outputs.append(("--log-json:", path, "a JSON log", EventLog.isLog)) }
        let local = (options.inputs + locations).compactMap { location -> String? in
            if location.hasPrefix("file:") { return URL(text: location)?.path }
            return location.contains("://") ? nil : location
        }
        let inputs = local + options.tracks.subtitleFiles
        for (i, o) in outputs.enumerated() {
            if let input = inputs.first(where: { OutputFile.isSameFile(o.path, $0) }) {
                return "\(o.flag) \(o.path): it is also an input (\(input)); not overwritten"
            }
            if outputs[..<i].contains(where: { OutputFile.isSameFile(o.path, $0.path) || o.path == $0.path }) {
                return "\(o.flag) \(o.path): the other output writes there too"
            }
            do {
                try OutputFile.checkExisting(o.path, kind: o.kind, isOurs: o.isOurs)
                // The WAV export is opened when the first sound comes: what would fail it then is said now.
                if o.flag == "--ao=wav:" { try OutputFile.checkWritable(o.path) }
            } catch {
                return "\(o.flag) \(error.description)"
            }
        }
        return nil
    }
}
