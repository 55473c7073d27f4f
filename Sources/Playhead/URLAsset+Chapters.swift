import PlayheadCore
import PlayheadFFmpeg

/// Metadata items that apply to a span of the media, like `AVTimedMetadataGroup`: a chapter. A value type, safe
/// anywhere.
public struct TimedMetadataGroup: Sendable, Hashable {
    /// The span, on the item's timeline.
    public var timeRange: TimeRange
    /// The items (a chapter's `.title`).
    public var items: [MetadataItem]

    /// A group of `items` over `timeRange`.
    public init(timeRange: TimeRange, items: [MetadataItem]) {
        self.timeRange = timeRange
        self.items = items
    }

    /// The text of the first `.title` item, if any.
    public var title: String? { items.first { $0.key == .title }?.stringValue }
}

extension URLAsset {
    /// The asset's chapters (an audiobook's, a film's), in time order, each its time range and its title as a
    /// `.title` item when it has one; empty when the file has none. Like AVFoundation's
    /// `loadChapterMetadataGroups(bestMatchingPreferredLanguages:)`, without the languages: FFmpeg reads one title
    /// per chapter. Throws as `load` does. Any thread or actor; the resource is opened once (`load`).
    public func loadChapterMetadataGroups() async throws -> [TimedMetadataGroup] {
        let info = try await loader.info()
        return info.media.metadata.chapters.map { chapter in
            TimedMetadataGroup(
                timeRange: TimeRange(
                    start: MediaTime(seconds: chapter.start, preferredTimescale: 1000),
                    end: MediaTime(seconds: chapter.end, preferredTimescale: 1000)),
                items: chapter.title.map { [MetadataItem(key: .title, stringValue: $0)] } ?? [])
        }
    }
}
