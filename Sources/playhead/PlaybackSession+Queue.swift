import Foundation
import Playhead
import PlayheadNowPlaying
import PlayheadSubtitles

/// The queue: one item per slot of the play order, the next one always queued so the player preloads it and
/// joins it gaplessly; next/previous; resume positions. Main actor.
extension PlaybackSession {
    /// The path or URL a slot plays.
    func location(of slot: PlaylistCursor.Slot) -> String {
        guard let cursor else { return "" }
        return entries[cursor.entry(slot)].location
    }

    /// Where `item` comes from: its entry's location, or for an item the desktop opened (MPRIS `OpenUri`,
    /// `AddTrack`: no entry), its URL (a local file by its path).
    func location(of item: PlayerItem, slot: PlaylistCursor.Slot?) -> String {
        if let slot { return location(of: slot) }
        let url = item.asset.url
        return url.isFileURL ? url.path : url.absoluteString
    }

    /// The title to show: the playlist's title (the user chose it), else the file's tag, else the file name.
    func title(of item: PlayerItem?, slot: PlaylistCursor.Slot?) -> String {
        let entry = slot.flatMap { s in cursor.map { entries[$0.entry(s)] } }
        if let t = entry?.title, !t.isEmpty { return t }
        if let t = item?.metadata.string(for: .title), !t.isEmpty { return t }
        guard let location = entry?.location ?? item.map({ location(of: $0, slot: nil) }) else { return "" }
        // A file opened by its bytes (`/proc/self/fd/N`) by the name it was given (else "5").
        let l = shown(location)
        return l.contains("://") ? l : (l as NSString).lastPathComponent
    }

    /// The subtitle files shown with the input at `url`: for a local file, those named after it in its folder
    /// (unless `--sub-auto=no`), then the `--sub-file` ones (the last is chosen).
    func subtitleFiles(for url: URL) -> [URL] {
        var files: [String] = []
        if options.tracks.autoSubtitles, url.isFileURL, let folder = ByteNamedFiles.folder(of: url.path),
            let entries = ByteNamedFiles.contentsOfFolder(folder)
        {
            // Names compared as bytes (each read as Latin-1, one character per byte), so a name that is not UTF-8
            // finds its own; regular files only (a folder or a FIFO named like subtitles is passed over, as mpv
            // does); the files given with --sub-file are not shown twice.
            let latin1 = { (bytes: [UInt8]) in String(bytes.map { Character(UnicodeScalar($0)) }) }
            let own = ByteNamedFiles.nameBytes(of: url.path).split(separator: 0x2F).last.map { latin1(Array($0)) }
            let byName = Dictionary(entries.filter(\.isRegularFile).map { (latin1($0.nameBytes), $0) }) { a, _ in a }
            let explicit = Set(options.tracks.subtitleFiles.compactMap(Self.fileIdentity))
            files = SubtitleFileNames.companions(of: own ?? "", among: Array(byName.keys))
                .compactMap { byName[$0]?.path }
                .filter { !explicit.contains(Self.fileIdentity($0) ?? []) }
        }
        // A pipe given is read from its copy; one that could not be read is left out.
        let given = options.tracks.subtitleFiles.compactMap { path -> String? in
            pipedSubtitles.copies[path] ?? (PipedSubtitleFiles.isPipe(path) ? nil : path)
        }
        return (files + given).map { URL(fileURLWithPath: $0) }
    }

    /// The device and inode of the file at `path` (links followed), or nil.
    private static func fileIdentity(_ path: String) -> [UInt64]? {
        var info = stat()
        return stat(path, &info) == 0 ? [UInt64(info.st_dev), UInt64(info.st_ino)] : nil
    }

    /// Queues the item for `slot` at the end of the player's queue.
    @discardableResult
    func enqueue(_ slot: PlaylistCursor.Slot) -> PlayerItem {
        let location = location(of: slot)
        let url =
            location.contains("://")
            ? (URL(text: location) ?? URL(fileURLWithPath: location))
            : URL(fileURLWithPath: PlaylistFile.resolvingParentSteps(location))
        nameAsGiven(url, location: location)
        let item = options.hls.makeItem(url: url, subtitleFiles: subtitleFiles(for: url))
        if let selection = options.tracks.selection { item.trackSelection = selection }
        item.subtitleDelay = subtitleDelay
        if !options.noVideo { item.add(NullVideoOutput()) }
        if Terminal.isInteractive && !options.reallyQuiet { item.add(terminalSubtitles) }
        // A playlist's title reaches Now Playing too (over the file's own tag).
        if let cursor, let title = entries[cursor.entry(slot)].title, !title.isEmpty {
            item.nowPlayingInfo = [NowPlayingInfoKey.title.rawValue: title]
        }
        if let start = options.start {
            item.seek(to: MediaTime(seconds: start, preferredTimescale: 48_000))
        } else if slot.repeatIndex == 0, isResumable(location), let position = resume?.position(for: location) {
            item.seek(to: MediaTime(seconds: position, preferredTimescale: 48_000))
            resumedAt[ObjectIdentifier(item)] = position
        }
        if options.start == nil, let length = options.length {
            // Counted from where the item starts: a resumed position, else 0. A stream's is set once it is ready
            // (a live one starts near its edge); a local file's now, so that a run faster than real time
            // (`--ao=wav`) cannot pass it before the item is ready.
            let start = resumedAt[ObjectIdentifier(item)] ?? 0
            if location.contains("://") || location.lowercased().hasSuffix(".m3u8") {
                lengthFromStart[ObjectIdentifier(item)] = start
            } else {
                item.forwardPlaybackEndTime = MediaTime(seconds: start + length, preferredTimescale: 48_000)
            }
        } else if let stop = options.stopTime {
            item.forwardPlaybackEndTime = MediaTime(seconds: stop, preferredTimescale: 48_000)
        }
        slots[ObjectIdentifier(item)] = slot
        lastQueued = slot
        player.insert(item, after: nil)
        return item
    }

    /// `--length` without `--start` on a stream, once the current item is ready (or current, when it was opened
    /// ahead): a live stream counts from where it starts playing, near its live edge (counted from 0, `--length=4`
    /// ended the command at once, silent); one of known duration from its start (a resumed position, else 0).
    func countLengthFromTheStart() {
        guard let length = options.length, let item = player.currentItem, item.status == .readyToPlay,
            let queuedStart = lengthFromStart.removeValue(forKey: ObjectIdentifier(item))
        else { return }
        let start = item.duration.isNumeric ? queuedStart : player.currentTime().seconds
        item.forwardPlaybackEndTime = MediaTime(seconds: start + length, preferredTimescale: 48_000)
    }

    /// An item that ended: one whose `--start` was past its end is said to be so (it played nothing; it ended
    /// without a word).
    func checkStartPosition(_ ended: PlayerItem, slot: PlaylistCursor.Slot) {
        guard let start = options.start, ended.duration.isNumeric, start >= ended.duration.seconds else { return }
        let end = clockString(ended.duration.seconds)
        printError("\(shown(location(of: slot))): --start=\(clockString(start)) is past its end (\(end))")
    }

    /// The player moved to another item: note it, announce it, and queue the one after it.
    func currentItemChanged() {
        if abLoop?.item !== player.currentItem { clearABLoop() }
        guard let item = player.currentItem else {
            // Items shorter than the main actor takes to hear of them (`--untimed`, a folder of clicks) can end
            // before the one after them is queued: the player's queue ran dry, not the playlist.
            if let last = lastQueued, let next = cursor?.next(after: last) {
                enqueue(next)
                // It is current at once: announced, and the one after it queued now (so the queue runs dry less).
                if player.currentItem != nil { currentItemChanged() }
            } else {
                finish()
            }
            return
        }
        if current?.item === item { return }
        // An item with no slot is one the desktop opened (MPRIS `OpenUri`, `AddTrack`): named by its URL, and the
        // player's own queue goes on after it (the playlist after the last entry queued, once that runs dry).
        let slot = slots[ObjectIdentifier(item)]
        current = (item, slot)
        // Forget the bookkeeping of items that left the queue.
        let queued = Set(player.items().map(ObjectIdentifier.init))
        slots = slots.filter { queued.contains($0.key) }
        if !options.reallyQuiet {
            let name = shown(location(of: item, slot: slot))
            if let position = resumedAt.removeValue(forKey: ObjectIdentifier(item)) {
                terminal.message("Resuming \(name) at \(clockString(position)) (--no-resume to start over)")
            } else if Terminal.isInteractive {
                terminal.message("Playing\(slot.map(indexLabel) ?? ""): \(name)")
            }
        }
        if player.items().count < 2, let slot, let cursor, let next = cursor.next(after: slot) { enqueue(next) }
    }

    /// " [2/5]" for a queue of more than one entry.
    func indexLabel(_ slot: PlaylistCursor.Slot) -> String {
        entries.count > 1 ? " [\(slot.position + 1)/\(entries.count)]" : ""
    }

    /// The "next" key: the next entry (skipping the current one's repeats).
    func playNextEntry() {
        // A track the desktop added (MPRIS AddTrack) is none of the entries: up next, or playing now, the player's
        // own queue goes on (Next did nothing while the added track waited after the last entry).
        if let next = player.upNext.first,
            slots[ObjectIdentifier(next)] == nil || player.currentItem !== current?.item || playingSlot == nil
        {
            player.advanceToNextItem()
            return
        }
        // After an item the desktop opened, the playlist goes on after the last entry queued.
        guard let slot = playingSlot ?? lastQueued, let cursor, let next = cursor.nextEntry(after: slot) else { return }
        jump(to: next)
    }

    /// After the current entry failed, the queue goes on as players do with a broken playlist entry: the next
    /// entry (the failed one's repeats skipped: they would fail too), or after the last an empty queue (the item
    /// change ends the command). Once every entry failed in a row, a loop over them (`--loop-playlist`) would fail
    /// for ever: the command ends (without a loop, the queue runs to its end as above).
    func goOnAfterFailure() {
        if let cursor, cursor.playlistLoops != 0, failedInARow >= cursor.order.count { return finish() }
        if let upNext = player.upNext.first, slots[ObjectIdentifier(upNext)] == nil {
            // A track the desktop added is next.
            player.advanceToNextItem()
        } else if let slot = playingSlot, let cursor, let next = cursor.nextEntry(after: slot) {
            jump(to: next)
        } else {
            player.advanceToNextItem()
        }
    }

    /// The entry the player plays now: its current item's. The session hears of a change of item later (`current`):
    /// a key pressed again before then went on from the entry it had heard of, and made a new item of the same
    /// next entry at each press (an HLS queue opened one stream ten times over for ten presses, each open left
    /// running).
    private var playingSlot: PlaylistCursor.Slot? {
        guard let item = player.currentItem else { return current?.slot }
        return slots[ObjectIdentifier(item)] ?? (current?.item === item ? nil : current?.slot)
    }

    /// The "previous" key: restarts the entry when more than 3 s in (as Media3 and most players do), else plays
    /// the entry before it.
    func playPreviousEntry() {
        guard let slot = playingSlot ?? lastQueued, let cursor else { return }
        if player.currentTime().seconds > 3 || playingSlot == nil {
            player.seek(to: .zero, toleranceBefore: .zero, toleranceAfter: .zero)
            return
        }
        guard let previous = cursor.previous(before: slot) else {
            player.seek(to: .zero, toleranceBefore: .zero, toleranceAfter: .zero)
            return
        }
        jump(to: previous)
    }

    /// Plays `slot` now: the queued next item when it is that slot (already preloaded), else a new item put
    /// right after the current one.
    private func jump(to slot: PlaylistCursor.Slot) {
        let upNext = player.upNext
        if let next = upNext.first, slots[ObjectIdentifier(next)] == slot {
            player.advanceToNextItem()
            return
        }
        for item in upNext { player.remove(item) }
        enqueue(slot)
        player.advanceToNextItem()
    }

    /// Whether a position in `location` can be remembered: a URL or a regular file (one opened by its bytes too:
    /// `ResumeStore.key` names it by its name), not a pipe or standard input. Main actor.
    func isResumable(_ location: String) -> Bool {
        if location.contains("://") { return true }
        var info = stat()
        return stat(location, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    /// Saves where a long unfinished item was left (on quit).
    func saveResumePoint() {
        guard let resume, let c = current, isResumable(location(of: c.item, slot: c.slot)) else { return }
        let duration = c.item.duration.isNumeric ? c.item.duration.seconds : .infinity
        resume.save(player.currentTime().seconds, duration: duration, for: location(of: c.item, slot: c.slot))
    }
}
