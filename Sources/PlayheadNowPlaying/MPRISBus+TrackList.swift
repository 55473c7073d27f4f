import Foundation

extension MPRISBus {
    /// The TrackList signals that take a desktop from `old` to `new`: `TrackRemoved` for each track gone,
    /// `TrackAdded` (after its predecessor) for each new one, `TrackMetadataChanged` for each changed one; or
    /// `TrackListReplaced` when the tracks that stay changed their order, or none stays. Called under the bus's
    /// lock.
    static func trackListSignals(
        from old: [MPRISState.Metadata], to new: [MPRISState.Metadata], current: String
    ) -> [Outgoing] {
        let oldIDs = old.map(\.trackID)
        let newIDs = new.map(\.trackID)
        guard oldIDs != newIDs || old != new else { return [] }
        let kept = Set(oldIDs).intersection(newIDs)
        let replaced = kept.isEmpty && !oldIDs.isEmpty && !newIDs.isEmpty
        if replaced || oldIDs.filter(kept.contains) != newIDs.filter(kept.contains) {
            let currentTrack = newIDs.contains(current) ? current : MPRISState.noTrack
            return [
                .signal(interface: trackListInterface, member: "TrackListReplaced") { w in
                    w.objectPaths(newIDs)
                    w.string(currentTrack, as: "o")
                }
            ]
        }
        var out: [Outgoing] = []
        for id in oldIDs where !kept.contains(id) {
            out.append(.signal(interface: trackListInterface, member: "TrackRemoved") { $0.string(id, as: "o") })
        }
        let before = Dictionary(old.map { ($0.trackID, $0) }) { a, _ in a }
        for (i, track) in new.enumerated() {
            if let was = before[track.trackID] {
                guard was != track else { continue }
                out.append(
                    .signal(interface: trackListInterface, member: "TrackMetadataChanged") { w in
                        w.string(track.trackID, as: "o")
                        w.metadata(track)
                    })
            } else {
                let after = i == 0 ? MPRISState.noTrack : newIDs[i - 1]
                out.append(
                    .signal(interface: trackListInterface, member: "TrackAdded") { w in
                        w.metadata(track)
                        w.string(after, as: "o")
                    })
            }
        }
        return out
    }
}
