import Foundation
import Playhead

extension PlaybackSession {
    /// For each HLS failover the current item's error log gained since the last look (a variant, host or pathway
    /// that failed for good, and where playback went): one line on stderr (unless `--really-quiet`) and a
    /// `failover` event in `--log-json`; for a subtitle file left out, one line saying why. Main actor.
    func noticeFailovers() {
        guard let c = current else { return }
        let id = ObjectIdentifier(c.item)
        let entries = c.item.errorLog
        let seen = failoversLookedAt[id] ?? 0
        guard entries.count > seen else { return }
        failoversLookedAt[id] = entries.count
        for entry in entries[seen...] {
            // A subtitle file left out (`--sub-file`, or one named after the input): said once, the input plays on.
            let files = (c.item.asset.options[.subtitleFiles] as? [URL]) ?? []
            if let file = files.first(where: { $0.path == entry.uri }) {
                let given = options.tracks.subtitleFiles.first { URL(fileURLWithPath: $0).path == file.path }
                printError("\(given ?? shown(file.path)): \(entry.failureReason); playing without it")
                continue
            }
            guard let to = entry.failoverTarget else { continue }
            if !options.reallyQuiet {
                printError(shown("HLS failover: \(entry.uri) failed (\(entry.failureReason)); now \(to)"))
            }
            log?.write([
                "event": "failover", "input": location(of: c.item, slot: c.slot), "from": entry.uri, "to": to,
                "reason": entry.failureReason, "time": (MonotonicClock.now() - MonotonicClock.processStart),
            ])
        }
    }
}
