import CFFmpeg

/// One chapter of a file (an audiobook's, a film's: Matroska, MP4, Ogg and others), as its container lists it.
/// A value type, safe anywhere.
public struct MediaChapter: Sendable, Hashable {
    /// Where it starts and ends, in seconds of the item (from the container's first time stamp).
    public var start: Double
    /// Where it ends; the next chapter's start, or the end, when the container gives none.
    public var end: Double
    /// Its title (`title` tag), when it has one.
    public var title: String?

    /// A chapter from `start` to `end` seconds, titled `title`.
    public init(start: Double, end: Double, title: String? = nil) {
        self.start = start
        self.end = end
        self.title = title
    }

    /// The chapters of `c`, in time order, on the item's timeline (`startSeconds` subtracted); chapters that end
    /// where they start, or before, are left out.
    static func all(in c: UnsafeMutablePointer<AVFormatContext>, startSeconds: Double) -> [MediaChapter] {
        var result: [MediaChapter] = []
        for i in 0..<Int(c.pointee.nb_chapters) {
            guard let chapter = c.pointee.chapters[i]?.pointee, chapter.time_base.den > 0 else { continue }
            let unit = Double(chapter.time_base.num) / Double(chapter.time_base.den)
            let start = Double(chapter.start) * unit - startSeconds
            let end = Double(chapter.end) * unit - startSeconds
            guard start.isFinite, end.isFinite, end > start else { continue }
            let title = MediaMetadata.tag("title", in: chapter.metadata).flatMap { $0.isEmpty ? nil : $0 }
            result.append(MediaChapter(start: max(start, 0), end: end, title: title))
        }
        return result.sorted { $0.start < $1.start }
    }
}
