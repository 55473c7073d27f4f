import Foundation
import PlayheadHLS

extension HLSAdaptiveState {
    /// The most bytes of init sections kept (8 MiB: an init section is a few kilobytes; a ladder of a dozen
    /// variants with a few renditions keeps them all).
    static let initSectionLimit = 8 << 20

    /// The key of an init section: its URL and byte range.
    static func key(of map: MediaInitializationSection) -> String? {
        guard let url = map.url else { return nil }
        return url.absoluteString + (map.byteRange.map { " \($0.offset)+\($0.length)" } ?? "")
    }

    /// The init section fetched before for `map` (as it was handed over: decrypted when the whole section was
    /// encrypted), if kept. Demux thread.
    func keptInitSection(_ map: MediaInitializationSection) -> Data? {
        Self.key(of: map).flatMap { initSections[$0] }
    }

    /// Keeps `body`, the init section of `map` fetched for rung `rung`, so that a switch back to a variant does not
    /// wait for it again; nothing more is kept once `initSectionLimit` bytes are. Demux thread.
    func keepInitSection(_ body: Data, of map: MediaInitializationSection, rung: Int?) {
        if let rung { rungsWithInitSection.insert(rung) }
        guard let key = Self.key(of: map), !body.isEmpty else { return }
        let kept = initSections.values.reduce(0) { $0 + $1.count }
        if kept + body.count <= Self.initSectionLimit { initSections[key] = body }
    }

    /// For each rung, the requests a switch to it waits for before its first segment's: its media playlist when it
    /// is not at hand (always, while live: a live playlist is reloaded), and its init section when the stream is
    /// fMP4 (`usesInitSections`) and none was fetched on that rung yet. The current rung waits for none. Demux
    /// thread.
    func requestsBeforeFirstSegment(isLive: Bool, usesInitSections: Bool) -> [Int: Int] {
        var result: [Int: Int] = [:]
        for rung in variants.indices where rung != current {
            let playlist = isLive || playlists[rung] == nil ? 1 : 0
            let initSection = usesInitSections && !rungsWithInitSection.contains(rung) ? 1 : 0
            if playlist + initSection > 0 { result[rung] = playlist + initSection }
        }
        return result
    }
}
