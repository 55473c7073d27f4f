import Foundation
import Playhead

/// How `playhead` names inputs in its messages: as the user gave them (a relative path, `-`, a name that is not
/// UTF-8), not as FFmpeg and the engine name them (absolute paths, URLs, `/proc/self/fd/N`). Main actor.
extension PlaybackSession {
    /// `text` with each input named as the user gave it (`shownNames`; the longest path first, so that one which
    /// begins another is not replaced inside it). Main actor.
    func shown(_ text: String) -> String {
        shownNames.merging(ByteNamedFiles.shownNames) { own, _ in own }.sorted { $0.key.count > $1.key.count }.reduce(
            text
        ) {
            $0.replacingOccurrences(of: $1.key, with: $1.value)
        }
    }

    /// Names `url`, a local input given as the relative path `location`, by that path in messages (FFmpeg and the
    /// engine name the file by its absolute path); the first spelling given names a file given twice, except in
    /// its own entry's errors (`shown(_:entry:)`). Main actor.
    func nameAsGiven(_ url: URL, location: String) {
        guard !location.hasPrefix("/") else { return }
        for (name, given) in Self.names(of: url, location: location) where shownNames[name] == nil {
            shownNames[name] = given
        }
    }

    /// `text` (an entry's error) with the entry's own file named as given at `location` (however another entry
    /// spelled it), the rest as `shown` names them. Main actor.
    func shown(_ text: String, entry location: String) -> String {
        let url = location.contains("://") ? URL(text: location) : URL(fileURLWithPath: location)
        // A file opened by its bytes keeps its lossy name, standard input its `-`.
        let given = inputNames[location] ?? ByteNamedFiles.shownName(of: location)
        let own = url.map { Self.names(of: $0, location: location).mapValues { _ in given } } ?? [:]
        let all = shownNames.merging(ByteNamedFiles.shownNames) { own, _ in own }.merging(own) { _, entry in entry }
        return all.sorted { $0.key.count > $1.key.count }.reduce(text) {
            $0.replacingOccurrences(of: $1.key, with: $1.value)
        }
    }

    /// The names FFmpeg and the engine give the local input `url`, given as `location`: its path and its URL (an
    /// HLS playlist is named by its URL), standardized or not; none for anything but a local path.
    static func names(of url: URL, location: String) -> [String: String] {
        guard url.isFileURL, !location.contains("://") else { return [:] }
        let names = [
            url.path, url.standardizedFileURL.path, url.absoluteString, url.standardizedFileURL.absoluteString,
        ]
        return Dictionary(names.map { ($0, location) }) { a, _ in a }
    }
}
