import Foundation
import Playhead

/// `playhead probe` on a media file or URL (anything that is not a playlist): its duration, tags and tracks, as a
/// report or as JSON (schema in `docs/probe-json.md`), read with `URLAsset` as a player would open it. Runs on the
/// command's task; the open itself runs on a dispatch thread (`URLAsset.load`).
enum MediaProbe {
    /// Prints what `url` (named `target` on the command line) holds; returns the process exit code (0 or 1).
    static func run(_ target: String, url: URL, json: Bool) async -> Int32 {
        let asset = URLAsset(url: url, options: [.networkTimeout: 10.0])
        let duration: MediaTime
        let tracks: [AssetTrack]
        let metadata: [MetadataItem]
        do {
            (duration, tracks, metadata) = try await asset.load(.duration, .tracks, .metadata)
        } catch let error as PlaybackError {
            return ProbeCommand.fail(target, error.reason)
        } catch {
            return ProbeCommand.fail(target, "\(error)")
        }
        let seconds = duration.isNumeric ? duration.seconds : nil
        if json {
            let object: [String: Any] = [
                "type": "asset", "url": url.absoluteString, "duration": seconds ?? NSNull(),
                "tags": tags(metadata), "tracks": tracks.map(dictionary),
            ]
            let data =
                (try? JSONSerialization.data(
                    withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]))
            try? FileHandle.standardOutput.write(contentsOf: (data ?? Data("{}".utf8)) + Data("\n".utf8))
        } else {
            let report = text(url: url, seconds: seconds, tags: tags(metadata), tracks: tracks)
            try? FileHandle.standardOutput.write(contentsOf: Data(report.utf8))
        }
        return 0
    }

    /// The textual tags by their container names (`title`, `artist`, `album`...); artwork left out.
    static func tags(_ metadata: [MetadataItem]) -> [String: String] {
        var tags: [String: String] = [:]
        for item in metadata {
            guard let value = item.stringValue else { continue }
            let name: String
            switch item.key {
            case .title: name = "title"
            case .artist: name = "artist"
            case .albumName: name = "album"
            case .albumArtist: name = "album_artist"
            case .genre: name = "genre"
            case .trackNumber: name = "track"
            case .artwork: continue
            case .other(let tag): name = tag
            }
            tags[name] = tags[name] ?? value
        }
        return tags
    }

    static func dictionary(_ t: AssetTrack) -> [String: Any] {
        let video = t.mediaType == .video
        let audio = t.mediaType == .audio
        func value<T>(_ present: Bool, _ v: T) -> Any { present ? v : NSNull() }
        return [
            "id": t.trackID, "kind": t.mediaType.rawValue, "codec": t.codecName, "playable": t.isPlayable,
            "width": value(video && t.naturalSize.width > 0, Int(t.naturalSize.width)),
            "height": value(video && t.naturalSize.height > 0, Int(t.naturalSize.height)),
            "frameRate": value(video && t.nominalFrameRate > 0, Double(t.nominalFrameRate)),
            "bitRate": value(t.estimatedDataRate > 0, Int(t.estimatedDataRate)),
            "sampleRate": value(audio && t.sampleRate > 0, t.sampleRate),
            "channels": value(audio && t.channelCount > 0, t.channelCount),
            "language": t.languageCode ?? NSNull(), "name": t.name ?? NSNull(),
            "duration": value(t.duration.isNumeric, t.duration.seconds),
        ]
    }

    static func text(url: URL, seconds: Double?, tags: [String: String], tracks: [AssetTrack]) -> String {
        // Anyone can write a tag or a file name: a line break in one must not pass for a line of the report.
        var lines = ["media: " + terminalSafe(url.isFileURL ? url.path : url.absoluteString)]
        lines.append("  duration: " + (seconds.map { String(format: "%.3f s", $0) } ?? "unknown (live or unbounded)"))
        if !tags.isEmpty { lines.append("  tags:") }
        for (name, value) in tags.sorted(by: { $0.key < $1.key }) {
            lines.append("    \(terminalSafe(name)): \(terminalSafe(value))")
        }
        for t in tracks {
            var parts = [t.mediaType.rawValue, t.codecName]
            if t.mediaType == .video, t.naturalSize.width > 0 { parts.append(t.naturalSize.description) }
            if t.mediaType == .video, t.nominalFrameRate > 0 {
                parts.append(String(format: "%.3g fps", t.nominalFrameRate))
            }
            if t.mediaType == .audio, t.sampleRate > 0 { parts.append("\(t.sampleRate) Hz") }
            if t.mediaType == .audio, t.channelCount > 0 {
                parts.append(t.channelCount == 1 ? "1 channel" : "\(t.channelCount) channels")
            }
            if t.estimatedDataRate > 0 { parts.append("\(Int(t.estimatedDataRate / 1000)) kbit/s") }
            if let language = t.languageCode { parts.append("language \(language)") }
            if let name = t.name { parts.append("\"\(terminalSafe(name))\"") }
            if !t.isPlayable { parts.append("not playable here") }
            lines.append("  track \(t.trackID): " + parts.joined(separator: ", "))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
