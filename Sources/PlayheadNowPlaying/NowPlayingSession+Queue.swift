import Foundation
import Playhead

/// A session on a `QueuePlayer`: the queue is the MPRIS TrackList (the current item first, then what plays next),
/// with default next and previous handlers, GoTo, AddTrack and RemoveTrack. Main actor.
extension NowPlayingSession {
    var queue: QueuePlayer? { player as? QueuePlayer }

    /// The object path naming `item` while the session knows it; a new item (a copy too) gets a new one.
    func trackID(for item: PlayerItem) -> String {
        if let known = trackIDs[ObjectIdentifier(item)], known.item === item { return known.id }
        nextTrackNumber += 1
        let id = "/org/playhead/item/\(nextTrackNumber)"
        trackIDs[ObjectIdentifier(item)] = (item, id)
        return id
    }

    /// The queue's item with track id `id`.
    func item(withID id: String) -> PlayerItem? { queue?.items().first { trackID(for: $0) == id } }

    /// Publishes the queue's tracks and whether next/previous can act; remembers the items that played.
    func publishQueue(current: PlayerItem?, previous: PlayerItem?) {
        guard let q = queue else { return }
        let items = q.items()
        if let previous, previous !== current, !items.contains(where: { $0 === previous }), !isGoingBack {
            history.append(previous)
            if history.count > 20 { history.removeFirst() }
        }
        let center = nowPlayingInfoCenter
        center.tracks = items.map { NowPlayingTrack(id: trackID(for: $0), info: itemInfo($0)) }
        center.currentTrackID = current.map(trackID(for:))
        center.canGoNext = !q.upNext.isEmpty
        center.canGoPrevious = current != nil
        let known = Set((items + history).map(ObjectIdentifier.init))
        trackIDs = trackIDs.filter { known.contains($0.key) }
    }

    /// What the track list shows of `item`: its tags once opened (or read from the asset beforehand), the app's
    /// `nowPlayingInfo` over them, and its duration.
    func itemInfo(_ item: PlayerItem) -> NowPlayingInfo {
        var info: NowPlayingInfo
        if item.status == .unknown, item.metadata.isEmpty {
            info = assetTags[ObjectIdentifier(item)] ?? Self.tags(item.metadata, url: item.asset.url)
            loadTags(of: item)
        } else {
            info = Self.tags(item.metadata, url: item.asset.url)
            if item.duration.isNumeric { info.playbackDuration = item.duration.seconds }
        }
        info.assetURL = Self.publishedURL(item.asset.url)
        if let app = item.nowPlayingInfo { info.overlay(Self.info(app)) }
        return info
    }

    /// Reads the tags and duration of an item that has not opened yet, once; publishes when they are known.
    private func loadTags(of item: PlayerItem) {
        let key = ObjectIdentifier(item)
        guard !loadingTags.contains(key) else { return }
        loadingTags.insert(key)
        let asset = item.asset
        Task { [weak self] in
            guard let (duration, metadata) = try? await asset.load(.duration, .metadata) else { return }
            var info = Self.tags(metadata, url: asset.url)
            if duration.isNumeric { info.playbackDuration = duration.seconds }
            self?.assetTags[key] = info
            self?.publish()
        }
    }

    /// The TrackList operations on the queue.
    func queueControl() -> TrackListControl {
        TrackListControl(
            canEdit: true,
            goTo: { [weak self] id in
                self?.goTo(id)
                return nil
            },
            add: { [weak self] url, after, makeCurrent in
                self?.add(url, after: after, makeCurrent: makeCurrent)
            },
            remove: { [weak self] id in
                if let self, let item = self.item(withID: id) {
                    self.queue?.remove(item)
                    self.publish()
                }
                return nil
            })
    }

    /// Plays the queue's track `id` now: the items between are dropped (a queue plays forward only). Not in the
    /// queue, or already current: nothing happens (the spec).
    func goTo(_ id: String) {
        guard let q = queue, let target = item(withID: id), target !== q.currentItem else { return }
        for item in q.items().dropFirst() {
            if item === target { break }
            q.remove(item)
        }
        q.advanceToNextItem()
        publish()
    }

    private func add(_ url: URL, after: String, makeCurrent: Bool) -> MPRISError? {
        add(PlayerItem(url: url), after: after, makeCurrent: makeCurrent)
    }

    func add(_ item: PlayerItem, after: String, makeCurrent: Bool) -> MPRISError? {
        guard let q = queue else { return nil }
        // A queue's current item always comes first: "at the start" (NoTrack) means right after it.
        let afterItem = after == MPRISState.noTrack ? q.currentItem : self.item(withID: after)
        guard after == MPRISState.noTrack || afterItem != nil else {
            return ("org.freedesktop.DBus.Error.InvalidArgs", "\(after) is not in the track list")
        }
        q.insert(item, after: afterItem ?? q.items().last)
        if makeCurrent { goTo(trackID(for: item)) }
        publish()
        return nil
    }

    /// The default next and previous handlers: the next item; the item played before (a new copy of it, as an
    /// item plays in a queue once), or the current one from its start when none played before.
    func installQueueHandlers() {
        let c = remoteCommandCenter
        defaultTargets.append(
            (
                c.nextTrackCommand,
                c.nextTrackCommand.addTarget { [weak self] _ in
                    guard let q = self?.queue, !q.upNext.isEmpty else { return .noActionableNowPlayingItem }
                    q.advanceToNextItem()
                    self?.publish()
                    return .success
                }
            ))
        defaultTargets.append(
            (
                c.previousTrackCommand,
                c.previousTrackCommand.addTarget { [weak self] _ in self?.previousItem() ?? .commandFailed }
            ))
    }

    private func previousItem() -> RemoteCommandHandlerStatus {
        guard let q = queue, let current = q.currentItem else { return .noActionableNowPlayingItem }
        guard let previous = history.popLast() else {
            q.seek(to: .zero, toleranceBefore: .zero, toleranceAfter: .zero)
            return .success
        }
        let again = Self.copy(previous)
        q.insert(Self.copy(current), after: current)
        isGoingBack = true
        q.replaceCurrentItem(with: again)
        publish()
        isGoingBack = false
        return .success
    }

    private static func copy(_ item: PlayerItem) -> PlayerItem {
        let copy = PlayerItem(asset: item.asset)
        copy.nowPlayingInfo = item.nowPlayingInfo
        return copy
    }
}
