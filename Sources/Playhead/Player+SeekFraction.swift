import PlayheadCore

extension Player {
    /// Seeks to `fraction` (0...1) of the current item's duration, as a scrubber does, and returns whether the seek
    /// finished (main actor). Only when the duration is numeric (rule 5): on a live item, an item whose duration
    /// is not known yet, or with a fraction that is not a finite number, nothing happens and the answer is false.
    @discardableResult
    public func seek(toFraction fraction: Double) async -> Bool {
        guard let item = currentItem, item.duration.isNumeric, fraction.isFinite else { return false }
        let seconds = item.duration.seconds * min(1, max(0, fraction))
        return await seek(to: MediaTime(seconds: seconds, preferredTimescale: 1000))
    }
}
