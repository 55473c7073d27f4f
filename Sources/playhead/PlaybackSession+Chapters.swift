import Foundation
import Playhead

/// Chapters (an audiobook's, a film's): Page Down and Page Up go to the next and the previous one, as in mpv, and
/// the status line says which one plays. Main actor.
extension PlaybackSession {
    /// Loads the current item's chapters (its asset answers from the open the player made) for the keys and the
    /// status line.
    func loadChapters() {
        guard let item = player.currentItem, chapters?.item != ObjectIdentifier(item) else { return }
        Task { @MainActor in
            let groups = (try? await item.asset.loadChapterMetadataGroups()) ?? []
            if player.currentItem === item { chapters = (ObjectIdentifier(item), groups) }
        }
    }

    /// The current item's chapters, once loaded; none before.
    var currentChapters: [TimedMetadataGroup] {
        guard let item = player.currentItem, let c = chapters, c.item == ObjectIdentifier(item) else { return [] }
        return c.groups
    }

    /// The chapter that plays at `seconds` (one that starts up to 50 ms later counts: a seek to a chapter's start
    /// may read a hair before it), nil before the first.
    static func chapter(at seconds: Double, in groups: [TimedMetadataGroup]) -> Int? {
        groups.lastIndex { $0.timeRange.start.seconds <= seconds + 0.05 }
    }

    /// Goes to the next chapter (`forward`), or back: to the start of the chapter playing when it began more than
    /// 5 s ago (mpv's `chapter-seek-threshold`), else to the one before it. Past the last chapter the next entry
    /// plays. Names the chapter it goes to.
    func seekChapter(forward: Bool) {
        let groups = currentChapters
        guard !groups.isEmpty else { return }
        let now = player.currentTime().seconds
        let playing = Self.chapter(at: now, in: groups)
        let target: Int
        if forward {
            target = (playing ?? -1) + 1
            guard target < groups.count else { return playNextEntry() }
        } else {
            guard let i = playing else { return seek(0) }
            target = i > 0 && now - groups[i].timeRange.start.seconds <= 5 ? i - 1 : i
        }
        seek(groups[target].timeRange.start.seconds)
        terminal.message("chapter \(target + 1)/\(groups.count)" + (groups[target].title.map { ": \($0)" } ?? ""))
    }

    /// "ch 2/5" while the current item's chapter 2 of 5 plays; nil for an item without chapters.
    var chapterLabel: String? {
        let groups = currentChapters
        guard !groups.isEmpty else { return nil }
        let playing = Self.chapter(at: player.currentTime().seconds, in: groups).map { $0 + 1 } ?? 0
        return "ch \(playing)/\(groups.count)"
    }
}
